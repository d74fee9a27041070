package io.railcoll.cli;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a {@code --algorithms} list before any rank is started, so a typo costs a one-line message instead of
 * sixteen JVM starts and sixteen stack traces. Names may omit the collective ({@code smp-direct} for
 * {@code allgather.smp-direct}), as the result tables print them.
 */
final class AlgorithmList {
    private AlgorithmList() {
    }

    /**
     * The list with every name made a full catalog id; {@code all} and {@code auto} pass through.
     *
     * @throws IllegalArgumentException naming an unknown algorithm (with the known ones of the collective) or one of
     *                                  another collective
     */
    static String resolve(String spec, Collective collective, Shape shape) {
        return resolve(spec, collective, shape, false);
    }

    /** As {@link #resolve(String, Collective, Shape)}; {@code deterministic}: a reduction must be a deterministic one. */
    static String resolve(String spec, Collective collective, Shape shape, boolean deterministic) {
        AlgorithmCatalog catalog = AlgorithmCatalog.standard();
        List<String> known = new ArrayList<>();
        for (Algorithm a : catalog.forCollective(collective)) {
            known.add(a.id());
        }
        List<String> out = new ArrayList<>();
        for (String raw : spec.split(",")) {
            String name = raw.strip();
            if (name.equals("all") || name.equals("auto")) {
                out.add(name);
                continue;
            }
            String id = name.contains(".") ? name : collective.id() + "." + name;
            if (!known.contains(id)) {
                throw new IllegalArgumentException("unknown " + collective.id() + " algorithm '" + name + "'; known: "
                        + String.join(", ", known));
            }
            // Whether it runs this placement is asked per size of the sweep (io.railcoll.bench.SweepPoints): a
            // restriction may refuse some sizes and not others, so one probe size would judge wrongly either way.
            if (deterministic && collective.reduces() && !catalog.byId(id).deterministic()) {
                throw new IllegalArgumentException(id + " does not combine in a fixed rank order, and --deterministic"
                        + " runs " + collective.id() + " only by " + collective.id() + ".deterministic (decision 0091)");
            }
            out.add(id);
        }
        return String.join(",", out);
    }
}
