package io.railcoll.systemtest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Member processes on loopback (no root needed): whether the host routes multicast through lo or not (then every
 * member fails over to the tree), all broadcasts arrive byte for byte; a member killed mid-stream makes the
 * others fail naming it, within the deadline.
 */
class MulticastProcessTest {
    private static final int[] SIZES = {0, 8, 1400, 1401, 70_000, 8, 1 << 20, 16, 0, 5};

    private static List<MulticastProcesses.Member> loopback(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(r -> new MulticastProcesses.Member(r, List.of(), "127.0.0.1")).toList();
    }

    @ParameterizedTest(name = "rank {0} killed")
    @ValueSource(ints = {0, 1})
    void aKilledMemberOrManagerIsNamedByTheOthersInsideTheDeadline(int victim) throws Exception {
        long t0 = System.nanoTime();
        int[] sizes = new int[200];
        java.util.Arrays.fill(sizes, 4096);
        try (MulticastProcesses p = new MulticastProcesses(loopback(3), 5 + victim * 10, 1, sizes, victim, 50,
                Map.of("RAILCOLL_TIMEOUT_MS", "8000"))) {
            List<String> out = p.outcomes(30);
            assertEquals("EOF", out.get(victim), p.output(victim));
            for (int i = 0; i < 3; i++) {
                if (i != victim) {
                    assertTrue(out.get(i).startsWith("FAILED " + i + " io.railcoll.PeerLostException: rank " + i + ": lost rank " + victim),
                            out.get(i) + "\n" + p.output(i));
                }
            }
        }
        assertTrue(System.nanoTime() - t0 < 30_000_000_000L);
    }

    @Test
    void threeProcessesGetEveryBroadcast() throws Exception {
        try (MulticastProcesses p = new MulticastProcesses(loopback(3), 6, 2, SIZES, -1, -1, Map.of())) {
            List<String> out = p.outcomes(60);
            for (int i = 0; i < 3; i++) {
                assertEquals("DONE " + i + " " + SIZES.length, out.get(i), p.output(i));
            }
        }
    }
}
