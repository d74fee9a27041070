package io.railcoll.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The samples of one point as {@code --samples auto} sees them, and its rule for asking for more: a point whose
 * slowest sample is more than {@value #SPREAD_LIMIT} times its fastest gets more samples until its median is steady,
 * that is until the median of all its samples is within {@value #STEADY_SHARE} of the median before the last
 * {@value #STEADY_WINDOW} samples were added. At most {@value #MAX_SAMPLES} samples. Not thread-safe (rank 0's).
 */
final class SampleSeries {
    static final double SPREAD_LIMIT = 2.0;
    static final double STEADY_SHARE = 0.10;
    static final int STEADY_WINDOW = 3;
    static final int MAX_SAMPLES = 60;

    private final List<Long> samplesNs = new ArrayList<>();

    void add(long ns) {
        samplesNs.add(ns);
    }

    int count() {
        return samplesNs.size();
    }

    /** Whether this point spreads more than the limit and its median is not steady yet (and the cap is not hit). */
    boolean needsMore() {
        if (samplesNs.isEmpty() || samplesNs.size() >= MAX_SAMPLES || !widelySpread()) {
            return false;
        }
        if (samplesNs.size() < 2 * STEADY_WINDOW) {
            return true;
        }
        double now = median(samplesNs);
        double before = median(samplesNs.subList(0, samplesNs.size() - STEADY_WINDOW));
        return Math.abs(now - before) > STEADY_SHARE * now;
    }

    boolean widelySpread() {
        long min = samplesNs.stream().mapToLong(Long::longValue).min().orElse(0);
        long max = samplesNs.stream().mapToLong(Long::longValue).max().orElse(0);
        return min > 0 && max > SPREAD_LIMIT * min;
    }

    static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }
}
