package io.railcoll;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A node step's wait met by a node-mate's raise of a call more than 16 calls later still finds out whether that
 * node-mate raised the flag in the awaited call (decision 0242). The node-mate's note of the awaited call goes round
 * 16 calls (decision 0226), and calls by messages (a root's eager broadcasts) let it run that far ahead of a rank
 * that has not started. The order is forced: the node-mate runs its calls first, the waiting rank posts after.
 *
 * <p>Two ranks on one node; rank 0 roots every broadcast. {@code broadcast.shm} at 64 bytes goes through the node
 * buffer, rank 0 raising its flag 0; {@code broadcast.knomial} goes by messages and raises no flag.
 */
class NodeMateFarAheadMismatchTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60));
    /** Calls by messages the node-mate runs between the two calls that raise its flag: past its 16-deep note ring. */
    private static final int AHEAD = 20;
    private static final int BYTES = 64;

    @Test
    void aWaitMetByARaiseMoreThanSixteenCallsLaterFindsTheMismatch() throws Exception {
        // The raise before the latest came before the awaited call: the node-mate skipped it.
        assertMismatchWhenTheNodeMateRaisesLater(1);
    }

    @Test
    void aWaitMetByTheSecondOfTwoLaterRaisesFindsTheMismatch() throws Exception {
        // The raise before the latest came after the awaited call too; the one before that, before it.
        assertMismatchWhenTheNodeMateRaisesLater(2);
    }

    /**
     * Rank 0 runs this call number by messages (no raise of flag 0), {@link #AHEAD} more like it, then
     * {@code raisingCalls} through the node buffer (the first on the other half than the awaited call's, so neither
     * waits for rank 1 at the gate); rank 1 then runs that first call number through the node buffer, and its wait
     * for rank 0's flag 0 is met by those later raises, whose bytes it must not take as its own call's.
     */
    private static void assertMismatchWhenTheNodeMateRaisesLater(int raisingCalls) throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(2, CONFIG)) {
            ranks.onEveryRank(Communicator::barrier);
            ranks.async(0, c -> {
                c.forceAlgorithm("broadcast.knomial");
                for (int i = 0; i <= AHEAD; i++) {
                    c.broadcast(new byte[BYTES], 0);
                }
                c.forceAlgorithm("broadcast.shm");
                byte[] later = new byte[BYTES];
                Arrays.fill(later, (byte) 7);
                for (int i = 0; i < raisingCalls; i++) {
                    c.broadcast(later, 0);
                }
            }).get(60, TimeUnit.SECONDS);
            ranks.rank(1).forceAlgorithm("broadcast.shm");
            byte[] got = new byte[BYTES];
            assertThrows(MismatchException.class, () -> ranks.rank(1).broadcast(got, 0));
            assertArrayEquals(new byte[BYTES], got, "no later call's bytes taken");
        }
    }

    @Test
    void aNodeMateFarAheadByLegitCallsPasses() throws Exception {
        Random random = new Random(242);
        byte[][] sent = new byte[AHEAD + 2][BYTES];
        for (byte[] message : sent) {
            random.nextBytes(message);
        }
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(2, CONFIG)) {
            ranks.onEveryRank(Communicator::barrier);
            // Both run the same calls: one through the node buffer (rank 0 raises flag 0), 20 by messages, and one
            // more through the node buffer, on the other half, so that rank 0 raises flag 0 again without waiting
            // for rank 1 (decision 0186's gate waits only for the call two before). Rank 0 runs them all first.
            ranks.async(0, c -> program(c, sent)).get(60, TimeUnit.SECONDS);
            byte[][] got = new byte[sent.length][];
            ranks.async(1, c -> {
                for (int i = 0; i < sent.length; i++) {
                    got[i] = new byte[BYTES];
                }
                program(c, got);
            }).get(60, TimeUnit.SECONDS);
            for (int i = 0; i < sent.length; i++) {
                assertArrayEquals(sent[i], got[i], "call " + i);
            }
        }
    }

    /** The legit program: through the node buffer, {@link #AHEAD} by messages, through the node buffer again. */
    private static void program(Communicator c, byte[][] messages) {
        c.forceAlgorithm("broadcast.shm");
        c.broadcast(messages[0], 0);
        c.forceAlgorithm("broadcast.knomial");
        for (int i = 1; i <= AHEAD; i++) {
            c.broadcast(messages[i], 0);
        }
        c.forceAlgorithm("broadcast.shm");
        c.broadcast(messages[AHEAD + 1], 0);
    }
}
