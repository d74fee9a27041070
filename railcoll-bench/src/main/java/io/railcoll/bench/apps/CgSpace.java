package io.railcoll.bench.apps;

/**
 * Where {@link CgSolver} runs: this process's part of the vectors ({@link #length()} rows), the global dot product
 * and the matrix product. A rank of a job ({@link DistributedCgSpace}: all-reduce and halo exchange) and the
 * single-process reference ({@link RankOrderCgSpace}) run the same solver through it.
 */
interface CgSpace {
    /** Rows of this process's part. */
    int length();

    /** The global dot product of two vectors whose parts are {@code a} and {@code b}. */
    double dot(double[] a, double[] b);

    /** {@code out = A v} on this part's rows. */
    void apply(double[] v, double[] out);

    /**
     * This part's contribution to a dot product: its rows in index order, added from zero. Every space forms its
     * partials with this loop, so a rank's partial and the reference's partial for the same rows are the same bits.
     */
    static double partialDot(double[] a, double[] b, int from, int count) {
        double s = 0;
        for (int i = from; i < from + count; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
