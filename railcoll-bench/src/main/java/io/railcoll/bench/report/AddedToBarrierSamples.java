package io.railcoll.bench.report;

import java.util.Arrays;

/**
 * Accumulates one point's samples of what a call adds to a loop of barriers ({@link AddedToBarrier}) and yields their
 * median, minimum and maximum. Unlike {@link Samples} it keeps every value exactly, because these are differences and
 * may be negative (an HdrHistogram holds none); a point has a few dozen samples at most. The median is, as in
 * {@link Samples}, the lower middle sample for an even count.
 *
 * <p>Not thread-safe: one harness thread records into it.
 */
public final class AddedToBarrierSamples {
    private long[] valuesNs = new long[8];
    private int count;

    /** Records one sample given in nanoseconds (may be negative). */
    public AddedToBarrierSamples addNs(long addedNs) {
        if (count == valuesNs.length) {
            valuesNs = Arrays.copyOf(valuesNs, count * 2);
        }
        valuesNs[count++] = addedNs;
        return this;
    }

    /** Records one sample given in microseconds (rounded to the nanosecond), as peer_bench prints them. */
    public AddedToBarrierSamples addUs(double addedUs) {
        if (!Double.isFinite(addedUs)) {
            throw new IllegalArgumentException("an added time must be a finite number, got " + addedUs + " us");
        }
        return addNs(Math.round(addedUs * 1_000.0));
    }

    public int count() {
        return count;
    }

    /** Median, minimum and maximum over the samples, in microseconds. */
    public AddedToBarrier summary() {
        if (count == 0) {
            throw new IllegalStateException("no samples recorded");
        }
        long[] sorted = Arrays.copyOf(valuesNs, count);
        Arrays.sort(sorted);
        return new AddedToBarrier(sorted[(count - 1) / 2] / 1_000.0, sorted[0] / 1_000.0, sorted[count - 1] / 1_000.0);
    }
}
