package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The thread contract on real jobs (one JVM per rank, shared memory and rails): decision 0042. */
class ThreadContractSystemTest {

    @Test
    void eightThreadsPerRankCallAThreadSafeCommunicator() {
        Placement p = Placement.uniform(2, 2);
        Jobs.Outcome o = Jobs.run(p, 2, ThreadApps.EightThreads.class, List.of("20"),
                Map.of("RAILCOLL_THREAD_SAFE", "on", "RAILCOLL_TIMEOUT_MS", "60000")).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("THREADS-OK rank " + r + " calls 320"), o.all());
        }
    }

    @Test
    void aSecondThreadIsRefusedWithoutTheOption() {
        Placement p = Placement.uniform(2, 2);
        Jobs.Outcome o = Jobs.run(p, 1, ThreadApps.TwoThreadsUnsafe.class, List.of(),
                Map.of("RAILCOLL_TIMEOUT_MS", "20000")).assertSucceeded();
        for (int r = 1; r < p.size(); r++) {
            assertTrue(o.stdout().contains("REFUSED-OK rank " + r + ": rank " + r + ": thread 'main' called allgather while"
                    + " thread 'first-caller' is inside barrier"), o.all());
        }
    }
}
