package io.railcoll.bench.apps;

/**
 * One Lloyd iteration's arithmetic, shared by every rank and the single-process reference so both compute the same
 * bits: assign each point to its nearest centroid and add it to that cluster's partial sums, then turn the summed
 * partials of all points into new centroids.
 *
 * <p>A partial vector holds {@code clusters * dims} coordinate sums followed by {@code clusters} counts, all doubles,
 * so one all-reduce of sums carries both.
 */
final class KmeansStep {
    private KmeansStep() {
    }

    /** Adds the {@code count} points of {@code points} to {@code partial} (which the caller zeroed or started). */
    static void accumulate(double[] points, int count, int dims, double[] centroids, int clusters, double[] partial) {
        int counts = clusters * dims;
        for (int p = 0; p < count; p++) {
            int c = nearest(points, p, dims, centroids, clusters);
            for (int d = 0; d < dims; d++) {
                partial[c * dims + d] += points[p * dims + d];
            }
            partial[counts + c] += 1;
        }
    }

    /** The centroid closest to point {@code p} in squared distance; on a tie, the lower index. */
    static int nearest(double[] points, int p, int dims, double[] centroids, int clusters) {
        int best = 0;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (int c = 0; c < clusters; c++) {
            double distance = 0;
            for (int d = 0; d < dims; d++) {
                double delta = points[p * dims + d] - centroids[c * dims + d];
                distance += delta * delta;
            }
            if (distance < bestDistance) {
                bestDistance = distance;
                best = c;
            }
        }
        return best;
    }

    /** Sets each centroid to the mean of its cluster's points; an empty cluster keeps its centroid. */
    static void update(double[] totals, int dims, int clusters, double[] centroids) {
        int counts = clusters * dims;
        for (int c = 0; c < clusters; c++) {
            double n = totals[counts + c];
            if (n > 0) {
                for (int d = 0; d < dims; d++) {
                    centroids[c * dims + d] = totals[c * dims + d] / n;
                }
            }
        }
    }

    /** The points counted in a summed partial vector. */
    static double pointsCounted(double[] totals, int dims, int clusters) {
        double sum = 0;
        for (int c = 0; c < clusters; c++) {
            sum += totals[clusters * dims + c];
        }
        return sum;
    }

    /** The whole algorithm in one process: what every distributed run must reproduce bit for bit. */
    static double[] reference(KmeansConfig c) {
        double[] points = KmeansPoints.range(c.seed(), 0, c.points(), c.dims(), c.clusters());
        double[] centroids = KmeansPoints.range(c.seed(), 0, c.clusters(), c.dims(), c.clusters());
        double[] totals = new double[c.vectorLength()];
        for (int it = 0; it < c.iterations(); it++) {
            java.util.Arrays.fill(totals, 0);
            accumulate(points, c.points(), c.dims(), centroids, c.clusters(), totals);
            update(totals, c.dims(), c.clusters(), centroids);
        }
        return centroids;
    }
}
