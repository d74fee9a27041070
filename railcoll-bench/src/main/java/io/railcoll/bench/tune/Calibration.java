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
 * Fits the link parameters of a {@link CostModel} to collectives timed on the real placement: the startup time and
 * time per byte of shared memory and of the rails are chosen so the {@link Simulator}'s predictions match the
 * measured medians as closely as possible in log terms (a factor of two too slow counts as much as a factor of two
 * too fast). Everything else of the model (processor share, cores, streams, stripe threshold) stays as given, and a
 * local copy costs half a shared-memory byte (a shared-memory message is two copies).
 *
 * <p>Why fit at all, when ping-pong measures the links directly: on a machine where the ranks outnumber the cores,
 * a message inside a 16-rank collective costs far more than between two otherwise idle ranks (a rank that waits
 * sleeps, and waking it takes the scheduler's time). The fit starts from the ping-pong values and finds the
 * effective ones. The search is Levenberg-Marquardt over the logarithms of the four parameters, with derivatives by
 * finite differences of the simulation. Stateless.
 */
public final class Calibration {
    private static final int MAX_ITERATIONS = 60;

    /** One timed collective: the shape, the algorithm forced, and the median measured time. */
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
        double[] x0 = {
            Math.log(Math.max(1, start.link(LinkClass.SHARED_MEMORY).alphaNs())),
            Math.log(Math.max(1e-4, start.link(LinkClass.SHARED_MEMORY).nsPerByte())),
            Math.log(Math.max(1, start.link(LinkClass.RAIL).alphaNs())),
            Math.log(Math.max(1e-4, start.link(LinkClass.RAIL).nsPerByte())),
        };
        double[] best = LeastSquares.minimize(x -> residuals(model(start, x), probes), x0, MAX_ITERATIONS);
        CostModel fitted = model(start, best);
        return new Result(fitted, List.copyOf(probes), predict(fitted, probes));
    }

    static CostModel model(CostModel start, double[] x) {
        LinkCost shm = start.link(LinkClass.SHARED_MEMORY);
        LinkCost rail = start.link(LinkClass.RAIL);
        double shmPerByte = Math.exp(x[1]);
        return start.withLink(LinkClass.SHARED_MEMORY, new LinkCost(Math.exp(x[0]), shmPerByte, shm.cpuFraction()))
                .withLink(LinkClass.RAIL, new LinkCost(Math.exp(x[2]), Math.exp(x[3]), rail.cpuFraction()))
                .withCopyNsPerByte(shmPerByte / 2);
    }

    static double[] predict(CostModel model, List<Probe> probes) {
        double[] out = new double[probes.size()];
        for (int i = 0; i < probes.size(); i++) {
            Probe p = probes.get(i);
            out[i] = Simulator.predict(AlgorithmCatalog.standard().byId(p.algorithmId()), p.shape(), model).timeNs();
        }
        return out;
    }

    /** ln(predicted / measured) per probe. */
    private static double[] residuals(CostModel model, List<Probe> probes) {
        double[] predicted = predict(model, probes);
        double[] out = new double[predicted.length];
        for (int i = 0; i < predicted.length; i++) {
            out[i] = Math.log(Math.max(1, predicted[i]) / probes.get(i).measuredNs());
        }
        return out;
    }

    /** The probes of a sweep: every forced algorithm at every size, with its median. */
    public static List<Probe> probes(SweepResults sweep, io.railcoll.topology.Placement placement, int ports) {
        List<Probe> out = new ArrayList<>();
        for (var c : sweep.collectives()) {
            for (long size : sweep.sizes(c)) {
                for (String a : sweep.algorithms(c, size)) {
                    out.add(new Probe(new Shape(c, placement, ports, size, 0), a, sweep.medianNs(c, size, a)));
                }
            }
        }
        return out;
    }
}
