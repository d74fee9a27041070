package io.railcoll;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Misuse of the public API is refused on the calling rank before anything is sent, with a message naming what was
 * wrong, and leaves the communicator usable: after each refusal, a real collective among two ranks (TCP over
 * loopback, one JVM) still gives the right bytes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CommunicatorMisuseTest {
    private static InProcessRanks ranks;

    @BeforeAll
    static void start() throws Exception {
        ranks = InProcessRanks.start(2, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(20)));
    }

    @AfterAll
    static void stop() throws Exception {
        if (ranks != null) {
            ranks.close();
        }
    }

    private static IllegalArgumentException refused(Executable call, String... words) throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), "'" + w + "' missing from: " + e.getMessage());
        }
        stillUsable();
        return e;
    }

    /** Both ranks all-gather and get every block right; nothing of the refused call is in the way. */
    private static void stillUsable() throws Exception {
        ranks.onEveryRank(c -> {
            byte[] all = new byte[3 * c.size()];
            c.allgather(new byte[] {(byte) c.rank(), 7, (byte) c.rank()}, all);
            assertArrayEquals(new byte[] {0, 7, 0, 1, 7, 1}, all, "rank " + c.rank() + ": " + Arrays.toString(all));
            assertFalse(c.failure().isPresent(), "rank " + c.rank() + " failed: " + c.failure());
        });
    }

    private static MemorySegment closedSegment(long bytes) {
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(bytes);
        arena.close();
        return s;
    }

    /** The in-place all-gather (decision 0220): a negative block, a buffer too small or read-only, before anything moves. */
    @Test
    void aBadInPlaceAllgatherIsRefused() throws Exception {
        Communicator c = ranks.rank(0);
        refused(() -> c.allgather(MemorySegment.ofArray(new byte[8]), -1), "allgather", "negative");
        refused(() -> c.allgather(MemorySegment.ofArray(new byte[8 * c.size() - 1]), 8), "allgather", "holds");
        refused(() -> c.allgather(MemorySegment.ofArray(new byte[8 * c.size()]).asReadOnly(), 8), "allgather",
                "read-only");
        refused(() -> c.allgather(closedSegment(8L * c.size()), 8), "buffer", "already closed");
    }

    @Test
    void aSendSegmentOfAClosedArenaIsRefused() throws Exception {
        Communicator c = ranks.rank(0);
        refused(() -> c.allgather(closedSegment(8), MemorySegment.ofArray(new byte[8 * c.size()])), "send", "arena is already closed");
    }

    @Test
    void aReceiveSegmentOfAClosedArenaIsRefused() throws Exception {
        Communicator c = ranks.rank(1);
        refused(() -> c.allgather(MemorySegment.ofArray(new byte[8]), closedSegment(8L * c.size())), "recv", "arena is already closed");
        refused(() -> c.broadcast(closedSegment(8), 0), "buffer", "arena is already closed");
        refused(() -> c.gather(MemorySegment.ofArray(new byte[8]), closedSegment(8L * c.size()), 1), "recv", "already closed");
        refused(() -> c.alltoall(closedSegment(8L * c.size()), MemorySegment.ofArray(new byte[8 * c.size()])), "send", "already closed");
    }

    @Test
    void aByteBufferOfAClosedArenaIsRefused() throws Exception {
        Communicator c = ranks.rank(0);
        Arena arena = Arena.ofShared();
        java.nio.ByteBuffer buffer = arena.allocate(16).asByteBuffer();
        arena.close();
        refused(() -> c.broadcast(buffer, 1), "already closed");
    }

    @Test
    void selectedAlgorithmOfNoCollectiveIsRefused() throws Exception {
        refused(() -> ranks.rank(0).selectedAlgorithm(null, 8, 0), "collective", "must not be null");
    }

    @Test
    void aNullAlgorithmIdIsRefused() throws Exception {
        refused(() -> ranks.rank(0).forceAlgorithm(null), "algorithm id", "must not be null");
    }

    @Test
    void clearingNoCollectiveIsRefused() throws Exception {
        refused(() -> ranks.rank(1).clearForcedAlgorithm(null), "collective", "must not be null");
    }

    @Test
    void aRootIgnoredByTheCollectiveDoesNotMatter() {
        // All-gather has no root: whatever is passed, the answer is the one for root 0 (not an out-of-range error).
        Communicator c = ranks.rank(0);
        assertTrue(c.selectedAlgorithm(Collective.ALLGATHER, 64, 0).equals(c.selectedAlgorithm(Collective.ALLGATHER, 64, 99)));
    }
}
