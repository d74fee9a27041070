package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.MulticastUser;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code allgather.smp-gather-mcast}: paper 000's SMP-aware Gather and Broadcast all-gather (section 5.2.1) with
 * the hardware broadcast the paper used for its last phase, here reliable UDP multicast (paper 003). One program
 * (decision 0146): the SMP-aware gather to rank 0 (node gather, then whole nodes straight into rank 0's RECV:
 * {@link SmpGatherBroadcastAllgather#gatherToRoot}), then one {@link Op.Multicast} of rank 0's N blocks to every
 * rank, which the engine runs on the communicator's multicast group. Only for placements that span nodes, and
 * only when the multicast transport is enabled ({@code RAILCOLL_MCAST}), which the selector checks. Stateless.
 */
public final class SmpGatherMulticastAllgather extends AlgorithmBase implements MulticastUser, OwnBlockInPlace {
    public static final String ID = "allgather.smp-gather-mcast";
    /** The rank whose RECV is multicast: the gather's root. */
    static final int ROOT = 0;

    private final SmpGatherBroadcastAllgather gather = SmpGatherBroadcastAllgather.gatherToRoot();

    public SmpGatherMulticastAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        if (shape.placement().nodeCount() < 2) {
            return Optional.of("all " + shape.size() + " ranks are on one node: multicast only pays across nodes");
        }
        return Optional.empty();
    }

    /** The gather's ops, then the multicast of rank 0's whole RECV (none when there are no bytes). */
    @Override
    public RankProgram program(Shape shape, int rank) {
        RankProgram gathered = gather.program(shape, rank);
        long all = shape.size() * shape.blockBytes();
        if (all == 0) {
            return gathered;
        }
        List<Op> ops = new ArrayList<>(gathered.ops().size() + 1);
        ops.addAll(gathered.ops());
        ops.add(new Op.Multicast(ROOT, Buffer.RECV, 0, all));
        return new RankProgram(rank, ops, gathered.tempBytes());
    }

    /** The gather's messages; the multicast is no put (the simulator prices it with the tuning's mcast parameters). */
    @Override
    public CostTerms cost(Shape shape) {
        return gather.cost(shape);
    }

    @Override
    public String summary() {
        return "SMP-aware Gather and Broadcast with multicast: node gather (shm), Direct gather of whole nodes to rank 0,"
                + " then one multicast of the N*b result (RAILCOLL_MCAST=auto|on); nodes >= 2;"
                + " paper 000 sec. 5.2.1 with paper 003's broadcast";
    }
}
