package io.railcoll.select;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Why selection picks what it picks for one shape, and what the model predicts for every alternative. Built by
 * {@link AlgorithmSelector#explain}; immutable.
 *
 * @param shape       the shape asked about
 * @param chosen      the algorithm that runs
 * @param reason      forced, a rule, or the model
 * @param why         one sentence: the forcing, the rule with its file and line, or the cost comparison
 * @param costedBytes the block size the model was evaluated at (the lower edge of the size's power-of-two bucket)
 * @param candidates  every algorithm of the collective, in catalog order
 * @param notes       rules that matched but could not run the shape, and similar remarks
 * @param tuning      where the model and rules came from
 */
public record Explanation(Shape shape, String chosen, Reason reason, String why, long costedBytes,
                          List<Candidate> candidates, List<String> notes, String tuning) {

    public enum Reason {
        FORCED,
        RULE,
        MODEL
    }

    /**
     * One alternative: its predicted time (empty when it cannot run the shape, or could not be simulated) and how the
     * prediction was made, or why it is out.
     */
    public record Candidate(String id, OptionalDouble predictedNs, String detail) {
    }

    public Explanation {
        candidates = List.copyOf(candidates);
        notes = List.copyOf(notes);
    }

    /** The explanation as {@code railcoll info --explain} prints it. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        boolean rooted = shape.collective() == Collective.GATHER || shape.collective() == Collective.BROADCAST;
        sb.append(shape.collective().id()).append(", ").append(shape.blockBytes()).append(" B per block, ")
                .append(shape.size()).append(" ranks on ").append(shape.placement().describe())
                .append(shape.placement().isUniform() ? " (nodes x ranks per node)" : " (ranks per node)")
                .append(", k=").append(shape.ports()).append(rooted ? ", root " + shape.root() : "").append('\n');
        sb.append("runs: ").append(chosen).append('\n');
        sb.append("why:  ").append(why).append('\n');
        for (String note : notes) {
            sb.append("note: ").append(note).append('\n');
        }
        sb.append("model: ").append(tuning);
        if (costedBytes != shape.blockBytes()) {
            sb.append("; costed at ").append(costedBytes).append(" B, the lower edge of the size's power-of-two bucket");
        }
        sb.append('\n');
        double best = Double.POSITIVE_INFINITY;
        int width = "algorithm".length();
        for (Candidate c : candidates) {
            width = Math.max(width, c.id().length());
            if (c.predictedNs().isPresent()) {
                best = Math.min(best, c.predictedNs().getAsDouble());
            }
        }
        sb.append(String.format(Locale.ROOT, "  %-" + width + "s  %12s  %7s  %s%n", "algorithm", "predicted", "vs best",
                "how / why not"));
        for (Candidate c : candidates) {
            String mark = c.id().equals(chosen) ? "*" : " ";
            if (c.predictedNs().isPresent()) {
                double ns = c.predictedNs().getAsDouble();
                sb.append(String.format(Locale.ROOT, "%s %-" + width + "s  %12s  %6.2fx  %s%n", mark, c.id(),
                        formatNs(ns), best > 0 ? ns / best : 1.0, c.detail()));
            } else {
                sb.append(String.format(Locale.ROOT, "%s %-" + width + "s  %12s  %7s  %s%n", mark, c.id(), "-", "-",
                        c.detail()));
            }
        }
        return sb.toString();
    }

    /** A time in the unit that keeps three or four digits: {@code 812 ns}, {@code 41.3 us}, {@code 2.07 ms}, {@code 1.20 s}. */
    public static String formatNs(double ns) {
        if (ns < 1e3) {
            return String.format(Locale.ROOT, "%.0f ns", ns);
        }
        if (ns < 1e6) {
            return String.format(Locale.ROOT, "%.3g us", ns / 1e3);
        }
        if (ns < 1e9) {
            return String.format(Locale.ROOT, "%.3g ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.3g s", ns / 1e9);
    }
}
