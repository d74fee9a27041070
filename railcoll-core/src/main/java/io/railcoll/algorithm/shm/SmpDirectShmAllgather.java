package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.allgather.SmpDirectAllgather;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodeOverlap;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.NodeStep;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code allgather.smp-direct-shm}: paper 000's SMP-aware Direct all-gather (section 5.2.2) with its intra-node
 * phases as the paper built them, in shared memory with flags (section 4.2), rather than as messages:
 * <ol>
 *   <li>node gather in the node buffer: every rank copies its block in, the master (local rank 0) copies the node's
 *       L blocks out into their final place in its RECV, once all are in;</li>
 *   <li>k-port Direct among the masters on whole nodes ({@link MastersDirectAllgather}), straight into the final
 *       places;</li>
 *   <li>node broadcast in the node buffer: the master copies the N blocks in, every other rank copies them out.</li>
 * </ol>
 * Per node: one synchronization per node-buffer step of each node phase instead of L-1 messages into the master and
 * L-1 out of it; a master moves {@code (M-1) L b} over the rails each way. Unlike {@code allgather.smp-direct}, the
 * node broadcast is a sequence of node collectives: below a few hundred KiB per node one after the last network
 * step, above that one per piece of data, each run by the master at its place inside the masters' schedule (its
 * own node's blocks right after the first puts are posted, then each piece as soon as it has landed) while the
 * rest of the exchange stays in flight ({@link MastersDirectAllgather}). Nodes >= 2 whose ranks are consecutive numbers (the node's blocks are then one range of
 * RECV). Its {@link #program programs} are those of {@code allgather.smp-direct}, the same data movement as messages,
 * which the checker verifies and the simulator runs; selection costs the node phases with {@code select.NodeShmCost}
 * and simulates the masters' exchange. Stateless.
 */
public final class SmpDirectShmAllgather extends AlgorithmBase implements NodePhased {
    public static final String ID = "allgather.smp-direct-shm";

    private final SmpDirectAllgather equivalent = new SmpDirectAllgather();
    private final Optional<Algorithm> masters = Optional.of(new MastersDirectAllgather());

    public SmpDirectShmAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    public NodeStep before(Shape shape, int node) {
        long b = shape.blockBytes();
        return NodeStep.gather(0, b, Buffer.RECV, shape.placement().masterOf(node) * b);
    }

    @Override
    public Optional<Algorithm> between(Shape shape) {
        return masters;
    }

    @Override
    public NodeStep after(Shape shape, int node) {
        return NodeStep.broadcast(0, Buffer.RECV, 0, shape.size() * shape.blockBytes());
    }

    /** From a few hundred KiB per node the node steps run inside the masters' exchange (see the masters). */
    @Override
    public NodeOverlap overlap(Shape shape, int node) {
        return MastersDirectAllgather.overlaps(shape) ? MastersDirectAllgather.layout(shape, node).overlap() : null;
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return SmpDirectStepsAllgather.severalNodesOfConsecutiveRanks(shape);
    }

    /** The same data movement as messages: {@code allgather.smp-direct}. */
    @Override
    public RankProgram program(Shape shape, int rank) {
        return equivalent.program(shape, rank);
    }

    /** The equivalent schedule's terms; selection costs the node phases and the masters' exchange instead. */
    @Override
    public CostTerms cost(Shape shape) {
        return equivalent.cost(shape);
    }

    @Override
    public String summary() {
        return "SMP-aware Direct with its node phases in shared memory: node gather in the node buffer, k-port Direct"
                + " among node masters on whole nodes, node broadcast of the N*b result in the node buffer; nodes >= 2,"
                + " consecutive ranks per node; paper 000 sec. 5.2.2 with sec. 4.2";
    }
}
