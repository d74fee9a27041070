package io.railcoll.select;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.MulticastUser;
import io.railcoll.sim.AnalyticEstimate;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.Prediction;
import io.railcoll.sim.SimulationTooLargeException;
import io.railcoll.sim.Simulator;

import java.util.OptionalDouble;

/**
 * The cost model's time for one algorithm on one shape, the one prediction selection ranks by and {@code tune} fits
 * and checks: every algorithm by the {@link Simulator} (node steps, multicasts and messages alike); a schedule whose
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
            if (a instanceof MulticastUser && model.multicast().isEmpty()) {
                return new Explanation.Candidate(a.id(), OptionalDouble.empty(),
                        "not costed: the tuning has no model.mcast parameters (only forced or by a rule)");
            }
            StringBuilder how = new StringBuilder();
            double ns = scheduleNs(a, shape, model, maxOps, how);
            return new Explanation.Candidate(a.id(), OptionalDouble.of(ns), how.toString());
        } catch (SimulationTooLargeException e) {
            return new Explanation.Candidate(a.id(), OptionalDouble.empty(), "not costed: " + e.getMessage());
        }
    }

    /**
     * The time of a plain schedule: simulated when its ops fit {@code maxOps}, else the closed-form
     * {@link AnalyticEstimate}; {@code how} gets which, and why. Rank 0's program times the ranks the simulator would
     * run at the least (node 0's when node-symmetric) is checked first, so a schedule far over the budget is not
     * built a dozen times over only to be refused.
     */
    static double scheduleNs(Algorithm a, Shape shape, CostModel model, long maxOps, StringBuilder how) {
        int leastRanks = shape.size() <= Simulator.FULL_UP_TO ? shape.size() : shape.placement().ranksOnNode(0);
        long least = (long) a.program(shape, 0).ops().size() * leastRanks;
        String over;
        if (least > maxOps) {
            over = a.id() + " on " + shape.placement().describe() + " needs at least " + least + " simulated ops (rank 0's"
                    + " program on each of " + leastRanks + " ranks), over the budget of " + maxOps;
        } else {
            try {
                Prediction p = Simulator.predict(a, shape, model, Simulator.Mode.AUTO, maxOps);
                how.append("simulated, ").append(p.method());
                return p.timeNs();
            } catch (SimulationTooLargeException e) {
                over = e.getMessage();
            }
        }
        how.append("analytic estimate (k-port Hockney on sampled ranks, node rail and core bounds), not simulated: ")
                .append(over);
        return AnalyticEstimate.predictNs(a, shape, model);
    }
}
