package io.railcoll.engine;

import io.railcoll.algorithm.shm.NodeFlagBarrier;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.NodeArea;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node area made of the words a test gives: it extends this and answers what its engine is expected to ask. Any
 * other question fails the test loudly, so an engine that starts reading more than the test set up is noticed. It
 * offers no single copy.
 */
abstract class NodeAreaStandIn implements NodeArea {
    /** The node steps of rank 1 of a 1x2 node whose words are {@code area}. */
    static NodeSteps stepsOver(NodeAreaStandIn area) {
        NodeSteps steps = new NodeSteps(new Posting[CollectiveEngine.WINDOW]);
        steps.attach(area, 2);
        return steps;
    }

    /** Rank 1's {@code barrier.shm} on 1x2 as call {@code seq}, stopped at its wait for the master's release. */
    static Posting barrierOfRankOneAtItsAwait(Arena arena, long seq) {
        Shape shape = new Shape(Collective.BARRIER, Placement.singleNode(2), 1, 0, 0);
        CompiledProgram program = new CompiledProgram(NodeFlagBarrier.ID, new NodeFlagBarrier().program(shape, 1),
                r -> r, false);
        Posting p = new Posting(arena);
        p.program = program;
        p.heldSeq = seq;
        p.nodeGateOpen = true;
        p.nextOp = -1;
        for (int i = 0; i < program.ops(); i++) {
            if (program.kind[i] == CompiledProgram.AWAIT) {
                p.nextOp = i;
            }
        }
        assertTrue(p.nextOp >= 0, "barrier.shm's non-master awaits the master's release");
        assertEquals(0, program.peer[p.nextOp]);
        return p;
    }

    private static UnsupportedOperationException notSetUp(String what) {
        return new UnsupportedOperationException(what + " was not set up by this test's node area");
    }

    @Override
    public long flag(int localRank, int flag) {
        throw notSetUp("flag");
    }

    @Override
    public boolean alive(int localRank) {
        throw notSetUp("alive");
    }

    @Override
    public MemorySegment buffer(int half) {
        throw notSetUp("buffer");
    }

    @Override
    public void raise(int flag, long value, long call) {
        throw notSetUp("raise");
    }

    @Override
    public void raise(int flag, long value, long call, MemorySegment src, long srcOffset, long length) {
        throw notSetUp("raise with a payload");
    }

    @Override
    public void readPayload(int localRank, int flag, int parity, MemorySegment dst, long dstOffset, long length) {
        throw notSetUp("readPayload");
    }

    @Override
    public long raisedCall(int localRank, int flag, long seq) {
        throw notSetUp("raisedCall");
    }

    @Override
    public long raisedBefore(int localRank, int flag, long seq) {
        throw notSetUp("raisedBefore");
    }

    @Override
    public void await(int localRank, int flag, long value, long maxWaitNs, boolean onlyItsRaises) {
        throw notSetUp("await");
    }

    @Override
    public boolean peerAccess() {
        return false;
    }

    @Override
    public void announce(long seq, MemorySegment send, MemorySegment recv) {
        throw notSetUp("announce");
    }

    @Override
    public void peerRead(int localRank, long seq, int buffer, long offset, MemorySegment dst, long dstOffset,
                         long length) {
        throw notSetUp("peerRead");
    }

    @Override
    public void peerWrite(MemorySegment src, long srcOffset, int localRank, long seq, int buffer, long offset,
                          long length) {
        throw notSetUp("peerWrite");
    }

    @Override
    public long peerTransfers() {
        return 0;
    }

    @Override
    public void noteCall(long seq, long call) {
        throw notSetUp("noteCall");
    }

    @Override
    public long notedCall(int localRank, long seq) {
        throw notSetUp("notedCall");
    }
}
