package io.railcoll.bench.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the CG app judges a distributed solution against the single-process references (rank 0 runs them; see
 * {@code docs/applications.md#cg-cgapp}).
 *
 * <p>Only the dot products' order of addition differs between a job and the references (products and vector updates
 * are the same operations on the same values), so:
 * <ul>
 *   <li>in deterministic mode the job adds its partials exactly as {@link RankOrderCgSpace} does, and must give the
 *       same bits: iterations, residual and every entry of x;</li>
 *   <li>otherwise each dot product may differ in its last bits, and a solver that stops on a residual threshold can
 *       then run a slightly different number of iterations; the solution is judged by what CG promises. With
 *       {@code tau = max(tolerance, the reference's true relative residual)}, the job's true residual
 *       {@code ||b - A x||} must be at most {@code 2 tau ||b||} (the recursive residual's drift from the true one
 *       differs by rounding only), and then, as {@code ||A^-1||_2 = 1/lambda_min},
 *       {@code ||x - x_ref||_2 <= (||b - A x|| + ||b - A x_ref||) / lambda_min <= 3 tau ||b|| / lambda_min}, which is
 *       checked too; the iterations may differ by at most {@link #ITERATION_SLACK}.</li>
 * </ul>
 */
final class CgChecks {
    /**
     * Iterations a run may differ from the sequential reference outside deterministic mode. The two residual histories
     * differ by rounding only, far less than one iteration's decrease, so the count changes only when a residual lands
     * within that difference of the threshold, and then by one; {@code CgTest} measured 0 or 1 over random reduction
     * orders. Two leaves room.
     */
    static final int ITERATION_SLACK = 2;

    private CgChecks() {
    }

    /** What a check needs of a solution: its x (whole), iterations and recursive residual. */
    record Judged(String name, double[] x, int iterations, double relativeResidual) {
        static Judged of(String name, CgSolver.Solution s) {
            return new Judged(name, s.x(), s.iterations(), s.relativeResidual());
        }
    }

    /** Problems of {@code run} against the sequential reference (both modes) and the rank-order one (deterministic). */
    static List<String> judge(Judged run, PoissonGrid grid, double[] b, double tolerance, Judged sequential,
                              Judged rankOrder, boolean deterministic) {
        List<String> problems = new ArrayList<>();
        if (deterministic) {
            String bits = bitDifference(rankOrder, run);
            if (bits != null) {
                problems.add(run.name() + ": not bit-identical to the rank-order reference: " + bits);
            }
        }
        double bNorm = norm(b);
        double tau = Math.max(tolerance, trueResidual(grid, b, sequential.x()) / bNorm);
        double residual = trueResidual(grid, b, run.x());
        if (!(residual <= 2 * tau * bNorm)) {
            problems.add(String.format(Locale.ROOT, "%s: true residual ||b - Ax||/||b|| = %.3e, above 2 x %.3e",
                    run.name(), residual / bNorm, tau));
        }
        double error = distance(run.x(), sequential.x());
        double bound = 3 * tau * bNorm / grid.lambdaMin();
        if (!(error <= bound)) {
            problems.add(String.format(Locale.ROOT, "%s: ||x - x_ref|| = %.3e, above the bound 3 tau ||b|| / lambda_min"
                    + " = %.3e", run.name(), error, bound));
        }
        if (Math.abs(run.iterations() - sequential.iterations()) > ITERATION_SLACK) {
            problems.add(run.name() + ": " + run.iterations() + " iterations, the single-process reference "
                    + sequential.iterations() + " (at most " + ITERATION_SLACK + " apart)");
        }
        return problems;
    }

    /** Null when iterations, residual and x are the same bits; otherwise the first difference. */
    static String bitDifference(Judged expected, Judged actual) {
        if (expected.iterations() != actual.iterations()) {
            return actual.iterations() + " iterations, expected " + expected.iterations();
        }
        if (Double.doubleToRawLongBits(expected.relativeResidual()) != Double.doubleToRawLongBits(actual.relativeResidual())) {
            return "residual " + actual.relativeResidual() + ", expected " + expected.relativeResidual();
        }
        int differing = 0;
        int first = -1;
        for (int i = 0; i < expected.x().length; i++) {
            if (Double.doubleToRawLongBits(expected.x()[i]) != Double.doubleToRawLongBits(actual.x()[i])) {
                differing++;
                first = first < 0 ? i : first;
            }
        }
        return first < 0 ? null : String.format(Locale.ROOT, "x[%d] is %s, expected %s (%d of %d entries differ)",
                first, actual.x()[first], expected.x()[first], differing, expected.x().length);
    }

    /** {@code ||b - A x||_2}, computed in one process. */
    static double trueResidual(PoissonGrid grid, double[] b, double[] x) {
        double[] ax = new double[x.length];
        grid.applyRows(x, 0, 0, grid.rows(), ax);
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            double d = b[i] - ax[i];
            s += d * d;
        }
        return Math.sqrt(s);
    }

    static double norm(double[] v) {
        double s = 0;
        for (double d : v) {
            s += d * d;
        }
        return Math.sqrt(s);
    }

    static double distance(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double d = a[i] - b[i];
            s += d * d;
        }
        return Math.sqrt(s);
    }
}
