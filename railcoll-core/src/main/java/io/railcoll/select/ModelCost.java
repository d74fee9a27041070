package io.railcoll.select;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.TransportProvided;
import io.railcoll.sim.AnalyticEstimate;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.Prediction;
import io.railcoll.sim.SimulationTooLargeException;
import io.railcoll.sim.Simulator;

import java.util.OptionalDouble;

/**
 * The cost model's time for one algorithm on one shape, the one prediction selection ranks by and {@code tune} fits
 * and checks: an algorithm with node steps in shared memory by {@link NodeShmCost}, one a transport carries out by
 * {@link MulticastCost} (plus its simulated schedule before), every other by the {@link Simulator}; a schedule whose
 * simulation would exceed {@code maxOps} by the closed-form {@link AnalyticEstimate} instead (labelled so). The caller
 * has checked that the algorithm can run the shape. Stateless.
 */
public final class ModelCost {
    private ModelCost() {
    }

    /**
     * The prediction as an explanation's candidate: its time, or none with the reason (no multicast parameters, or a
     * simulation over {@code maxOps}), and how it was made.
     */
    public static Explanation.Candidate predict(Algorithm a, Shape shape, CostModel model, long maxOps) {
        try {
            if (a instanceof NodePhased phased) {
                double ns = NodeShmCost.predictNs(phased, shape, model, maxOps);
                return new Explanation.Candidate(a.id(), OptionalDouble.of(ns), "node steps: alpha_shm * ceil(ranks/cores)"
                        + " + copies" + (phased.between(shape).isPresent() ? "; masters simulated" : ""));
            }
            if (a instanceof TransportProvided t) {
                return transportProvided(t, shape, model, maxOps);
            }
            try {
                Prediction p = Simulator.predict(a, shape, model, Simulator.Mode.AUTO, maxOps);
                return new Explanation.Candidate(a.id(), OptionalDouble.of(p.timeNs()), "simulated, " + p.method());
            } catch (SimulationTooLargeException e) {
                return analytic(a, shape, model, e);
            }
        } catch (SimulationTooLargeException e) {
            return new Explanation.Candidate(a.id(), OptionalDouble.empty(), "not costed: " + e.getMessage());
        }
    }

    private static Explanation.Candidate transportProvided(TransportProvided t, Shape shape, CostModel model, long maxOps)
            throws SimulationTooLargeException {
        long bytes = shape.collective().recvBytes(shape.blockBytes(), shape.size(), t.transportRoot(shape),
                t.transportRoot(shape));
        OptionalDouble ns = MulticastCost.predictNs(bytes, shape.size(), model);
        if (ns.isEmpty()) {
            return new Explanation.Candidate(t.id(), OptionalDouble.empty(),
                    "not costed: the tuning has no model.mcast parameters (only forced or by a rule)");
        }
        if (t.scheduleBefore().isEmpty()) {
            return new Explanation.Candidate(t.id(), ns, "multicast model: alpha_mc + n*beta_mc + sync");
        }
        Algorithm before = t.scheduleBefore().get();
        double beforeNs;
        String how;
        try {
            beforeNs = Simulator.predict(before, shape, model, Simulator.Mode.AUTO, maxOps).timeNs();
            how = "simulated ";
        } catch (SimulationTooLargeException e) {
            beforeNs = AnalyticEstimate.predictNs(before, shape, model);
            how = "analytic estimate of ";
        }
        return new Explanation.Candidate(t.id(), OptionalDouble.of(beforeNs + ns.getAsDouble()),
                how + before.id() + " + multicast model: alpha_mc + n*beta_mc + sync");
    }

    /**
     * Where the event simulation would exceed its budget: the closed-form estimate on sampled ranks
     * ({@link AnalyticEstimate}), labelled as such with the reason the simulator gave.
     */
    private static Explanation.Candidate analytic(Algorithm a, Shape shape, CostModel model, SimulationTooLargeException e) {
        return new Explanation.Candidate(a.id(), OptionalDouble.of(AnalyticEstimate.predictNs(a, shape, model)),
                "analytic estimate (k-port Hockney on sampled ranks, node rail and core bounds), not simulated: "
                        + e.getMessage());
    }
}
