package io.railcoll;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mismatch found by messages reaches a node-mate that already waits in the next call, a node collective in shared
 * memory, as a {@link MismatchException}, even when the rank that found it closes its communicator (and so its end of
 * the node region) before the node-mate looks: the node-mate reads the ABORT its node-mate sent before closing
 * before it concludes that the node-mate is lost (decision 0133). ReductionSystemTest's "reduce, root" job once
 * failed there with a {@link PeerLostException}.
 */
class NodeMateMismatchRelayTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60));

    @Test
    void aNodeMateInTheNodeBarrierHearsTheMismatchNotALoss() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(2, CONFIG)) {
            ranks.onEveryRank(c -> {
                c.forceAlgorithm("broadcast.knomial"); // by messages: the size is checked on the frame
                c.forceAlgorithm("barrier.shm");       // in the node region: waits on shared flags
                c.barrier();
            });
            // Rank 1, the root, puts 8 bytes and returns, then waits in the node barrier for rank 0.
            Future<?> rootSide = ranks.async(1, c -> {
                c.broadcast(new byte[8], 1);
                c.barrier();
            });
            // Rank 0 expects 16 bytes: it finds the mismatch, tells its peers (an ABORT) and closes.
            MismatchException found = assertThrows(MismatchException.class,
                    () -> ranks.rank(0).broadcast(new byte[16], 1));
            assertTrue(found.getMessage().contains("mismatch"), found.getMessage());
            Future<?> closing = ranks.async(0, Communicator::close);
            ExecutionException e = assertThrows(ExecutionException.class, () -> rootSide.get(60, TimeUnit.SECONDS));
            assertInstanceOf(MismatchException.class, e.getCause(), () -> "rank 1 got " + e.getCause());
            assertTrue(e.getCause().getMessage().contains("mismatch"), e.getCause().getMessage());
            closing.get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * With the threaded rail engine a rail thread reads the ABORT and fails the engine from there; a node-mate waiting
     * in a node step then fails with the mismatch at once, not at its 60 s deadline (nor with a loss, once the
     * rank that found it leaves). Ranks 0 and 1 share node 0; rank 2, alone on node 1, broadcasts by messages while
     * the others call the node barrier, and finds the disagreement in rank 0's frame.
     */
    @Test
    void withRailThreadsANodeMateInANodeStepHearsTheMismatchAtOnce() throws Exception {
        Config threaded = Config.fromEnvironment(java.util.Map.of("RAILCOLL_ENGINE", "threaded",
                "RAILCOLL_TIMEOUT_MS", "60000"));
        try (InProcessRanks ranks = InProcessRanks.startOnNodes(new int[] {0, 0, 1}, threaded)) {
            ranks.onEveryRank(c -> {
                c.forceAlgorithm("broadcast.knomial");
                c.forceAlgorithm("barrier.shm");
                c.barrier();
            });
            long start = System.nanoTime();
            Future<?> master = ranks.async(0, Communicator::barrier);
            Future<?> mate = ranks.async(1, Communicator::barrier);
            assertThrows(MismatchException.class, () -> ranks.rank(2).broadcast(new byte[16], 0));
            for (Future<?> f : java.util.List.of(master, mate)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
                assertInstanceOf(MismatchException.class, e.getCause(), () -> "got " + e.getCause());
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms < 20_000, "the node-mate heard it after " + ms + " ms (its deadline is 60 s)");
        }
    }

    /**
     * The threaded engine, 2 nodes: rank 2 leaves while ranks 0 and 1 (node 0) are in the node barrier; rank 0, the
     * master, loses it and closes (an ABORT naming the loss ahead of its goodbyes); rank 1, still waiting in the node
     * step, must name rank 2 as the rank lost, not its node-mate rank 0 that closed its end of the region
     * (a killed-rank job on the threaded engine once had node-mates report each other lost). In this JVM rank 1 heard
     * the ABORT in time before decision 0133 too: this checks the outcome, it does not force the order.
     */
    @Test
    void withRailThreadsANodeMateNamesTheRankLostNotTheNodeMateThatLeft() throws Exception {
        Config threaded = Config.fromEnvironment(java.util.Map.of("RAILCOLL_ENGINE", "threaded",
                "RAILCOLL_TIMEOUT_MS", "60000"));
        try (InProcessRanks ranks = InProcessRanks.startOnNodes(new int[] {0, 0, 1}, threaded)) {
            ranks.onEveryRank(c -> {
                c.forceAlgorithm("barrier.shm");
                c.barrier();
            });
            Future<?> master = ranks.async(0, c -> {
                try {
                    c.barrier();
                } finally {
                    c.close(); // what a failed rank's program does: its ABORT goes out ahead of its goodbyes
                }
            });
            Future<?> mate = ranks.async(1, Communicator::barrier);
            ranks.rank(2).close();
            ExecutionException lost = assertThrows(ExecutionException.class, () -> master.get(60, TimeUnit.SECONDS));
            // In the masters' dissemination (a put to rank 2): the loss, the goodbye, or the rails gone, each naming it.
            assertTrue(lost.getCause().getMessage().contains("lost rank 2")
                    || lost.getCause().getMessage().contains("rank 2 closed")
                    || lost.getCause().getMessage().contains("no rail to rank 2"), () -> "rank 0 got " + lost.getCause());
            ExecutionException e = assertThrows(ExecutionException.class, () -> mate.get(60, TimeUnit.SECONDS));
            String m = e.getCause().getMessage();
            assertTrue(e.getCause() instanceof CollectiveAbortedException && m.contains("rank 2"),
                    () -> "rank 1 got " + e.getCause());
        }
    }
}
