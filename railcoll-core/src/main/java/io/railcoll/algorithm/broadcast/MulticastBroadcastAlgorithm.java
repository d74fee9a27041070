package io.railcoll.algorithm.broadcast;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.MulticastUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

import java.util.Optional;

/**
 * {@code broadcast.multicast}: reliable broadcast over UDP multicast on one rail (paper 003). Its program is one
 * {@link io.railcoll.schedule.Op.Multicast} of the root's RECV on every rank (decision 0146): the engine runs it on
 * the communicator's multicast group, whose transport ({@code io.railcoll.transport.mcast}) delivers the stream
 * reliably (the root sends each datagram once and the network copies it; receivers NACK what they miss; a delayed
 * synchronization every C broadcasts, and after each one larger than the buffered limit, frees the channels; when
 * multicast is unavailable or keeps failing, the transport carries the stream over its point-to-point control
 * links instead). A 0-byte broadcast has nothing to deliver: its programs are empty. Only for placements that span
 * nodes (inside one node shared memory is faster) and only when the multicast transport is enabled
 * ({@code RAILCOLL_MCAST}), which the selector checks. Stateless.
 */
public final class MulticastBroadcastAlgorithm extends AlgorithmBase implements MulticastUser {
    public static final String ID = "broadcast.multicast";
    public static final String TRANSPORT = MulticastUser.TRANSPORT;

    public MulticastBroadcastAlgorithm() {
        super(ID, Collective.BROADCAST);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        if (shape.placement().nodeCount() < 2) {
            return Optional.of("all " + shape.size() + " ranks are on one node: multicast only pays across nodes"
                    + " (shared memory carries a node's broadcast)");
        }
        return Optional.empty();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        ProgramBuilder p = new ProgramBuilder(rank);
        if (shape.blockBytes() > 0) {
            p.multicast(shape.root(), Buffer.RECV, 0, shape.blockBytes());
        }
        return p.build();
    }

    /** No point-to-point traffic: the simulator prices the Multicast op with the tuning's mcast parameters. */
    @Override
    public CostTerms cost(Shape shape) {
        return noTraffic(shape);
    }

    /** The cost terms of programs that move nothing point to point (a Multicast is no put). */
    public static CostTerms noTraffic(Shape shape) {
        return new Traffic(shape.size()).cost(shape.placement(), shape.ports(), "one multicast: no point-to-point messages");
    }

    @Override
    public String summary() {
        return "reliable UDP multicast on one rail (RAILCOLL_MCAST=auto|on, RAILCOLL_MCAST_RAIL), every rank a member;"
                + " alpha_mc + n*beta_mc at the root whatever N, + 2*ceil(log_4 N)*alpha_ctl/C sync; nodes >= 2;"
                + " the transport fails over to its point-to-point links; paper 003 sec. 4-5";
    }
}
