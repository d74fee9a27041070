package io.railcoll.sim;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Predicts several algorithms of one collective over a range of block sizes and finds where the fastest one
 * changes: first at the given sizes, then, between two neighbouring sizes with different winners, by bisection (in
 * log scale) on those two algorithms alone. Stateless.
 */
public final class Crossovers {

    /** What a sweep predicted: per algorithm, the time at each size (empty where it was not simulated). */
    public record Sweep(List<Long> sizes, Map<String, List<OptionalDouble>> timesNs, Map<String, String> notes,
                        List<Crossover> crossovers) {

        /** The algorithm with the lowest prediction at size index {@code i}, or null when none was simulated. */
        public String fastest(int i) {
            String best = null;
            double bestNs = Double.POSITIVE_INFINITY;
            for (Map.Entry<String, List<OptionalDouble>> e : timesNs.entrySet()) {
                OptionalDouble t = e.getValue().get(i);
                if (t.isPresent() && t.getAsDouble() < bestNs) {
                    bestNs = t.getAsDouble();
                    best = e.getKey();
                }
            }
            return best;
        }
    }

    /** From {@code belowBytes} and smaller {@code from} is fastest; from {@code aboveBytes} {@code to} is. */
    public record Crossover(String from, String to, long belowBytes, long aboveBytes) {
    }

    /** Builds the shape of a block size; lets a caller fix placement, ports, root and groups. */
    public interface ShapeAt {
        Shape at(long blockBytes);
    }

    /** A predicted time (empty: none), and how it was made or why there is none. */
    public record Estimate(OptionalDouble timeNs, String how) {
    }

    /** The time of one algorithm on one shape it can run: {@link #simulating}, or selection's own prediction. */
    public interface Predictor {
        Estimate estimate(Algorithm algorithm, Shape shape);
    }

    /** Every algorithm through the {@link Simulator}, none over {@code maxOps}. */
    public static Predictor simulating(CostModel model, long maxOps) {
        return (a, shape) -> {
            try {
                Prediction p = Simulator.predict(a, shape, model, Simulator.Mode.AUTO, maxOps);
                return new Estimate(OptionalDouble.of(p.timeNs()), p.method());
            } catch (SimulationTooLargeException e) {
                return new Estimate(OptionalDouble.empty(), "not simulated: " + e.getMessage());
            }
        };
    }

    private Crossovers() {
    }

    /**
     * @param refineSteps bisection steps per crossover (each halves the log-size interval)
     * @param progress    told the id of each algorithm before it is simulated (for a command-line progress line)
     */
    public static Sweep sweep(List<Algorithm> algorithms, ShapeAt shapes, Predictor predictor, List<Long> sizes,
                              int refineSteps, java.util.function.Consumer<String> progress) {
        Map<String, List<OptionalDouble>> times = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        for (Algorithm a : algorithms) {
            progress.accept(a.id());
            List<OptionalDouble> row = new ArrayList<>();
            for (long size : sizes) {
                Shape shape = shapes.at(size);
                OptionalDouble t = OptionalDouble.empty();
                var unsupported = a.unsupportedReason(shape);
                if (unsupported.isPresent()) {
                    notes.putIfAbsent(a.id(), "cannot run: " + unsupported.get());
                } else {
                    Estimate e = predictor.estimate(a, shape);
                    t = e.timeNs();
                    if (t.isPresent()) {
                        notes.putIfAbsent(a.id(), e.how());
                    } else {
                        notes.put(a.id(), e.how());
                    }
                }
                row.add(t);
            }
            times.put(a.id(), row);
        }
        Sweep coarse = new Sweep(List.copyOf(sizes), times, notes, List.of());
        List<Crossover> crossovers = new ArrayList<>();
        for (int i = 0; i + 1 < sizes.size(); i++) {
            String left = coarse.fastest(i);
            String right = coarse.fastest(i + 1);
            if (left == null || right == null || left.equals(right)) {
                continue;
            }
            crossovers.add(refine(find(algorithms, left), find(algorithms, right), shapes, predictor, sizes.get(i),
                    sizes.get(i + 1), refineSteps));
        }
        return new Sweep(List.copyOf(sizes), times, notes, crossovers);
    }

    private static Crossover refine(Algorithm left, Algorithm right, ShapeAt shapes, Predictor predictor, long low,
                                    long high, int steps) {
        for (int s = 0; s < steps && high - low > 1; s++) {
            long mid = Math.max(low + 1, Math.min(high - 1, (long) Math.sqrt((double) Math.max(low, 1) * high)));
            Shape shape = shapes.at(mid);
            double l = predictor.estimate(left, shape).timeNs().orElse(Double.POSITIVE_INFINITY);
            double r = predictor.estimate(right, shape).timeNs().orElse(Double.POSITIVE_INFINITY);
            if (l <= r) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return new Crossover(left.id(), right.id(), low, high);
    }

    private static Algorithm find(List<Algorithm> algorithms, String id) {
        for (Algorithm a : algorithms) {
            if (a.id().equals(id)) {
                return a;
            }
        }
        throw new IllegalArgumentException(id);
    }
}
