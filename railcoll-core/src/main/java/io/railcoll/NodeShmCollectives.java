package io.railcoll;

import io.railcoll.engine.CollectiveEngine;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.shm.NodeCollectives;
import io.railcoll.transport.shm.ShmException;

import java.lang.foreign.MemorySegment;

/**
 * Carries out the collectives of a one-node job that the node's shared memory runs itself ({@code allgather.shm},
 * {@code gather.shm}, {@code broadcast.shm}, {@code barrier.shm}; package {@code algorithm.shm}, decision 0011)
 * through the region's {@link NodeCollectives}, and turns their failures into the API's exceptions: a lost node-mate
 * into {@link PeerLostException}, a node-mate's abort into {@link CollectiveAbortedException}, disagreeing calls into
 * {@link MismatchException}, a stall into {@link CollectiveTimeoutException}, each naming the global rank. A failure
 * fails the communicator, as one inside the engine does.
 *
 * <p>Threading: the communicator's caller. Lifetime: the communicator's; the region it uses is closed by the
 * communicator.
 */
final class NodeShmCollectives {
    private final int rank;
    private final int[] globalRankOf;
    private final NodeCollectives node;
    private final CollectiveEngine engine;
    private final long timeoutNs;

    /**
     * @param timeoutNs longest wait without progress inside one collective (the engine's time-out)
     * @throws IllegalArgumentException if the job spans nodes or its local ranks are not its global ranks in order
     */
    NodeShmCollectives(int rank, Placement placement, NodeCollectives node, CollectiveEngine engine, long timeoutNs) {
        if (placement.nodeCount() != 1) {
            throw new IllegalArgumentException("node collectives carry whole collectives only for one-node jobs, not "
                    + placement.describe());
        }
        this.globalRankOf = placement.ranksOf(0);
        for (int local = 0; local < globalRankOf.length; local++) {
            if (globalRankOf[local] != local) {
                throw new IllegalArgumentException("local rank " + local + " is global rank " + globalRankOf[local]
                        + ": a one-node job's local ranks must be its ranks in order");
            }
        }
        this.rank = rank;
        this.node = node;
        this.engine = engine;
        this.timeoutNs = timeoutNs;
    }

    /** Runs {@code shape}'s collective; SEND and RECV as the engine would get them (RECV exactly the result). */
    void run(Shape shape, MemorySegment send, MemorySegment recv) {
        engine.checkUsable();
        try {
            long b = shape.blockBytes();
            int root = shape.root();
            switch (shape.collective()) {
                case BARRIER -> node.nodeBarrier(timeoutNs);
                case BROADCAST -> node.nodeBroadcast(root, recv, 0, b, timeoutNs);
                case GATHER -> node.nodeGather(root, send, 0, b, rank == root ? recv : null, 0, timeoutNs);
                case ALLGATHER -> node.nodeAllgather(send, 0, b, recv, 0, timeoutNs);
                case ALLTOALL -> throw new IllegalArgumentException("no shared-memory all-to-all");
            }
        } catch (ShmException e) {
            RailcollException failure = translate(e, shape);
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
    void announceByMessages(Shape shape) {
        node.announceByMessages(shape.collective().id(), shape.root(), shape.blockBytes());
    }

    private RailcollException translate(ShmException e, Shape shape) {
        Collective c = shape.collective();
        String message = "rank " + rank + ": " + c.id() + " (" + c.id() + ".shm, " + shape.blockBytes() + "-byte blocks"
                + (c == Collective.BROADCAST || c == Collective.GATHER ? ", root " + shape.root() : "")
                + ") in shared memory: " + e.getMessage();
        int peer = e.localPeer() >= 0 && e.localPeer() < globalRankOf.length ? globalRankOf[e.localPeer()] : -1;
        RailcollException out = switch (e.reason()) {
            case PEER_LOST -> new PeerLostException(peer, message, e);
            case ABORTED -> new CollectiveAbortedException(peer, message);
            case MISMATCH -> new MismatchException(message);
            case TIMED_OUT -> new CollectiveTimeoutException(message);
            default -> e;
        };
        if (out != e && out.getCause() == null) {
            out.initCause(e);
        }
        return out;
    }
}
