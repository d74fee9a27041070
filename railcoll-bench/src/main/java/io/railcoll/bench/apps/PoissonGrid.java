package io.railcoll.bench.apps;

/**
 * The matrix of the CG app: the 2-D Poisson problem on an {@code n x n} grid with zero Dirichlet boundary, the
 * 5-point stencil {@code 4 u(x,y) - u(x-1,y) - u(x+1,y) - u(x,y-1) - u(x,y+1)}, unknown {@code i = y*n + x}. Row i
 * couples to unknowns {@code i +- 1} and {@code i +- n} only, so a block of rows needs at most {@code n} values on
 * each side of its own (the halo). Symmetric positive definite; the matrix is never stored.
 *
 * <p>Every rank and the single-process reference compute each row with {@link #applyRows}, the same operations in
 * the same order, so a product row is the same bits wherever it is computed; only dot products can differ between
 * runs, by the order their partial sums are added.
 */
record PoissonGrid(int n) {
    /** Largest grid side: n^2 unknowns index one Java array. */
    static final int MAX_N = 46_340;

    PoissonGrid {
        if (n < 1 || n > MAX_N) {
            throw new IllegalArgumentException("cg: the grid side must be 1.." + MAX_N + ", got " + n);
        }
    }

    /** Unknowns: rows of the matrix. */
    int rows() {
        return n * n;
    }

    /**
     * {@code out[k] = (A v)_(first+k)} for {@code k < count}, where {@code v} holds the unknowns from global index
     * {@code lo} on ({@code v[j - lo]} is unknown j); it must cover every neighbour of the rows.
     */
    void applyRows(double[] v, int lo, int first, int count, double[] out) {
        for (int k = 0; k < count; k++) {
            int i = first + k;
            int x = i % n;
            int y = i / n;
            int at = i - lo;
            double s = 4 * v[at];
            if (x > 0) {
                s -= v[at - 1];
            }
            if (x < n - 1) {
                s -= v[at + 1];
            }
            if (y > 0) {
                s -= v[at - n];
            }
            if (y < n - 1) {
                s -= v[at + n];
            }
            out[k] = s;
        }
    }

    /** The right-hand side entry of unknown {@code i}: values in [-1, 1) made from the seed and the index. */
    static double rhs(long seed, long i) {
        return ((Hashing.mix(seed ^ Hashing.mix(i)) >>> 11) * 0x1p-53) * 2 - 1;
    }

    /** Right-hand side entries {@code first .. first+count-1}. */
    static double[] rhs(long seed, int first, int count) {
        double[] b = new double[count];
        for (int k = 0; k < count; k++) {
            b[k] = rhs(seed, first + k);
        }
        return b;
    }

    /**
     * The smallest eigenvalue, {@code 8 sin^2(pi / (2 (n+1)))} (the 1-D Dirichlet Laplacian's smallest, twice):
     * {@code ||A^-1||_2 = 1 / lambdaMin}, which turns residuals into a bound on the solution error.
     */
    double lambdaMin() {
        double s = Math.sin(Math.PI / (2.0 * (n + 1)));
        return 8 * s * s;
    }
}
