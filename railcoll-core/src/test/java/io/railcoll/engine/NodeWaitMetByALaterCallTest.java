package io.railcoll.engine;

import io.railcoll.transport.NodeArea;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the engine decides at a node step's wait that a node-mate's raise of a later call met (decisions 0226, 0242),
 * from what the node's words tell: the flag's line (the latest raise), the raises before it, the node-mate's note of
 * the awaited call. Rank 1 of a 1x2 {@code barrier.shm} waits, as call 5, for rank 0's release, whose flag shows call
 * 30. The shared memory that keeps those words is {@code NodeStepAreaRaisedBeforeTest}'s; the orders that lead there
 * are {@code NodeMateFarAheadMismatchTest}'s.
 */
class NodeWaitMetByALaterCallTest {
    private static final long SEQ = 5;
    private static final long DIGEST = 0x5a5a5;

    @Test
    void aRaiseBeforeTheLatestOfTheAwaitedCallDecidesByItsDigest() {
        assertEquals(NodeSteps.RAN, awaitWith(DIGEST, -1));
        assertEquals(0, awaitWith(DIGEST ^ 1, -1), "the node-mate raised the flag in another call of this number");
    }

    @Test
    void raisesBeforeThatSkipTheAwaitedCallAreAMismatchWhateverTheNoteSays() {
        assertEquals(0, awaitWith(NodeArea.SKIPPED, DIGEST));
    }

    @Test
    void whereTheRaisesBeforeCannotTellTheNoteDecides() {
        assertEquals(NodeSteps.RAN, awaitWith(-1, DIGEST));
        assertEquals(0, awaitWith(-1, DIGEST ^ 1));
    }

    @Test
    void whereTheNoteHasGoneRoundTooTheWaitFailsRatherThanRunOnALaterCall() {
        assertEquals(0, awaitWith(-1, -1));
    }

    /** Rank 1's wait, as call {@link #SEQ}, where rank 0's raises before tell {@code before}, its note {@code noted}. */
    private static int awaitWith(long before, long noted) {
        try (Arena arena = Arena.ofConfined()) {
            Posting p = NodeAreaStandIn.barrierOfRankOneAtItsAwait(arena, SEQ);
            p.digest = DIGEST;
            return NodeAreaStandIn.stepsOver(new LaterRaise(before, noted)).await(p, p.nextOp, SEQ);
        }
    }

    /** Rank 0's flags all show a raise of call 30; what lies behind it is the test's. */
    private static final class LaterRaise extends NodeAreaStandIn {
        private final long before;
        private final long noted;

        LaterRaise(long before, long noted) {
            this.before = before;
            this.noted = noted;
        }

        @Override
        public long flag(int localRank, int flag) {
            return 30L << 20 | 1;
        }

        @Override
        public long raisedCall(int localRank, int flag, long seq) {
            return seq == 30 ? 0x30 : -1;
        }

        @Override
        public long raisedBefore(int localRank, int flag, long seq) {
            return before;
        }

        @Override
        public long notedCall(int localRank, long seq) {
            return noted;
        }

        @Override
        public int localRank() {
            return 1;
        }

        @Override
        public boolean alive(int localRank) {
            return true;
        }
    }
}
