package io.railcoll.bench.tune;

import java.util.Map;
import java.util.TreeMap;

/**
 * Fits Hockney's {@code t(m) = alpha + m beta} to one-way times by least squares on relative error (each point
 * weighted by 1/t^2), so a 20 us point at 1 byte counts as much as a 300 us point at 1 MiB. Each size enters with
 * the median of its samples, which a minority of samples slowed by other load does not move. Negative parameters are
 * clamped to 0 (the straight line through the other one then refitted).
 *
 * @param alphaNs   startup time
 * @param nsPerByte time per byte
 */
public record HockneyFit(double alphaNs, double nsPerByte) {

    /** The fit of {@code samplesBySize} (size in bytes to one-way times in ns); needs two sizes or more. */
    public static HockneyFit of(Map<Long, long[]> samplesBySize) {
        Map<Long, Double> medians = new TreeMap<>();
        samplesBySize.forEach((size, s) -> {
            long[] sorted = s.clone();
            java.util.Arrays.sort(sorted);
            medians.put(size, (double) sorted[(sorted.length - 1) / 2]);
        });
        if (medians.size() < 2) {
            throw new IllegalArgumentException("a Hockney fit needs at least two sizes, got " + medians.keySet());
        }
        double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (Map.Entry<Long, Double> e : medians.entrySet()) {
            double w = 1 / (e.getValue() * e.getValue());
            double x = e.getKey();
            double y = e.getValue();
            sw += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
        }
        double det = sw * sxx - sx * sx;
        double beta = (sw * sxy - sx * sy) / det;
        double alpha = (sy - beta * sx) / sw;
        if (beta < 0) {
            return new HockneyFit(sy / sw, 0);
        }
        if (alpha < 0) {
            return new HockneyFit(0, sxy / sxx);
        }
        return new HockneyFit(alpha, beta);
    }
}
