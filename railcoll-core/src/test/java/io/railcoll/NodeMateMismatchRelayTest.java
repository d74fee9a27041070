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
}
