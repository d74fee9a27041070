package io.railcoll.select;

import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.LinkCost;

import java.util.OptionalDouble;

/**
 * The predicted time of {@code broadcast.multicast} (paper 003's model, docs/multicast.md "Cost"): the root sends
 * the message once whatever the number of members, {@code alpha_mc + n * beta_mc} with the tuning's
 * {@code model.mcast.*} parameters (the per-datagram cost is part of {@code beta_mc}: datagrams carry a fixed
 * payload, so it grows with n), plus the delayed synchronization, {@code 2 ceil(log_4 N)} control messages over the
 * rails along the sync tree, paid once per {@value #CHANNELS} broadcasts up to the buffered limit and by every larger
 * broadcast. The protocol's defaults (16 channels, 64 KiB buffered limit, radix 4) are assumed. Stateless.
 */
final class MulticastCost {
    static final int CHANNELS = 16;
    static final long BUFFERED_LIMIT = 65_536;
    static final int SYNC_RADIX = 4;

    private MulticastCost() {
    }

    /** The prediction for a broadcast of the shape's block, or empty when the model has no multicast parameters. */
    static OptionalDouble predictNs(Shape shape, CostModel model) {
        return predictNs(shape.blockBytes(), shape.size(), model);
    }

    /** The prediction for a multicast broadcast of {@code bytes} to {@code members}, or empty without parameters. */
    static OptionalDouble predictNs(long bytes, int members, CostModel model) {
        if (model.multicast().isEmpty()) {
            return OptionalDouble.empty();
        }
        LinkCost mc = model.multicast().get();
        LinkCost rail = model.link(LinkClass.RAIL);
        double send = mc.messageNs(bytes);
        int depth = ceilLog(members, SYNC_RADIX);
        double sync = 2.0 * depth * rail.alphaNs();
        return OptionalDouble.of(send + (bytes > BUFFERED_LIMIT ? sync : sync / CHANNELS));
    }

    static int ceilLog(int n, int radix) {
        int d = 0;
        for (long reach = 1; reach < n; reach *= radix) {
            d++;
        }
        return d;
    }
}
