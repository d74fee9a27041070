package io.railcoll.bench.rails;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a measured point is physically possible on its rails, and if not, why. Two ways to be impossible:
 * faster than {@link PhysicalLimit#impossibleBelowUs()}, or rails that carried less than {@value #CARRIED_SHARE}
 * of the bytes the collective must bring into its busiest node (its bytes went another way: loopback, a
 * management network, shared memory between "nodes"). Immutable.
 *
 * @param impossible true when the point cannot be a measurement of the case it claims
 * @param reason     why, in words for the table's reader; empty when possible
 */
public record RailVerdict(boolean impossible, String reason) {
    /** The least share of the required bytes the counters must see (headers only add to it). */
    public static final double CARRIED_SHARE = 0.9;

    public static final RailVerdict POSSIBLE = new RailVerdict(false, "");

    /** Judges a point whose median is {@code medianUs}. */
    public static RailVerdict judge(double medianUs, PhysicalLimit limit, Optional<RailTraffic> traffic) {
        if (limit.intoBusiestNodeBytes() > 0 && medianUs < limit.impossibleBelowUs()) {
            return new RailVerdict(true, String.format(Locale.ROOT,
                    "faster than the rails allow: %.1f us < %.1f us, the time %d bytes into the busiest node take at %d x %s"
                            + " (less the token buckets' %d bytes per link)",
                    medianUs, limit.impossibleBelowUs(), limit.intoBusiestNodeBytes(), limit.rails(),
                    rate(limit.rateBitsPerSecond()), limit.burstBytes()));
        }
        return judgeBytes(limit.intoBusiestNodeBytes(), traffic);
    }

    /**
     * Judges a point on rails without a rate (no floor): only the bytes can refute it, against the
     * {@code requiredBytes} the collective must bring into its busiest node.
     */
    public static RailVerdict judgeBytes(long requiredBytes, Optional<RailTraffic> traffic) {
        if (traffic.isPresent() && requiredBytes > 0 && traffic.get().intoBusiestNodePerCall() < CARRIED_SHARE * requiredBytes) {
            return new RailVerdict(true, String.format(Locale.ROOT,
                    "the rails carried %.0f bytes per call into the busiest node, the collective must bring %d:"
                            + " its bytes went another way", traffic.get().intoBusiestNodePerCall(), requiredBytes));
        }
        return POSSIBLE;
    }

    /** {@code 2 Gbit/s}, {@code 500 Mbit/s}. */
    public static String rate(long bitsPerSecond) {
        if (bitsPerSecond % 1_000_000_000L == 0) {
            return bitsPerSecond / 1_000_000_000L + " Gbit/s";
        }
        if (bitsPerSecond >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f Gbit/s", bitsPerSecond / 1e9);
        }
        return String.format(Locale.ROOT, "%.0f Mbit/s", bitsPerSecond / 1e6);
    }
}
