package io.railcoll.algorithm.broadcast;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.TransportProvided;

import java.util.Optional;

/**
 * {@code broadcast.multicast}: reliable broadcast over UDP multicast on one rail (paper 003), carried out by the
 * multicast transport ({@code io.railcoll.transport.mcast}), not by the engine. Every rank of the communicator is a
 * member of one multicast group; the root sends each datagram once and the network copies it; receivers NACK what
 * they miss; a delayed synchronization every C broadcasts (and after each one larger than the buffered limit) frees
 * the channels. When multicast is unavailable or keeps failing, outstanding and later broadcasts move to a
 * point-to-point k-nomial tree, and its {@link #program programs} are that tree, the same as
 * {@code broadcast.knomial}: what the checker verifies and the simulator runs. Only for placements that span nodes
 * (inside one node shared memory is faster) and only when the multicast transport is enabled
 * ({@code RAILCOLL_MCAST}), which the selector checks. Stateless.
 */
public final class MulticastBroadcastAlgorithm extends AlgorithmBase implements TransportProvided {
    public static final String ID = "broadcast.multicast";
    public static final String TRANSPORT = "multicast";

    private final KnomialBroadcast fallback = new KnomialBroadcast();

    public MulticastBroadcastAlgorithm() {
        super(ID, Collective.BROADCAST);
    }

    @Override
    public String transport() {
        return TRANSPORT;
    }

    @Override
    public String transportOff() {
        return "the " + TRANSPORT + " transport is off (RAILCOLL_MCAST=off); set RAILCOLL_MCAST=auto or on on every rank";
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        if (shape.placement().nodeCount() < 2) {
            return Optional.of("all " + shape.size() + " ranks are on one node: multicast only pays across nodes"
                    + " (shared memory carries a node's broadcast)");
        }
        return Optional.empty();
    }

    /** The fail-over schedule: the k-nomial tree of {@code broadcast.knomial}. */
    @Override
    public RankProgram program(Shape shape, int rank) {
        return fallback.program(shape, rank);
    }

    /** The fail-over tree's terms; selection costs the multicast path with the tuning's mcast parameters instead. */
    @Override
    public CostTerms cost(Shape shape) {
        return fallback.cost(shape);
    }

    @Override
    public String summary() {
        return "reliable UDP multicast on one rail (RAILCOLL_MCAST=auto|on, RAILCOLL_MCAST_RAIL), every rank a member;"
                + " alpha_mc + n*beta_mc at the root whatever N, + 2*ceil(log_4 N)*alpha_ctl/C sync; nodes >= 2;"
                + " fails over to the k-nomial tree; paper 003 sec. 4-5";
    }
}
