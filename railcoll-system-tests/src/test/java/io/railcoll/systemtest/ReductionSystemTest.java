package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reduce, reduce-scatter (equal blocks), scan, exscan and scatter on real processes over real loopback rails and
 * shared memory: every algorithm (forced, then the automatic choice) x type x operator x count, roots in turn,
 * against a sequential reference, a non-commutative user operator in rank order and refused by the rings; one job
 * per placement checks all of its cases (counts above 1000 on three of the type and operator cases, so that a job of
 * nine JVMs ends within the 5-minute job deadline on a loaded 2-core host). A disagreement on root, count, type or operator fails every rank with a
 * mismatch.
 */
class ReductionSystemTest {
    private static final Map<String, String> SHORT_DEADLINE = Map.of("RAILCOLL_TIMEOUT_MS", "60000");

    @ParameterizedTest(name = "placement {0}, {1} rails, counts {2}")
    @CsvSource(delimiter = ';', value = {
            // 3,4,2 on 2 rails (counts 0,1,7,30001) and on 1 (1,4099), 1x5 on 1 (0,1,7,50021): CheckJobsSystemTest,
            // in one job with the other classes' checks of that placement and rails (decision 0082)
            "1x5;    2; 1,7",
            "5x1;    2; 0,7,4099",
    })
    void everyAlgorithmTypeAndOperatorMatchesTheSequentialReference(String placement, int rails, String counts) {
        Jobs.Outcome o = Jobs.run(Placement.parse(placement), rails, ReductionApps.Check.class,
                List.of("counts=" + counts), Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("REDUCTIONS-CHECKED "), o.stdout());
        // The reduce-scatter ring refuses the non-commutative operator once per count.
        assertTrue(o.stdout().contains(" cases, " + counts.split(",").length + " refused, "), o.stdout());
    }

    /**
     * The one-node prefixes (decisions 0222, 0227) on 2, 3 and 5 ranks: node steps and single copy, every type and
     * operator (the non-commutative one in rank order), counts 0, 1, odd, just past one 64 KiB piece of doubles and
     * 13 pieces; the single-copy ones bit for bit against the sequential fold, floating-point sums included.
     * {@link CheckJobsSystemTest}'s 1x5 job runs them among every reduction algorithm as well.
     */
    @ParameterizedTest(name = "placement {0}")
    @CsvSource({"1x2", "1x3", "1x5"})
    void oneNodePrefixesMatchTheSequentialReference(String placement) {
        Jobs.Outcome o = Jobs.run(Placement.parse(placement), 1, ReductionApps.Check.class,
                List.of("counts=0,1,7,8193,100003", "collectives=scan,exscan",
                        "algorithms=scan.shm,scan.shm-single-copy,exscan.shm,exscan.shm-single-copy,auto"),
                Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("checked exscan: "), o.stdout());
        // 2 collectives x 3 algorithms x (13 cases x 3 counts + 3 large cases x 2 counts)
        assertTrue(o.stdout().contains("REDUCTIONS-CHECKED 270 cases, 0 refused, "), o.stdout());
    }

    @ParameterizedTest(name = "{0} {1} mismatch")
    @CsvSource({"reduce, root", "reduce, count", "reduce-scatter, count", "scan, type", "exscan, operator",
            "reduce-scatter, user"})
    void aDisagreementFailsEveryRankWithAMismatch(String collective, String kind) {
        Placement p = Placement.parse("2,2");
        Jobs.Outcome o = Jobs.run(p, 1, ReductionApps.Mismatch.class, List.of(collective, kind, "1"), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.MismatchException: .*(?i:mismatch)")
                    .matcher(err).find(), "rank " + r + ":\n" + err);
        }
        assertTrue(o.elapsedMs() < 50_000, "took " + o.elapsedMs() + " ms");
    }
}
