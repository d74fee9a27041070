package io.railcoll;

import io.railcoll.trace.CallCounters;
import io.railcoll.trace.OpTrace;
import io.railcoll.engine.CollectiveEngine;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.NodeStep;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.shm.NodeCollectives;
import io.railcoll.transport.shm.ShmException;

import java.lang.foreign.MemorySegment;

/**
 * Carries out the {@link NodePhased} algorithms ({@code allgather.shm}, {@code barrier.shm}, {@code gather.shm},
 * {@code broadcast.shm}; decision 0011) for one rank: its node's step before, the masters'
 * schedule through the engine, its node's step after. Node steps run in the region's {@link NodeCollectives} with
 * the caller's buffers; on a node of one rank they are local copies. Failures become the API's exceptions: a lost
 * node-mate a {@link PeerLostException}, a node-mate's abort a {@link CollectiveAbortedException}, disagreeing
 * calls a {@link MismatchException} (which every peer hears at once), a stall a {@link CollectiveTimeoutException},
 * each naming the global rank; a failure fails the communicator, as one inside the engine does.
 *
 * <p>Threading: the communicator's caller. Lifetime: the communicator's; the region it uses is closed by the
 * communicator.
 */
final class NodeShmCollectives {
    private final int rank;
    private final Placement placement;
    private final int node;
    private final int localRank;
    /** This node's collectives; null on a node of one rank. */
    private final NodeCollectives collectives;
    private final CollectiveEngine engine;
    private final long timeoutNs;
    /** Per collective, the steps of the last call: like calls (same algorithm, same shape object) allocate nothing. */
    private final Plan[] plans = new Plan[Collective.values().length];

    /** The node steps of {@code algorithm} for {@code shape}: before, the masters' schedule (or null), after. */
    private record Plan(NodePhased algorithm, Shape shape, NodeStep before, Algorithm between, NodeStep after) {
        static Plan of(NodePhased algorithm, Shape shape, int node) {
            return new Plan(algorithm, shape, algorithm.before(shape, node), algorithm.between(shape).orElse(null),
                    algorithm.after(shape, node));
        }
    }

    /**
     * @param collectives the node region's collectives, or null when this rank is alone on its node
     * @param timeoutNs   longest wait without progress inside one node step (the engine's time-out)
     */
    NodeShmCollectives(int rank, Placement placement, NodeCollectives collectives, CollectiveEngine engine,
                       long timeoutNs) {
        if (collectives == null && placement.localSizeOf(rank) > 1) {
            throw new IllegalArgumentException("rank " + rank + " shares its node but has no node region");
        }
        this.rank = rank;
        this.placement = placement;
        this.node = placement.nodeOf(rank);
        this.localRank = placement.localRankOf(rank);
        this.collectives = collectives;
        this.engine = engine;
        this.timeoutNs = timeoutNs;
        if (collectives != null) {
            // Waiting in a node step, a rank keeps its rails and the multicast protocol served, and lets out what it
            // still has queued for its node-mates (a node-mate may wait for that before it joins the step).
            collectives.setBackgroundWork(engine::serviceOnce);
        }
    }

    /** Runs {@code algorithm} for {@code shape}; SEND and RECV as the engine would get them (RECV exactly the result). */
    void run(NodePhased algorithm, Shape shape, MemorySegment send, MemorySegment recv) {
        engine.checkUsable();
        Plan plan = plans[shape.collective().ordinal()];
        if (plan == null || plan.algorithm() != algorithm || plan.shape() != shape) {
            plan = Plan.of(algorithm, shape, node);
            plans[shape.collective().ordinal()] = plan;
        }
        try {
            if (CallCounters.ON) {
                OpTrace.mark(OpTrace.NODE_CALL);
            }
            step(plan.before(), send, recv);
            if (CallCounters.ON) {
                OpTrace.mark(OpTrace.NODE_GATHERED);
            }
            if (plan.between() != null) {
                announceByMessages(shape);
                engine.run(plan.between(), shape, send, recv);
            }
            step(plan.after(), send, recv);
            if (CallCounters.ON) {
                OpTrace.mark(OpTrace.NODE_BROADCAST);
            }
        } catch (ShmException e) {
            RailcollException failure = translate(e, algorithm, shape);
            if (e.reason() == ShmException.Reason.PEER_LOST || e.reason() == ShmException.Reason.TIMED_OUT) {
                // A node-mate that failed elsewhere (a mismatch found in a frame) sent an ABORT before it closed its
                // end of the region; a wait on the region's flags does not read it. Its reason is the news.
                RailcollException told = engine.readArrived();
                if (told instanceof MismatchException || told instanceof CollectiveAbortedException) {
                    told.addSuppressed(failure);
                    throw told;
                }
                if (told != null) {
                    failure.addSuppressed(told);
                }
            }
            if (failure instanceof MismatchException) {
                // Node-mates that run this call by messages wait in the engine, where only an ABORT reaches them.
                engine.abortPeers(failure);
            } else {
                engine.recordFailure(failure);
            }
            throw failure;
        }
    }

    /**
     * Counts a collective the engine runs by messages in the node's call numbering, so that a node-mate that runs
     * the same call in the node buffer (the ranks disagree on the algorithm or the collective) fails naming both.
     */
    /** As {@link #announceByMessages(Shape)} for a call whose counts are not known yet (an i-all-to-allv's data). */
    void announceByMessages(io.railcoll.schedule.Collective collective) {
        if (collectives != null) {
            collectives.announceByMessages(collective.id(), 0, 0);
        }
    }

    void announceByMessages(Shape shape) {
        if (collectives != null) {
            collectives.announceByMessages(shape.collective().id(), shape.root(), shape.wireBlockBytes());
        }
    }

    private void step(NodeStep s, MemorySegment send, MemorySegment recv) {
        MemorySegment src = s.src() == Buffer.SEND ? send : recv;
        MemorySegment dst = s.dst() == Buffer.SEND ? send : recv;
        if (s.kind() == NodeStep.Kind.BROADCAST && localRank == s.rootLocal()
                && (s.src() != s.dst() || s.srcOffset() != s.dstOffset())) {
            // A root that sends from elsewhere than where the data lands has it land in its own buffer too.
            MemorySegment.copy(src, s.srcOffset(), dst, s.dstOffset(), s.bytes());
        }
        if (collectives == null) {
            // Alone on the node: the step's only contribution is this rank's own.
            if (s.kind() == NodeStep.Kind.GATHER || s.kind() == NodeStep.Kind.ALLGATHER) {
                MemorySegment.copy(src, s.srcOffset(), dst, s.dstOffset(), s.bytes());
            }
            return;
        }
        switch (s.kind()) {
            case NONE -> { }
            case BARRIER -> collectives.nodeBarrier(timeoutNs);
            case GATHER -> collectives.nodeGather(s.rootLocal(), src, s.srcOffset(), s.bytes(),
                    localRank == s.rootLocal() ? dst : null, s.dstOffset(), timeoutNs);
            case BROADCAST -> collectives.nodeBroadcast(s.rootLocal(), dst, s.dstOffset(), s.bytes(), timeoutNs);
            case ALLGATHER -> collectives.nodeAllgather(src, s.srcOffset(), s.bytes(), dst, s.dstOffset(), timeoutNs);
        }
    }

    private RailcollException translate(ShmException e, NodePhased algorithm, Shape shape) {
        Collective c = shape.collective();
        String what = c.id() + " (" + algorithm.id() + ", " + shape.blockBytes() + "-byte blocks"
                + (c == Collective.BROADCAST || c == Collective.GATHER ? ", root " + shape.root() : "") + ")";
        int local = e.localPeer();
        int peer = local >= 0 && local < placement.ranksOnNode(node) ? placement.rankAt(node, local) : -1;
        RailcollException out = switch (e.reason()) {
            case PEER_LOST -> new PeerLostException(peer, "rank " + rank + ": lost rank " + peer + " (node " + node
                    + ") over shared memory during " + what + ": " + e.getMessage(), e);
            // A node-mate's mismatch is this rank's too: every rank fails with it (decision 0051).
            case ABORTED -> e.abortedFor() == ShmException.Reason.MISMATCH
                    ? new MismatchException("rank " + rank + ": rank " + peer + " found a mismatch in " + what
                    + " in shared memory: " + e.getMessage())
                    : new CollectiveAbortedException(peer, "rank " + rank + ": rank " + peer + " aborted " + what
                    + " in shared memory: " + e.getMessage());
            case MISMATCH -> new MismatchException("rank " + rank + ": " + what + " in shared memory: " + e.getMessage());
            case TIMED_OUT -> new CollectiveTimeoutException("rank " + rank + ": " + what + " in shared memory timed out: "
                    + e.getMessage());
            default -> e;
        };
        if (out != e && out.getCause() == null) {
            out.initCause(e);
        }
        return out;
    }
}
