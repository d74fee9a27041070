package io.railcoll.transport.tcp;

import java.util.concurrent.TimeUnit;

/**
 * When to try again to reconnect a lane that was given up: {@link #FIRST_DELAY_NS} after it failed, then twice as
 * long after each attempt that failed, up to the rail time-out (at least 1 s, at most 30 s): a rail that comes back
 * is used again within about one rail time-out, and one that stays down costs one connection attempt per rail
 * time-out. Each attempt may wait {@link #connectTimeoutNs} for the peer's answer.
 *
 * <p>Pure: times are passed in. Immutable.
 *
 * @param capNs the longest wait between two attempts
 */
record RedialBackoff(long capNs) {
    static final long FIRST_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final long MIN_CAP_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long MAX_CAP_NS = TimeUnit.SECONDS.toNanos(30);

    RedialBackoff {
        if (capNs < FIRST_DELAY_NS) {
            throw new IllegalArgumentException("cap " + capNs + " ns below the first delay");
        }
    }

    static RedialBackoff forRailTimeout(long railTimeoutNs) {
        return new RedialBackoff(Math.clamp(railTimeoutNs, MIN_CAP_NS, MAX_CAP_NS));
    }

    /** The wait before attempt {@code failures + 1}, after {@code failures} attempts that failed (0: the first). */
    long delayNs(int failures) {
        long d = FIRST_DELAY_NS;
        for (int i = 0; i < failures && d < capNs; i++) {
            d *= 2;
        }
        return Math.min(d, capNs);
    }

    /** How long one attempt waits for the peer's answer to connect: as long as the longest wait between attempts, at most 10 s. */
    long connectTimeoutNs() {
        return Math.min(capNs, TimeUnit.SECONDS.toNanos(10));
    }
}
