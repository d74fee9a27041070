package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.barrier.DisseminationBarrier;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.NodeStep;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code barrier.shm}: an SMP-aware barrier. Every node's ranks meet in a node barrier (one atomic add to a
 * node-wide counter each; the last arrival wakes every sleeper with one futex wake); across nodes, the masters then
 * run a k-port dissemination among themselves ({@link MastersDissemination}, {@code ceil(log_{k+1} M)} rounds of
 * zero-byte signals) and a second node barrier lets the other ranks go once their master is through. On one node
 * it is the node barrier alone. No rank leaves before every rank has entered: a rank leaves the second node barrier
 * only after its master finished the dissemination, which needs every master, which each entered only after its
 * whole node had.
 *
 * <p>Its {@link #program programs} are those of {@code barrier.dissemination} (the flat barrier), which the checker
 * verifies and the simulator runs; selection costs the node steps with {@code select.NodeShmCost} and simulates the
 * masters' dissemination. Any placement; shared memory on. Stateless.
 */
public final class NodeShmBarrier extends AlgorithmBase implements NodePhased {
    public static final String ID = "barrier.shm";

    private final DisseminationBarrier equivalent = new DisseminationBarrier();
    private final Optional<Algorithm> masters = Optional.of(new MastersDissemination());

    public NodeShmBarrier() {
        super(ID, Collective.BARRIER);
    }

    @Override
    public NodeStep before(Shape shape, int node) {
        return NodeStep.BARRIER;
    }

    @Override
    public Optional<Algorithm> between(Shape shape) {
        return shape.placement().nodeCount() > 1 ? masters : Optional.empty();
    }

    @Override
    public NodeStep after(Shape shape, int node) {
        return shape.placement().nodeCount() > 1 ? NodeStep.BARRIER : NodeStep.NONE;
    }

    /** The flat dissemination barrier. */
    @Override
    public RankProgram program(Shape shape, int rank) {
        return equivalent.program(shape, rank);
    }

    /** The flat barrier's terms; selection costs the node steps and the masters' rounds instead. */
    @Override
    public CostTerms cost(Shape shape) {
        return equivalent.cost(shape);
    }

    @Override
    public String summary() {
        return "SMP-aware barrier: node barrier in shared memory (one atomic add per rank, one futex wake), k-port"
                + " dissemination among node masters (ceil(log_{k+1} M) rounds), node barrier; any placement";
    }
}
