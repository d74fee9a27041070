package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Non-blocking collectives on real jobs (one JVM per rank, shared memory and rails): several in flight, of different
 * kinds and forced algorithms, completed out of order, on uneven placements; and a request past its deadline.
 * One job per placement runs every case ({@link RequestApps.InFlight}).
 */
class RequestSystemTest {

    @ParameterizedTest(name = "{0}, {1} rail(s), {2} rail engine")
    @CsvSource({"'3,4,2', 1, single", "'3,4,2', 2, threaded", "1x5, 1, single", "4x4, 2, single"})
    void severalCollectivesInFlightCompleteOutOfOrder(String placement, int rails, String engine) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, rails, RequestApps.InFlight.class, List.of(),
                Map.of("RAILCOLL_TIMEOUT_MS", "120000", "RAILCOLL_ENGINE", engine)).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("REQUESTS-OK rank " + r + " cases 7"), o.all());
        }
    }

    @Test
    void aRequestOneRankNeverStartsFailsAtItsDeadlineNamingTheMissingRank() {
        Placement p = Placement.parse("2,1");
        // Long enough that the first (blocking) call finishes on a loaded 2-core host: at 3 s it once timed out there
        // with the peer's frame written and unread; the call that must fail waits for the whole deadline anyway.
        int timeoutMs = 10_000;
        Jobs.Outcome o = Jobs.run(p, 1, RequestApps.Deadline.class, List.of(String.valueOf(timeoutMs)),
                Map.of("RAILCOLL_TIMEOUT_MS", String.valueOf(timeoutMs)), Jobs.SHORT_JOB).assertSucceeded();
        for (int r = 0; r < p.size() - 1; r++) {
            Matcher m = Pattern.compile("DEADLINE-OK rank " + r + ": (.*)").matcher(o.stdout());
            assertTrue(m.find(), o.all());
            String message = m.group(1);
            assertTrue(message.contains("allgather #2 (allgather.direct"), message);
            assertTrue(message.contains("timed out after"), message);
            assertTrue(message.contains("ranks missing: 2"), message);
        }
        assertTrue(o.stdout().contains("SILENT rank 2"), o.all());
    }
}
