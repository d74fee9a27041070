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
 * The v-variants (gatherv, scatterv, all-gatherv, all-to-allv, reduce-scatter with per-rank counts) on real processes
 * over real loopback rails and shared memory: every algorithm (forced, then the automatic choice) over count vectors
 * with zeros, all zeros, one non-empty block, odd sizes and a 70001-byte block, roots in turn, scattered
 * displacements and in-place forms, each checked byte for byte against a sequential reference; one job per placement
 * checks all of its cases. Ranks that pass different counts fail every rank with a mismatch, within seconds.
 */
class VariableSystemTest {
    private static final Map<String, String> SHORT_DEADLINE = Map.of("RAILCOLL_TIMEOUT_MS", "60000");

    @ParameterizedTest(name = "placement {0}, {1} rails")
    @CsvSource(delimiter = ';', value = {"3,4,2; 1", "1x5; 1"})
    void everyVariantAlgorithmAndCountVectorMatchesTheSequentialReference(String placement, int rails) {
        Jobs.Outcome o = Jobs.run(Placement.parse(placement), rails, VariableApps.Check.class, List.of(),
                Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("VARIANTS-CHECKED "), o.stdout());
    }

    @ParameterizedTest(name = "{0} with other counts on one rank, placement {1}")
    @CsvSource(delimiter = ';', value = {"gatherv; 2,2", "scatterv; 1x3", "allgatherv; 3,4,2", "alltoallv; 2,2",
            "reduce-scatterv; 1x5"})
    void ranksThatPassDifferentCountsFailEveryRankWithAMismatch(String collective, String placement) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, 1, VariableApps.Mismatch.class, List.of(collective), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.MismatchException: .*(?i:mismatch)")
                    .matcher(err).find(), "rank " + r + ":\n" + err);
        }
        assertTrue(err.contains("count mismatch"), err);
        // Found by the data and probes, not the 60 s deadline (a time-out would not be a MismatchException); the
        // bound is loose because nine JVMs start slowly on a loaded 2-core host.
        assertFalse(err.contains("CollectiveTimeoutException"), err);
    }
}
