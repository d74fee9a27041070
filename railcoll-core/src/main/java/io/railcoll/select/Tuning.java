package io.railcoll.select;

import io.railcoll.sim.CostModel;
import io.railcoll.schedule.Collective;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The contents of a tuning file: the cost model, the rules in the order they are tried, and free-text facts about
 * where it was measured. Read and written by {@link TuningFile}. Immutable.
 *
 * @param measured {@code measured.*} entries without the prefix (placement, rails, network, date, command, ...);
 *                 informative only
 * @param source   where it came from, for explanations: a path or {@code built-in}
 */
public record Tuning(CostModel model, List<Rule> rules, Map<String, String> measured, String source) {
    public Tuning {
        Objects.requireNonNull(model, "model");
        rules = List.copyOf(rules);
        measured = Collections.unmodifiableMap(new LinkedHashMap<>(measured));
        Objects.requireNonNull(source, "source");
    }

    /** The rules for one collective, in the order they are tried. */
    public List<Rule> rulesFor(Collective collective) {
        List<Rule> out = new ArrayList<>();
        for (Rule r : rules) {
            if (r.collective() == collective) {
                out.add(r);
            }
        }
        return out;
    }

    public Tuning withRules(List<Rule> newRules) {
        return new Tuning(model, newRules, measured, source);
    }

    public Tuning withModel(CostModel newModel) {
        return new Tuning(newModel, rules, measured, source);
    }
}
