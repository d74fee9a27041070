package io.railcoll.bench.tune;

import java.util.function.Function;

/**
 * Levenberg-Marquardt for small nonlinear least-squares fits: minimises the sum of squared residuals over a few
 * parameters, with a forward-difference Jacobian (the residuals here come from a simulator, with no derivatives).
 * Stateless.
 */
final class LeastSquares {
    private static final double STEP = 1e-3;

    private LeastSquares() {
    }

    /** Parameters near a local minimum of {@code sum(residuals(x)^2)}, from {@code x0}, after at most {@code iterations}. */
    static double[] minimize(Function<double[], double[]> residuals, double[] x0, int iterations) {
        int n = x0.length;
        double[] x = x0.clone();
        double[] r = residuals.apply(x);
        double cost = dot(r, r);
        double lambda = 1e-3;
        for (int it = 0; it < iterations && cost > 0; it++) {
            double[][] jacobian = new double[r.length][n];
            for (int j = 0; j < n; j++) {
                double[] xj = x.clone();
                xj[j] += STEP;
                double[] rj = residuals.apply(xj);
                for (int i = 0; i < r.length; i++) {
                    jacobian[i][j] = (rj[i] - r[i]) / STEP;
                }
            }
            double[][] jtj = new double[n][n];
            double[] jtr = new double[n];
            for (int i = 0; i < r.length; i++) {
                for (int a = 0; a < n; a++) {
                    jtr[a] += jacobian[i][a] * r[i];
                    for (int b = 0; b < n; b++) {
                        jtj[a][b] += jacobian[i][a] * jacobian[i][b];
                    }
                }
            }
            boolean improved = false;
            while (lambda < 1e12) {
                double[][] m = new double[n][n];
                double[] rhs = new double[n];
                for (int a = 0; a < n; a++) {
                    System.arraycopy(jtj[a], 0, m[a], 0, n);
                    m[a][a] += lambda * Math.max(jtj[a][a], 1e-12);
                    rhs[a] = -jtr[a];
                }
                double[] delta = solve(m, rhs);
                double[] candidate = new double[n];
                for (int a = 0; a < n; a++) {
                    candidate[a] = x[a] + delta[a];
                }
                double[] rc = residuals.apply(candidate);
                double c = dot(rc, rc);
                if (c < cost) {
                    improved = cost - c > 1e-12 * cost;
                    x = candidate;
                    r = rc;
                    cost = c;
                    lambda = Math.max(lambda / 3, 1e-9);
                    break;
                }
                lambda *= 4;
            }
            if (!improved) {
                break;
            }
        }
        return x;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** Gaussian elimination with partial pivoting; {@code m} is positive definite here (damped normal equations). */
    private static double[] solve(double[][] m, double[] rhs) {
        int n = rhs.length;
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int row = col + 1; row < n; row++) {
                if (Math.abs(m[row][col]) > Math.abs(m[pivot][col])) {
                    pivot = row;
                }
            }
            double[] t = m[col];
            m[col] = m[pivot];
            m[pivot] = t;
            double tr = rhs[col];
            rhs[col] = rhs[pivot];
            rhs[pivot] = tr;
            for (int row = col + 1; row < n; row++) {
                double f = m[row][col] / m[col][col];
                for (int k = col; k < n; k++) {
                    m[row][k] -= f * m[col][k];
                }
                rhs[row] -= f * rhs[col];
            }
        }
        double[] x = new double[n];
        for (int row = n - 1; row >= 0; row--) {
            double s = rhs[row];
            for (int k = row + 1; k < n; k++) {
                s -= m[row][k] * x[k];
            }
            x[row] = s / m[row][row];
        }
        return x;
    }
}
