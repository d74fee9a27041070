package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.broadcast.MulticastBroadcastAlgorithm;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.TransportProvided;

import java.util.Optional;

/**
 * {@code allgather.smp-gather-mcast}: paper 000's SMP-aware Gather and Broadcast all-gather (section 5.2.1) with
 * the hardware broadcast the paper used for its last phase, here reliable UDP multicast (paper 003): the engine runs
 * the SMP-aware gather to rank 0 (node gather over shared memory, then whole nodes straight into rank 0's RECV:
 * {@link SmpGatherBroadcastAllgather#gatherToRoot}), then the multicast transport broadcasts the N blocks from rank
 * 0 to every rank. Its {@link #program programs} are those of {@code allgather.smp-gather-bcast} (the same gather
 * with the point-to-point broadcast the multicast one replaces, and falls back on), which the checker verifies and
 * the simulator runs. Only for placements that span nodes, and only when the multicast transport is enabled
 * ({@code RAILCOLL_MCAST}), which the selector checks. Stateless.
 */
public final class SmpGatherMulticastAllgather extends AlgorithmBase implements TransportProvided {
    public static final String ID = "allgather.smp-gather-mcast";

    private static final MulticastBroadcastAlgorithm MULTICAST = new MulticastBroadcastAlgorithm();

    private final SmpGatherBroadcastAllgather pointToPoint = new SmpGatherBroadcastAllgather();
    private final Optional<Algorithm> gather = Optional.of(SmpGatherBroadcastAllgather.gatherToRoot());

    public SmpGatherMulticastAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    public String transport() {
        return MulticastBroadcastAlgorithm.TRANSPORT;
    }

    @Override
    public String transportOff() {
        return MULTICAST.transportOff();
    }

    @Override
    public Optional<Algorithm> scheduleBefore() {
        return gather;
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        if (shape.placement().nodeCount() < 2) {
            return Optional.of("all " + shape.size() + " ranks are on one node: multicast only pays across nodes");
        }
        return Optional.empty();
    }

    /** The point-to-point equivalent: {@code allgather.smp-gather-bcast}. */
    @Override
    public RankProgram program(Shape shape, int rank) {
        return pointToPoint.program(shape, rank);
    }

    @Override
    public CostTerms cost(Shape shape) {
        return pointToPoint.cost(shape);
    }

    @Override
    public String summary() {
        return "SMP-aware Gather and Broadcast with multicast: node gather (shm), Direct gather of whole nodes to rank 0,"
                + " then broadcast.multicast of the N*b result (RAILCOLL_MCAST=auto|on); nodes >= 2;"
                + " paper 000 sec. 5.2.1 with paper 003's broadcast";
    }
}
