package io.railcoll.systemtest;

import io.railcoll.bench.CheckApp;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both rail engines on the loopback cluster (no root needed): every collective byte for byte, with one and two
 * connections per rail, and a killed rank still named fast by the survivors when rail threads do the I/O.
 */
class RailEnginesSystemTest {

    @ParameterizedTest(name = "{0} engine, {1} connection(s) per rail")
    @CsvSource({"single,1", "threaded,1", "threaded,2", "single,2"})
    void everyCollectiveArrivesByteForByte(String engine, int connections) {
        Jobs.Outcome o = Jobs.run(Placement.parse("2,1,2"), 2, CheckApp.class,
                List.of("sizes=0,1,1025,65537,300001", "buffers=array,direct"),
                Map.of("RAILCOLL_ENGINE", engine, "RAILCOLL_CONNECTIONS_PER_RAIL", Integer.toString(connections),
                        "RAILCOLL_SHM", "off")).assertSucceeded();
        assertTrue(o.stdout().contains("CHECKED"), o.all());
        assertFalse(o.stderr().contains("WARNING"), "no rail may fail on a healthy network:\n" + o.stderr());
    }

    @ParameterizedTest(name = "{0} engine")
    @ValueSource(strings = {"single", "threaded"})
    void aSizeMismatchOverTheRailsIsReportedOnBothSides(String engine) {
        Jobs.Outcome o = Jobs.run(Placement.uniform(2, 1), 2, RailApps.SizeMismatch.class, List.of(),
                Map.of("RAILCOLL_ENGINE", engine, "RAILCOLL_TIMEOUT_MS", "8000"), Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        assertTrue(err.contains("MismatchException") && err.contains("size mismatch"), err);
        // Both ranks fail with the reason (one detects it, the other gets its ABORT or detects it too), not with a
        // lost peer or a time-out.
        for (int r = 0; r < 2; r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.(Mismatch|CollectiveAborted)Exception: .*size mismatch")
                    .matcher(err).find(), "rank " + r + ":\n" + err);
        }
    }

    @Test
    void aKilledRankIsNamedFastWithTheThreadedEngine() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(2, 2), 2, FaultApps.DieMidway.class, List.of("2"),
                Map.of("RAILCOLL_ENGINE", "threaded", "RAILCOLL_TIMEOUT_MS", "8000"), Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        assertEquals(2, o.result().failedRank(), o.all());
        for (int r : new int[] {0, 1}) {
            assertTrue(o.namesLostRank(r, 2), "rank " + r + " did not name the lost rank:\n" + o.stderr());
        }
        assertTrue(o.elapsedMs() < 60_000, "took " + o.elapsedMs() + " ms");
    }
}
