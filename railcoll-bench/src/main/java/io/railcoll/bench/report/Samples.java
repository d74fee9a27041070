package io.railcoll.bench.report;

import org.HdrHistogram.Histogram;

/**
 * Accumulates the latency samples of one point and yields their minimum, median and maximum.
 *
 * <p>Values are kept in an HdrHistogram in nanoseconds with three significant digits, so a 0.6 us
 * sample keeps its nanoseconds and a 240 us one is exact to 0.1%; the histogram grows as needed, so
 * there is no ceiling to configure. Minimum and maximum are also tracked exactly, because the
 * histogram reports bucket edges and a result must satisfy {@code min <= median <= max}.
 * The median is HdrHistogram's 50th percentile: for an even count, the lower middle sample.
 *
 * <p>Not thread-safe: one harness thread records into it.
 */
public final class Samples {
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
    private long minNs = Long.MAX_VALUE;
    private long maxNs = Long.MIN_VALUE;

    /** Records one sample given in nanoseconds. */
    public Samples addNs(long latencyNs) {
        if (latencyNs < 0) {
            throw new IllegalArgumentException("a latency cannot be negative: " + latencyNs + " ns");
        }
        histogram.recordValue(latencyNs);
        minNs = Math.min(minNs, latencyNs);
        maxNs = Math.max(maxNs, latencyNs);
        return this;
    }

    /** Records one sample given in microseconds (rounded to the nanosecond), as the peer benchmark prints them. */
    public Samples addUs(double latencyUs) {
        if (!(latencyUs >= 0) || Double.isInfinite(latencyUs)) {
            throw new IllegalArgumentException("a latency must be a finite number >= 0, got " + latencyUs + " us");
        }
        return addNs(Math.round(latencyUs * 1_000.0));
    }

    /**
     * One OSU-style sample from each rank's total time over {@code iterations} calls: every rank's
     * average, then the maximum over ranks (the collective is done when its slowest rank is).
     */
    public static long osuSampleNs(long[] perRankTotalNs, int iterations) {
        if (perRankTotalNs.length == 0 || iterations < 1) {
            throw new IllegalArgumentException("need at least one rank and one iteration, got "
                    + perRankTotalNs.length + " ranks, " + iterations + " iterations");
        }
        long max = 0;
        for (long total : perRankTotalNs) {
            max = Math.max(max, total / iterations);
        }
        return max;
    }

    /**
     * One sample of what a call adds to a loop of barriers (decision 0232), from each rank's time of {@code iterations}
     * barrier + call pairs and of {@code iterations} barriers alone: every rank's difference per call (rounded toward
     * zero), then the largest over ranks, as for {@link #osuSampleNs}. Negative when every rank's pairs took less than
     * its barriers: noise larger than the call, which a median over samples shows for what it is.
     */
    public static long addedToBarrierNs(long[] perRankPairsNs, long[] perRankBarriersNs, int iterations) {
        if (perRankPairsNs.length == 0 || perRankPairsNs.length != perRankBarriersNs.length || iterations < 1) {
            throw new IllegalArgumentException("need the same ranks (at least one) in both loops and one iteration, got "
                    + perRankPairsNs.length + " and " + perRankBarriersNs.length + " ranks, " + iterations + " iterations");
        }
        long max = Long.MIN_VALUE;
        for (int r = 0; r < perRankPairsNs.length; r++) {
            max = Math.max(max, (perRankPairsNs[r] - perRankBarriersNs[r]) / iterations);
        }
        return max;
    }

    public int count() {
        return (int) histogram.getTotalCount();
    }

    public double minUs() {
        requireSamples();
        return minNs / 1_000.0;
    }

    public double maxUs() {
        requireSamples();
        return maxNs / 1_000.0;
    }

    public double medianUs() {
        requireSamples();
        long median = histogram.medianEquivalentValue(histogram.getValueAtPercentile(50.0));
        return Math.clamp(median, minNs, maxNs) / 1_000.0;
    }

    private void requireSamples() {
        if (histogram.getTotalCount() == 0) {
            throw new IllegalStateException("no samples recorded");
        }
    }
}
