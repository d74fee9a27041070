package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.allgather.DirectAllgather;
import io.railcoll.algorithm.gather.DirectGather;
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
 * <ul>
 *   <li>{@code allgather.shm}: every rank copies its block into the node buffer, waits until all blocks are in, and
 *       copies the other N-1 out: 1 write and N-1 reads of b per rank, one synchronization;</li>
 *   <li>{@code gather.shm}: every non-root copies its block in, the root copies the N-1 blocks out.</li>
 * </ul>
 * Messages larger than the node buffer stream through its two halves in pipelined steps, one synchronization per
 * step. Only for jobs whose ranks all share one node (and only when shared memory is on, which the selector
 * checks). No engine sequence number is taken: every rank of the node must select alike, as with any algorithm.
 *
 * <p>Its {@link #program programs} are the flat point-to-point schedule that moves the same bytes between the
 * same ranks ({@code allgather.direct}, {@code gather.direct}), so the schedule checker
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

    public static NodeShmCollective allgather() {
        return new NodeShmCollective(Collective.ALLGATHER, new DirectAllgather(),
                "shared-memory all-gather on one node: each rank copies its block into the node buffer, one"
                        + " node-wide synchronization, each copies the N-1 others out (b written, (N-1)*b read per rank,"
                        + " pipelined through two buffer halves); nodes = 1; paper 000 sec. 4.2, paper 002 Table 1");
    }

    public static NodeShmCollective gather() {
        return new NodeShmCollective(Collective.GATHER, new DirectGather(),
                "shared-memory gather on one node: non-roots copy their blocks into the node buffer, the root waits"
                        + " once and copies the N-1 blocks out; any root; nodes = 1; paper 000 sec. 4.2");
    }

    @Override
    public NodeStep before(Shape shape, int node) {
        long b = shape.blockBytes();
        return switch (collective()) {
            case ALLGATHER -> NodeStep.allgather(b, Buffer.RECV, 0);
            case GATHER -> NodeStep.gather(shape.placement().localRankOf(shape.root()), b, Buffer.RECV, 0);
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
