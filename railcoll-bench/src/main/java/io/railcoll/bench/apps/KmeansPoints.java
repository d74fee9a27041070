package io.railcoll.bench.apps;

/**
 * The k-means data set: {@code clusters} blobs in {@code dims} dimensions, every point made from its global index
 * and the seed alone, so each rank makes just its own range and the single-process reference makes the same points.
 *
 * <p>Coordinates are multiples of 2^-20 below 2^10 in magnitude, so a sum of up to {@link #MAX_POINTS} of them needs
 * at most 52 bits and is exact in a double, whatever order the all-reduce adds in. Every algorithm, placement and
 * the reference therefore compute bit-identical centroids, and the app checks exactly that.
 */
final class KmeansPoints {
    /** Points the exact-sum argument allows: 2^22 x 2^30 quanta stays below 2^53. */
    static final int MAX_POINTS = 1 << 22;
    private static final double QUANTUM = 0x1p-20;
    /** Blob centres lie in [-CENTRE_SPAN, CENTRE_SPAN), offsets from them in (-SPREAD, SPREAD). */
    private static final double CENTRE_SPAN = 500;
    private static final double SPREAD = 20;

    private KmeansPoints() {
    }

    /** Points {@code first .. first+count-1}, row-major ({@code count * dims} doubles). */
    static double[] range(long seed, long first, int count, int dims, int clusters) {
        double[] out = new double[Math.multiplyExact(count, dims)];
        for (int p = 0; p < count; p++) {
            long index = first + p;
            int cluster = (int) Math.floorMod(Hashing.mix(seed ^ Hashing.mix(index)), (long) clusters);
            for (int d = 0; d < dims; d++) {
                double centre = (2 * unit(seed, cluster, d, -1) - 1) * CENTRE_SPAN;
                // The sum of three uniforms: a bell-shaped blob around the centre.
                double offset = (unit(seed, index, d, 0) + unit(seed, index, d, 1) + unit(seed, index, d, 2) - 1.5)
                        * (SPREAD / 1.5);
                out[p * dims + d] = Math.floor((centre + offset) / QUANTUM) * QUANTUM;
            }
        }
        return out;
    }

    /** A uniform double in [0, 1) from the four numbers. */
    private static double unit(long seed, long a, int b, int c) {
        long h = Hashing.mix(seed * 0x9E3779B97F4A7C15L + Hashing.mix(a * 0xC2B2AE3D27D4EB4FL + b * 31L + c));
        return (h >>> 11) * 0x1p-53;
    }
}
