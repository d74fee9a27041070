package io.railcoll.engine;

import io.railcoll.CollectiveTimeoutException;
import io.railcoll.algorithm.shm.SingleCopyGather;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a node step's time-out says besides the awaited word: the node-mate's other words and this rank's own. CI,
 * suite-jobs-1129: rank 1 of a 1x2 {@code gather.shm-single-copy} timed out in call 1 waiting for the root's DONE
 * ("it shows call 0, count 0"), and nothing said whether the root was still in that call; it was (it had raised
 * READY, and reached DONE just after: docs/results/singlecopy-flake-1129.md).
 */
class NodeWaitTimeOutWordsTest {
    private static final long CALL = 1;

    /** The node words of a 1x2 node: [local rank][word 0..4], as flag values (call << 20 | count). */
    private static NodeAreaStandIn area(long[][] words) {
        return new NodeAreaStandIn() {
            @Override
            public long flag(int localRank, int flag) {
                return words[localRank][flag];
            }

            @Override
            public int localRank() {
                return 1;
            }
        };
    }

    /** Rank 1's gather.shm-single-copy (root 0, 64 MiB blocks) as call 1, stopped at its wait for the root's DONE. */
    private static Posting gatherOfRankOneAtTheRootsDone(Arena arena) {
        Shape shape = new Shape(Collective.GATHER, Placement.singleNode(2), 1, 64L << 20, 0);
        CompiledProgram program = new CompiledProgram(SingleCopyGather.ID, new SingleCopyGather().program(shape, 1),
                r -> r, false);
        Posting p = new Posting(arena);
        p.program = program;
        p.collective = Collective.GATHER;
        p.shape = shape;
        p.heldSeq = CALL;
        p.nodeGateOpen = true;
        p.nextOp = program.ops() - 1;
        assertEquals(CompiledProgram.AWAIT, program.kind[p.nextOp]);
        assertEquals(1, program.tag[p.nextOp], "the last op awaits the root's DONE (flag 1)");
        p.startNs = 0;
        return p;
    }

    private static String timedOut(long[][] words) {
        try (Arena arena = Arena.ofConfined()) {
            NodeSteps steps = NodeAreaStandIn.stepsOver(area(words));
            CallDescriptions calls = new CallDescriptions("rank 1", 1, Placement.singleNode(2), steps);
            CollectiveTimeoutException e = calls.timedOut(gatherOfRankOneAtTheRootsDone(arena), 8_000_000_000L, "");
            return e.getMessage();
        }
    }

    private static long raised(long call, long count) {
        return call << 20 | count;
    }

    @Test
    void aNodeMateStillInTheCallIsShownWithItsOtherWordsAndThisRanksOwn() {
        // The root raised READY in call 1 (rank 1 went past it), not yet DONE; rank 1 raised both.
        String m = timedOut(new long[][] {{raised(CALL, 1), 0, 0, 0, 0}, {raised(CALL, 1), raised(CALL, 1), 0, 0, 0}});
        assertTrue(m.contains("waiting for rank 0 to raise its node flag 1 for the 1th time in this call (it shows"
                + " call 0, count 0)"), m);
        assertTrue(m.contains("rank 0's node words 0-4 show [1.1, 0.0, 0.0, 0.0, 0.0]"), m);
        assertTrue(m.contains("this rank's [1.1, 1.1, 0.0, 0.0, 0.0]"), m);
    }
}
