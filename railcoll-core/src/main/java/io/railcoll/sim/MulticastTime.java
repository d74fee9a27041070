package io.railcoll.sim;

/**
 * The time of one reliable multicast delivery (paper 003's model, docs/multicast.md "Cost"): the root sends the
 * bytes once whatever the number of members, {@code alpha_mc + n * beta_mc} with the tuning's {@code model.mcast.*}
 * parameters, plus the delayed synchronization, {@code 2 ceil(log_4 N)} control messages over the rails along the
 * sync tree, paid once per {@value #CHANNELS} deliveries up to the buffered limit and by every larger one. The
 * protocol's defaults (16 channels, 64 KiB buffered limit, radix 4) are assumed. A model without multicast
 * parameters prices the stream as one rail message, so a program with Multicast ops can still be simulated; the
 * selector does not cost such an algorithm then (see {@code select.ModelCost}). Stateless.
 */
public final class MulticastTime {
    public static final int CHANNELS = 16;
    public static final long BUFFERED_LIMIT = 65_536;
    public static final int SYNC_RADIX = 4;

    private MulticastTime() {
    }

    /** The time of delivering {@code bytes} to {@code members} ranks. */
    public static double ns(long bytes, int members, CostModel model) {
        LinkCost rail = model.link(LinkClass.RAIL);
        double send = model.multicast().orElse(rail).messageNs(bytes);
        double sync = 2.0 * ceilLog(members, SYNC_RADIX) * rail.alphaNs();
        return send + (bytes > BUFFERED_LIMIT ? sync : sync / CHANNELS);
    }

    public static int ceilLog(int n, int radix) {
        int d = 0;
        for (long reach = 1; reach < n; reach *= radix) {
            d++;
        }
        return d;
    }
}
