package io.railcoll.systemtest;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * All-reduce on real processes over real loopback rails and shared memory: every algorithm (forced, then the
 * automatic choice) x type x operator x count against a sequential reference, floating point bit-identical on every
 * rank, a non-commutative user operator in rank order; a disagreement on type, operator or count fails every rank
 * with a mismatch; an operator that throws fails its rank and aborts the others well before their deadline. One job
 * per placement checks all of its cases, so JVM start-up is paid once per job.
 */
class AllreduceSystemTest {
    private static final Map<String, String> SHORT_DEADLINE = Map.of("RAILCOLL_TIMEOUT_MS", "60000");

    /**
     * Every type x operator of {@link AllreduceApps#CASES} runs on one node (1x5) and on uneven nodes (3,4,2). On 16
     * ranks (4x4) each type runs with one operator (sum; minloc for the pairs) and the non-commutative one, and the
     * 2-rail row drops count 1 (decision 0121): an operator changes only the combining loop, not what moves where,
     * and on 16 ranks counts 1 and 7 both leave every rank's block 0 or 1 element long.
     */
    @ParameterizedTest(name = "placement {0}, {1} rails, counts {2}, operators {3}")
    @CsvSource(delimiter = ';', value = {
            "1x5;    1; 0,1,7,100003; all",
            "3,4,2;  2; 0,1,7,30001;  all",
            "4x4;    2; 0,7,30001;    sum,minloc,affine-compose",
            "4x4;    1; 1,4099;       sum,minloc,affine-compose",
    })
    void everyAlgorithmTypeAndOperatorMatchesTheSequentialReference(String placement, int rails, String counts,
                                                                    String ops) {
        List<String> args = new ArrayList<>(List.of("counts=" + counts, "algorithms=all,auto"));
        if (!ops.equals("all")) {
            args.add("ops=" + ops);
        }
        Jobs.Outcome o = Jobs.run(Placement.parse(placement), rails, AllreduceApps.Check.class, args, Map.of())
                .assertSucceeded();
        assertTrue(o.stdout().contains("ALLREDUCE-CHECKED "), o.stdout());
        o.stdout().lines().filter(l -> l.contains("ALLREDUCE-TIME ") || l.contains("ALLREDUCE-CHECKED "))
                .forEach(System.out::println);
        System.out.println("job of " + placement + ", " + rails + " rails: " + o.elapsedMs() + " ms");
        // Each algorithm that combines out of rank order (the ring, the SMP-aware ones) refuses the non-commutative
        // operator once per count.
        long refusing = AlgorithmCatalog.standard().forCollective(Collective.ALLREDUCE).stream()
                .filter(a -> !a.deterministic())
                .filter(a -> RankOrder.refusesNonCommutative(a.id(), Collective.ALLREDUCE, Placement.parse(placement)))
                .count();
        assertTrue(o.stdout().contains(" cases, " + refusing * counts.split(",").length + " refused, "),
                refusing + " algorithms refuse the non-commutative operator once per count:\n" + o.stdout());
    }

    @ParameterizedTest(name = "{0} mismatch")
    @ValueSource(strings = {"type", "operator", "count", "user"})
    void aDisagreementFailsEveryRankWithAMismatch(String kind) {
        Placement p = Placement.parse("2,1");
        Jobs.Outcome o = Jobs.run(p, 1, AllreduceApps.Mismatch.class, List.of(kind, "1"), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.MismatchException: .*(?i:mismatch)")
                    .matcher(err).find(), "rank " + r + ":\n" + err);
        }
        String named = switch (kind) {
            case "type" -> "FLOAT";
            case "operator" -> "max on INT";
            case "count" -> "size mismatch";
            default -> "user operator";
        };
        assertTrue(err.contains(named), err);
        assertTrue(o.elapsedMs() < 50_000, "took " + o.elapsedMs() + " ms");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"allreduce.recursive-doubling", "allreduce.ring"})
    void anOperatorThatThrowsAbortsThePeersAtOnce(String algorithm) {
        Placement p = Placement.parse("2,1");
        Jobs.Outcome o = Jobs.run(p, 1, AllreduceApps.ThrowingOperator.class, List.of(algorithm), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        assertTrue(err.contains("[r1] FAILED: io.railcoll.OperatorFailedException") && err.contains("fragile operator refuses"),
                err);
        for (int r : new int[] {0, 2}) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.CollectiveAbortedException: .*fragile")
                    .matcher(err).find(), "rank " + r + ":\n" + err);
        }
        // Long before the 60 s deadline a peer waiting for rank 1 would otherwise run into.
        assertTrue(o.elapsedMs() < 50_000, "took " + o.elapsedMs() + " ms");
    }
}
