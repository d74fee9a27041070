package io.railcoll.bench.tune;

import java.util.function.ToDoubleFunction;

/**
 * Compass search: from a point, try a step up and down along each coordinate, keep any move that lowers the
 * function, and halve the step when none does. It needs no derivatives and steps over small-scale roughness, which
 * is what a simulated time has: a tiny change of a parameter can swap two events that tie and move the time a
 * little, so finite differences point anywhere. Stateless.
 */
final class PatternSearch {
    private PatternSearch() {
    }

    /**
     * A point near a local minimum of {@code f} from {@code x0}, with steps from {@code step} down to
     * {@code minStep}, after at most {@code maxEvaluations} evaluations.
     */
    static double[] minimize(ToDoubleFunction<double[]> f, double[] x0, double step, double minStep, int maxEvaluations) {
        double[] x = x0.clone();
        double best = f.applyAsDouble(x);
        int evaluations = 1;
        while (step >= minStep && evaluations < maxEvaluations) {
            boolean moved = false;
            for (int d = 0; d < x.length && evaluations < maxEvaluations; d++) {
                for (int sign : new int[] {1, -1}) {
                    double[] y = x.clone();
                    y[d] += sign * step;
                    double v = f.applyAsDouble(y);
                    evaluations++;
                    if (v < best) {
                        best = v;
                        x = y;
                        moved = true;
                        break;
                    }
                }
            }
            if (!moved) {
                step /= 2;
            }
        }
        return x;
    }
}
