package io.railcoll.engine;

import io.railcoll.transport.NodeArea;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A node-mate that raised what a waiting rank awaits and then left is not lost to that rank's call (CI, 2026-11-28:
 * rank 1 of a 1x2 job failed its last barrier with "lost rank 0 ... while this rank awaited its node flag 1": it read
 * the flag just before rank 0's release, was descheduled, and its liveness look found rank 0 gone). The area here is
 * the words of a node as the engine sees them through {@link NodeArea}: what the test names is the engine's decision,
 * not the shared memory's transport, which {@code NodeMateMismatchRelayTest} and the system tests run for real.
 */
class NodeMateLeftAfterItsRaiseTest {

    @Test
    void aMateThatRaisedTheAwaitedFlagAndLeftIsNotLost() {
        Words area = new Words(2, 1);
        NodeSteps steps = NodeAreaStandIn.stepsOver(area);
        try (Arena arena = Arena.ofConfined()) {
            Posting waiting = NodeAreaStandIn.barrierOfRankOneAtItsAwait(arena, 1);

            area.alive[0] = false; // gone, and its release not raised: lost
            assertEquals(0, steps.lostMate(waiting));

            area.flags[0][waiting.program.tag[waiting.nextOp]] = 1L << 20 | waiting.program.length[waiting.nextOp];
            assertEquals(-1, steps.lostMate(waiting), "raised for this call before it left: the wait ends, no loss");

            area.alive[0] = true;
            assertEquals(-1, steps.lostMate(waiting));
        }
    }

    @Test
    void aRaiseOfAnEarlierCallDoesNotCount() {
        Words area = new Words(2, 1);
        NodeSteps steps = NodeAreaStandIn.stepsOver(area);
        try (Arena arena = Arena.ofConfined()) {
            Posting waiting = NodeAreaStandIn.barrierOfRankOneAtItsAwait(arena, 2);
            area.flags[0][waiting.program.tag[waiting.nextOp]] = 1L << 20 | 1; // call 1's release, this is call 2
            area.alive[0] = false;
            assertEquals(0, steps.lostMate(waiting));
        }
    }

    /** A node's words: flags per local rank, whether each is alive. Nothing else is asked of it here. */
    private static final class Words extends NodeAreaStandIn {
        final long[][] flags;
        final boolean[] alive;
        private final int me;

        Words(int ranks, int me) {
            this.flags = new long[ranks][8];
            this.alive = new boolean[ranks];
            java.util.Arrays.fill(alive, true);
            this.me = me;
        }

        @Override
        public int localRank() {
            return me;
        }

        @Override
        public long flag(int localRank, int flag) {
            return flags[localRank][flag];
        }

        @Override
        public boolean alive(int localRank) {
            return alive[localRank];
        }
    }
}
