package io.railcoll.bench.tune;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.Simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * Fits a {@link CostModel} to collectives timed on the real placement: two factors, one on every link class's
 * startup time and one on every time per byte (and on copies), are chosen so the {@link Simulator}'s predictions
 * match the measured times as closely as possible in log terms (a factor of two too slow counts as much as a factor
 * of two too fast). The ratios between the classes stay the ping-pong's, and so does everything else (processor
 * share, cores, streams, stripe threshold).
 *
 * <p>Why fit at all, when ping-pong measures the links directly: on a machine where the ranks outnumber the cores,
 * a message inside a 16-rank collective costs far more than between two otherwise idle ranks (a rank that waits
 * sleeps, and waking it takes the scheduler's time; sixteen ranks copying at once share caches and memory), and only
 * the collectives show by how much. Why two factors and not the four parameters: timings of one placement, where
 * every collective mixes shared memory and rails, separate the classes poorly, and on a noisy machine a free fit
 * trades one class against the other at random; ping-pong separates them well. The search is a compass search over
 * the logarithms of the factors (see {@link PatternSearch} for why not a gradient method), from factor-4 steps down
 * to 1%. Stateless.
 */
public final class Calibration {
    private static final int MAX_EVALUATIONS = 400;

    /** One timed collective: the shape, the algorithm forced, and its measured time. */
    public record Probe(Shape shape, String algorithmId, double measuredNs) {
    }

    /** The fitted model, and how far each probe's prediction is from its measurement. */
    public record Result(CostModel model, List<Probe> probes, double[] predictedNs) {
        /** Root mean square of ln(predicted / measured). */
        public double rmsLogError() {
            double sum = 0;
            for (int i = 0; i < probes.size(); i++) {
                double e = Math.log(predictedNs[i] / probes.get(i).measuredNs());
                sum += e * e;
            }
            return Math.sqrt(sum / probes.size());
        }
    }

    private Calibration() {
    }

    public static Result fit(CostModel start, List<Probe> probes) {
        if (probes.isEmpty()) {
            throw new IllegalArgumentException("calibration needs at least one timed collective");
        }
        // x = ln of the factors on every class's startup time and time per byte.
        double[] best = PatternSearch.minimize(x -> cost(model(start, x), probes), new double[2], Math.log(4),
                Math.log(1.01), MAX_EVALUATIONS);
        CostModel fitted = model(start, best);
        return new Result(fitted, List.copyOf(probes), predict(fitted, probes));
    }

    /** {@code start} with every link's startup time scaled by e^x[0] and time per byte by e^x[1]. */
    static CostModel model(CostModel start, double[] x) {
        CostModel m = start;
        for (LinkClass c : start.links().keySet()) {
            LinkCost l = start.link(c);
            m = m.withLink(c, new LinkCost(l.alphaNs() * Math.exp(x[0]), l.nsPerByte() * Math.exp(x[1]), l.cpuFraction()));
        }
        return m.withCopyNsPerByte(start.copyNsPerByte() * Math.exp(x[1]));
    }

    static double[] predict(CostModel model, List<Probe> probes) {
        double[] out = new double[probes.size()];
        for (int i = 0; i < probes.size(); i++) {
            Probe p = probes.get(i);
            out[i] = Simulator.predict(AlgorithmCatalog.standard().byId(p.algorithmId()), p.shape(), model).timeNs();
        }
        return out;
    }

    /** The sum over probes of ln(predicted / measured) squared. */
    private static double cost(CostModel model, List<Probe> probes) {
        double[] predicted = predict(model, probes);
        double sum = 0;
        for (int i = 0; i < predicted.length; i++) {
            double e = Math.log(Math.max(1, predicted[i]) / probes.get(i).measuredNs());
            sum += e * e;
        }
        return sum;
    }

    /** The probes of a sweep: every forced algorithm at every size, its samples summarised by {@code statistic}. */
    public static List<Probe> probes(SweepResults sweep, io.railcoll.topology.Placement placement, int ports,
                                     SweepResults.Statistic statistic) {
        List<Probe> out = new ArrayList<>();
        for (var c : sweep.collectives()) {
            for (long size : sweep.sizes(c)) {
                for (String a : sweep.algorithms(c, size)) {
                    out.add(new Probe(new Shape(c, placement, ports, size, 0), a, sweep.ns(statistic, c, size, a)));
                }
            }
        }
        return out;
    }
}
