package io.railcoll.sim;

/**
 * A token bucket on every rail, in each direction: a rail carries a burst of up to {@code burstBytes} at whatever speed
 * the link's Hockney cost allows, and sustained traffic at {@code nsPerByte}, the rail's rate. This is how a rate-limited
 * rail behaves (the namespace testbed's {@code tbf rate R burst B}, a cloud network's burst allowance): a ping-pong's
 * single message rides the burst, so the Hockney time per byte fitted to it can be several times faster than the rate
 * a collective that keeps the rail busy gets. Without the bucket the simulator had to pick one of the two speeds, and
 * either the small collectives or the large ones came out wrong (gathers of 1 MiB on the testbed predicted at half the
 * time the rail's rate allows). Immutable.
 *
 * @param nsPerByte  time per byte of sustained traffic, {@code > 0} (8e9 / rate in bit/s)
 * @param burstBytes bytes the bucket holds, {@code >= 0}; a full bucket lets that much pass without waiting for the rate
 */
public record RailLimit(double nsPerByte, long burstBytes) {
    public RailLimit {
        if (!(nsPerByte > 0) || Double.isInfinite(nsPerByte)) {
            throw new IllegalArgumentException("a rail limit's time per byte must be finite and > 0, got " + nsPerByte);
        }
        if (burstBytes < 0) {
            throw new IllegalArgumentException("a rail limit's burst must be >= 0 bytes, got " + burstBytes);
        }
    }

    /** The limit of a rail of {@code bitsPerSecond} with a bucket of {@code burstBytes}. */
    public static RailLimit ofRate(long bitsPerSecond, long burstBytes) {
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException("a rail's rate must be > 0 bit/s, got " + bitsPerSecond);
        }
        return new RailLimit(8e9 / bitsPerSecond, burstBytes);
    }

    /**
     * Passes {@code bytes} offered at time {@code t} through the bucket whose state is {@code tat[i]} (the theoretical
     * arrival time of the generic cell rate algorithm: the bucket is full when it is at or before {@code t}), and
     * returns when the last byte conforms. Traffic is a fluid: the first bytes use the bucket's credit, the rest go at
     * the rate.
     */
    double pass(double[] tat, int i, double t, long bytes) {
        double from = Math.max(tat[i], t);
        tat[i] = from + bytes * nsPerByte;
        return tat[i] - burstBytes * nsPerByte;
    }
}
