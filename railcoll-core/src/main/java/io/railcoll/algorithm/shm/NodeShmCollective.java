package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.broadcast.KnomialBroadcast;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.NodeStep;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * A whole collective of a one-node job carried out in the node's shared memory (paper 000 section 4.2: the
 * shared-memory gather and broadcast, with one flag per process; here node-wide counters, see
 * {@code transport.shm.NodeCollectives}):
 * {@code broadcast.shm}: the root copies the message in once, every other rank copies it out ({@code gather.shm} and
 * {@code allgather.shm} are node-step programs now: {@link NodeGather}, {@link NodeAllgather}, decision 0190).
 * Messages larger than the node buffer stream through its two halves in pipelined steps, one synchronization per
 * step. Only for jobs whose ranks all share one node (and only when shared memory is on, which the selector
 * checks). No engine sequence number is taken: every rank of the node must select alike, as with any algorithm.
 *
 * <p>Its {@link #program programs} are the flat point-to-point schedule that moves the same bytes between the
 * same ranks ({@code broadcast.knomial}), so the schedule checker
 * and the simulator have something true to work on; the selector costs the shared-memory path with its own model
 * ({@code select.NodeShmCost}). Stateless.
 */
public final class NodeShmCollective extends AlgorithmBase implements NodePhased {
    private final Algorithm equivalent;
    private final String summary;

    private NodeShmCollective(Collective collective, Algorithm equivalent, String summary) {
        super(collective.id() + ".shm", collective);
        this.equivalent = equivalent;
        this.summary = summary;
    }

    public static NodeShmCollective broadcast() {
        return new NodeShmCollective(Collective.BROADCAST, new KnomialBroadcast(),
                "shared-memory broadcast on one node: the root copies the message into the node buffer once, every"
                        + " other rank copies it out concurrently; any root; nodes = 1; paper 000 sec. 4.2");
    }

    @Override
    public NodeStep before(Shape shape, int node) {
        long b = shape.blockBytes();
        return switch (collective()) {
            case ALLGATHER -> NodeStep.allgather(b, Buffer.RECV, 0);
            case GATHER -> NodeStep.gather(shape.placement().localRankOf(shape.root()), b, Buffer.RECV, 0);
            case BROADCAST -> NodeStep.broadcast(shape.placement().localRankOf(shape.root()), Buffer.RECV, 0, b);
            default -> throw new IllegalStateException("no one-node " + collective().id() + " here");
        };
    }

    @Override
    public Optional<Algorithm> between(Shape shape) {
        return Optional.empty();
    }

    @Override
    public NodeStep after(Shape shape, int node) {
        return NodeStep.NONE;
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return oneNodeOfSeveralRanks(shape);
    }

    /** Why {@code shape} is not one node of at least two ranks (what a one-node shared-memory collective needs). */
    static Optional<String> oneNodeOfSeveralRanks(Shape shape) {
        if (shape.placement().nodeCount() != 1) {
            return Optional.of("the ranks span " + shape.placement().nodeCount() + " nodes: this one carries a"
                    + " collective only when every rank is on one node");
        }
        if (shape.size() < 2) {
            return Optional.of("a single rank has no node-mates to share memory with");
        }
        return Optional.empty();
    }

    /** The flat point-to-point schedule that moves the same bytes between the same ranks. */
    @Override
    public RankProgram program(Shape shape, int rank) {
        return equivalent.program(shape, rank);
    }

    /** The equivalent schedule's terms; selection costs the shared-memory path with its own model instead. */
    @Override
    public CostTerms cost(Shape shape) {
        return equivalent.cost(shape);
    }

    @Override
    public String summary() {
        return summary;
    }
}
