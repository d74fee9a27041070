package io.railcoll.bench.tune;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Shape;
import io.railcoll.select.ModelCost;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.Simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * Fits a {@link CostModel} to collectives timed on the real placement: three numbers, a factor on every link
 * class's startup time, a factor on every time per byte (and on copies), and the processor share of both, are chosen
 * so the {@link Simulator}'s predictions match the measured times as closely as possible in log terms (a factor of
 * two too slow counts as much as a factor of two too fast), with a loss that stops a few wild points from dominating
 * (see {@link #cost}). The ratios between the classes stay the ping-pong's, and so does everything else (cores,
 * streams, stripe threshold).
 *
 * <p>Why fit at all, when ping-pong measures the links directly: on a machine where the ranks outnumber the cores,
 * a message inside a 16-rank collective costs more than between two otherwise idle ranks (sixteen ranks copying at
 * once share caches and memory), and part of its startup is not processor time but waiting for the scheduler to wake
 * its receiver, which tree-shaped algorithms pay step after step while wide ones overlap it; only the collectives
 * show how much. Why not the four link parameters: timings of one placement, where every collective mixes shared
 * memory and rails, separate the classes poorly, and on a noisy machine a free fit trades one against the other at
 * random; ping-pong separates them well. The search is a compass search (see {@link PatternSearch} for why not a
 * gradient method), from factor-4 steps down to 1%. Stateless.
 */
public final class Calibration {
    private static final int MAX_EVALUATIONS = 400;

    /** One timed collective: the shape, the algorithm forced, and its measured time. */
    public record Probe(Shape shape, String algorithmId, double measuredNs) {
    }

    /** The fitted model, and how far each probe's prediction is from its measurement. */
    public record Result(CostModel model, List<Probe> probes, double[] predictedNs) {
        /** Root mean square of ln(predicted / measured) over the probes the model costs. */
        public double rmsLogError() {
            double sum = 0;
            int costed = 0;
            for (int i = 0; i < probes.size(); i++) {
                if (!Double.isNaN(predictedNs[i])) {
                    double e = Math.log(predictedNs[i] / probes.get(i).measuredNs());
                    sum += e * e;
                    costed++;
                }
            }
            return Math.sqrt(sum / Math.max(1, costed));
        }
    }

    private Calibration() {
    }

    public static Result fit(CostModel start, List<Probe> probes) {
        if (probes.isEmpty()) {
            throw new IllegalArgumentException("calibration needs at least one timed collective");
        }
        // x = ln of the factors on every class's startup time and time per byte, and the logit of the processor share.
        double[] x0 = {0, 0, logit(start.link(LinkClass.RAIL).cpuFraction())};
        double[] best = PatternSearch.minimize(x -> cost(model(start, x), probes), x0, Math.log(4), Math.log(1.01),
                MAX_EVALUATIONS);
        CostModel fitted = model(start, best);
        return new Result(fitted, List.copyOf(probes), predict(fitted, probes));
    }

    /**
     * {@code start} with every link's startup time scaled by e^x[0], time per byte by e^x[1], and processor share
     * set to the logistic of x[2].
     */
    static CostModel model(CostModel start, double[] x) {
        CostModel m = start;
        double cpu = 1 / (1 + Math.exp(-x[2]));
        for (LinkClass c : start.links().keySet()) {
            LinkCost l = start.link(c);
            m = m.withLink(c, new LinkCost(l.alphaNs() * Math.exp(x[0]), l.nsPerByte() * Math.exp(x[1]), cpu));
        }
        return m.withCopyNsPerByte(start.copyNsPerByte() * Math.exp(x[1]));
    }

    /** The logit of a share, clamped away from 0 and 1 so the search can move it. */
    static double logit(double share) {
        double p = Math.clamp(share, 0.02, 0.98);
        return Math.log(p / (1 - p));
    }

    /** What selection would predict for every probe (see {@link ModelCost}); NaN where the model cannot cost it. */
    static double[] predict(CostModel model, List<Probe> probes) {
        double[] out = new double[probes.size()];
        for (int i = 0; i < probes.size(); i++) {
            Probe p = probes.get(i);
            out[i] = ModelCost.predict(AlgorithmCatalog.standard().byId(p.algorithmId()), p.shape(), model,
                    Simulator.DEFAULT_MAX_OPS).predictedNs().orElse(Double.NaN);
        }
        return out;
    }

    /**
     * The sum over probes of {@code ln(1 + e^2)}, e = ln(predicted / measured): least squares for small errors, but a
     * point off by a factor of twenty (a gather whose root found its blocks already there, or a sample that other
     * load slowed) pulls no harder than one off by a factor of five.
     */
    private static double cost(CostModel model, List<Probe> probes) {
        double[] predicted = predict(model, probes);
        double sum = 0;
        for (int i = 0; i < predicted.length; i++) {
            if (Double.isNaN(predicted[i])) {
                continue;
            }
            double e = Math.log(Math.max(1, predicted[i]) / probes.get(i).measuredNs());
            sum += Math.log1p(e * e);
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
