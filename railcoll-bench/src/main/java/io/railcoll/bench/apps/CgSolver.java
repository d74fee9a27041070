package io.railcoll.bench.apps;

/**
 * Conjugate gradient (Hestenes-Stiefel, no preconditioner) from {@code x0 = 0}: per iteration one matrix product and
 * two dot products, {@code p.Ap} and {@code r.r}. It stops when the recursive residual satisfies
 * {@code ||r|| <= tolerance ||b||} or after {@code maxIterations}. Written once against {@link CgSpace}, so the
 * distributed run and the reference do the same arithmetic in the same order, apart from how the dot products' partial
 * sums are combined.
 */
final class CgSolver {
    /** What a solve produced: this part of x, iterations run, and {@code ||r|| / ||b||} by the recurrence. */
    record Solution(double[] x, int iterations, double relativeResidual, boolean converged) {
    }

    private CgSolver() {
    }

    /**
     * @param b             this part of the right-hand side
     * @param tolerance     relative residual to stop at; 0 runs exactly {@code maxIterations}
     */
    static Solution solve(CgSpace space, double[] b, double tolerance, int maxIterations) {
        int m = space.length();
        double[] x = new double[m];
        double[] r = b.clone();
        double[] p = b.clone();
        double[] ap = new double[m];
        double rr = space.dot(r, r);
        double bNorm = Math.sqrt(rr);
        if (bNorm == 0) {
            return new Solution(x, 0, 0, true);
        }
        double limit = tolerance * bNorm;
        int it = 0;
        while (it < maxIterations && !(Math.sqrt(rr) <= limit)) {
            space.apply(p, ap);
            double alpha = rr / space.dot(p, ap);
            for (int i = 0; i < m; i++) {
                x[i] += alpha * p[i];
                r[i] -= alpha * ap[i];
            }
            double rrNext = space.dot(r, r);
            double beta = rrNext / rr;
            for (int i = 0; i < m; i++) {
                p[i] = r[i] + beta * p[i];
            }
            rr = rrNext;
            it++;
        }
        double relative = Math.sqrt(rr) / bNorm;
        return new Solution(x, it, relative, relative <= tolerance);
    }

}
