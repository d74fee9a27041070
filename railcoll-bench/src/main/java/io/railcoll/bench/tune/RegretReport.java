package io.railcoll.bench.tune;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.select.Explanation;
import io.railcoll.select.Tuning;
import io.railcoll.select.ModelCost;
import io.railcoll.sim.Simulator;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Locale;
import java.util.Map;

/**
 * What a sweep with {@code auto} says about selection, as Markdown tables, each point's samples summarised by a
 * {@link SweepResults.Statistic} (the minimum or the median):
 * <ul>
 *   <li><b>regret per bucket</b>: for each collective and size, the default choice's time over the fastest
 *       algorithm's, minus one (0 when the default picked the fastest); beside it the {@code auto} samples'
 *       own time, and what the model alone (no rules) would pick and its regret;</li>
 *   <li><b>simulator vs measured</b>: for every algorithm and size from {@code minSimBytes} up, the simulator's
 *       prediction against the measured time.</li>
 * </ul>
 * Stateless.
 */
public final class RegretReport {
    private RegretReport() {
    }

    /** One bucket's regret. */
    public record Row(Collective collective, long size, String fastest, double fastestNs, String chosen, double chosenNs,
                      double autoNs, String modelOnly, double modelOnlyNs) {
        public double regret() {
            return chosenNs / fastestNs - 1;
        }

        public double modelOnlyRegret() {
            return modelOnlyNs / fastestNs - 1;
        }
    }

    /** One simulator comparison. */
    public record Comparison(Collective collective, long size, String algorithm, double measuredNs, double predictedNs) {
        public double error() {
            return predictedNs / measuredNs - 1;
        }
    }

    public static List<Row> regret(SweepResults sweep, SweepResults.Statistic statistic, Tuning tuning,
                                   Placement placement, int ports) {
        AlgorithmSelector modelOnly = new AlgorithmSelector(Map.of(), tuning.withRules(List.of()));
        List<Row> rows = new ArrayList<>();
        for (Collective c : sweep.collectives()) {
            for (long size : sweep.sizes(c)) {
                String fastest = sweep.fastest(statistic, c, size);
                String auto = sweep.autoLabel(c, size).orElse(null);
                if (fastest == null || auto == null) {
                    continue;
                }
                String chosen = auto.substring("auto:".length());
                String model = modelOnly.select(new Shape(c, placement, ports, size, 0)).id();
                List<String> measured = sweep.algorithms(c, size);
                rows.add(new Row(c, size, fastest, sweep.ns(statistic, c, size, fastest), chosen,
                        measured.contains(chosen) ? sweep.ns(statistic, c, size, chosen) : Double.NaN,
                        sweep.ns(statistic, c, size, auto), model,
                        measured.contains(model) ? sweep.ns(statistic, c, size, model) : Double.NaN));
            }
        }
        return rows;
    }

    public static List<Comparison> simulated(SweepResults sweep, SweepResults.Statistic statistic, Tuning tuning,
                                             Placement placement, int ports, long minSimBytes) {
        List<Comparison> out = new ArrayList<>();
        for (Collective c : sweep.collectives()) {
            for (long size : sweep.sizes(c)) {
                if (size < minSimBytes && c != Collective.BARRIER) {
                    continue;
                }
                for (String a : sweep.algorithms(c, size)) {
                    // The prediction selection ranks by: node steps and multicast have models of their own.
                    OptionalDouble predicted = ModelCost.predict(AlgorithmCatalog.standard().byId(a),
                            new Shape(c, placement, ports, size, 0), tuning.model(), Simulator.DEFAULT_MAX_OPS).predictedNs();
                    if (predicted.isPresent()) {
                        out.add(new Comparison(c, size, a, sweep.ns(statistic, c, size, a), predicted.getAsDouble()));
                    }
                }
            }
        }
        return out;
    }

    public static String regretMarkdown(List<Row> rows, double target) {
        StringBuilder sb = new StringBuilder();
        sb.append("| collective | size | fastest | default choice | its time | regret | auto samples | model alone | its regret |\n");
        sb.append("|---|---:|---|---|---:|---:|---:|---|---:|\n");
        int within = 0;
        double worst = 0;
        for (Row r : rows) {
            boolean ok = r.regret() <= target;
            within += ok ? 1 : 0;
            worst = Math.max(worst, r.regret());
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s %s | %s | %s | %s%s | %s | %s | %s |%n", r.collective().id(),
                    size(r.size()), shortId(r.fastest()), Explanation.formatNs(r.fastestNs()), shortId(r.chosen()),
                    Explanation.formatNs(r.chosenNs()), percent(r.regret()), ok ? "" : " **over**",
                    Explanation.formatNs(r.autoNs()), shortId(r.modelOnly()), percent(r.modelOnlyRegret())));
        }
        sb.append(String.format(Locale.ROOT, "%nWithin %.0f%%: %d of %d buckets; worst regret %s.%n", target * 100, within,
                rows.size(), percent(worst)));
        // The auto samples run the very algorithm of "its time", in the same rounds: how far the two differ is how
        // far this machine's noise alone moves a point, the floor under any regret it can show.
        List<Double> twins = new ArrayList<>();
        for (Row r : rows) {
            if (!Double.isNaN(r.chosenNs())) {
                twins.add(Math.abs(r.autoNs() / r.chosenNs() - 1));
            }
        }
        twins.sort(null);
        if (!twins.isEmpty()) {
            long close = twins.stream().filter(d -> d <= target).count();
            sb.append(String.format(Locale.ROOT, "Noise floor: the auto samples and the same algorithm forced, timed in the"
                    + " same rounds, differ by %s (median over buckets); within %.0f%% of each other in %d of %d.%n",
                    percent(twins.get((twins.size() - 1) / 2)).replace("+", ""), target * 100, close, twins.size()));
        }
        return sb.toString();
    }

    public static String simulatedMarkdown(List<Comparison> rows, double target) {
        StringBuilder sb = new StringBuilder();
        sb.append("| collective | size | algorithm | measured | simulated | error |\n");
        sb.append("|---|---:|---|---:|---:|---:|\n");
        int within = 0;
        List<Double> errors = new ArrayList<>();
        for (Comparison c : rows) {
            boolean ok = Math.abs(c.error()) <= target;
            within += ok ? 1 : 0;
            errors.add(Math.abs(c.error()));
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s%s |%n", c.collective().id(), size(c.size()),
                    shortId(c.algorithm()), Explanation.formatNs(c.measuredNs()), Explanation.formatNs(c.predictedNs()),
                    percent(c.error()), ok ? "" : " **over**"));
        }
        errors.sort(null);
        sb.append(String.format(Locale.ROOT, "%nWithin %.0f%%: %d of %d points; median |error| %s.%n", target * 100, within,
                rows.size(), errors.isEmpty() ? "-" : percent(errors.get((errors.size() - 1) / 2))));
        return sb.toString();
    }

    private static String shortId(String id) {
        int dot = id.indexOf('.');
        return dot < 0 ? id : id.substring(dot + 1);
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%+.0f%%", v * 100);
    }

    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return bytes / (1 << 10) + " KiB";
        }
        return bytes + " B";
    }
}
