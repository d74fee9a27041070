package io.railcoll.bench.tune;

import java.util.Arrays;
import java.util.function.ToDoubleFunction;

/** The Nelder-Mead simplex search (standard coefficients), for the few-parameter fits of tuning. Stateless. */
final class NelderMead {
    private NelderMead() {
    }

    /**
     * A point near a local minimum of {@code f}, starting from {@code x0} with a simplex of edge {@code step}, after at
     * most {@code maxEvaluations} evaluations.
     */
    static double[] minimize(ToDoubleFunction<double[]> f, double[] x0, double step, int maxEvaluations) {
        int n = x0.length;
        double[][] p = new double[n + 1][];
        double[] y = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            p[i] = x0.clone();
            if (i > 0) {
                p[i][i - 1] += step;
            }
            y[i] = f.applyAsDouble(p[i]);
        }
        int evaluations = n + 1;
        while (evaluations < maxEvaluations) {
            Integer[] order = new Integer[n + 1];
            for (int i = 0; i <= n; i++) {
                order[i] = i;
            }
            final double[] yy = y;
            Arrays.sort(order, (a, b) -> Double.compare(yy[a], yy[b]));
            double[][] ps = new double[n + 1][];
            double[] ys = new double[n + 1];
            for (int i = 0; i <= n; i++) {
                ps[i] = p[order[i]];
                ys[i] = y[order[i]];
            }
            p = ps;
            y = ys;
            if (Math.abs(y[n] - y[0]) <= 1e-9 * (Math.abs(y[0]) + 1e-12)) {
                break;
            }
            double[] centroid = new double[n];
            for (int i = 0; i < n; i++) {
                for (int d = 0; d < n; d++) {
                    centroid[d] += p[i][d] / n;
                }
            }
            double[] reflected = along(centroid, p[n], -1);
            double yr = f.applyAsDouble(reflected);
            evaluations++;
            if (yr < y[0]) {
                double[] expanded = along(centroid, p[n], -2);
                double ye = f.applyAsDouble(expanded);
                evaluations++;
                if (ye < yr) {
                    p[n] = expanded;
                    y[n] = ye;
                } else {
                    p[n] = reflected;
                    y[n] = yr;
                }
            } else if (yr < y[n - 1]) {
                p[n] = reflected;
                y[n] = yr;
            } else {
                double[] contracted = along(centroid, p[n], 0.5);
                double yc = f.applyAsDouble(contracted);
                evaluations++;
                if (yc < y[n]) {
                    p[n] = contracted;
                    y[n] = yc;
                } else {
                    for (int i = 1; i <= n; i++) {
                        for (int d = 0; d < n; d++) {
                            p[i][d] = p[0][d] + 0.5 * (p[i][d] - p[0][d]);
                        }
                        y[i] = f.applyAsDouble(p[i]);
                        evaluations++;
                    }
                }
            }
        }
        int best = 0;
        for (int i = 1; i <= n; i++) {
            if (y[i] < y[best]) {
                best = i;
            }
        }
        return p[best];
    }

    /** {@code centroid + t (worst - centroid)}. */
    private static double[] along(double[] centroid, double[] worst, double t) {
        double[] out = new double[centroid.length];
        for (int d = 0; d < out.length; d++) {
            out[d] = centroid[d] + t * (worst[d] - centroid[d]);
        }
        return out;
    }
}
