package io.railcoll.select;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Picks the algorithm for a shape: a forced id wins (and must support the shape, or the call fails saying why,
 * never falling back silently); otherwise the first size rule that applies; otherwise the first algorithm of the
 * collective in the catalog that supports the shape. Thread-confined to its communicator.
 */
public final class AlgorithmSelector {
    private final Map<Collective, String> forced = new EnumMap<>(Collective.class);
    private final List<SizeRule> rules;

    public AlgorithmSelector(Map<Collective, String> forced, List<SizeRule> rules) {
        for (Map.Entry<Collective, String> e : forced.entrySet()) {
            force(e.getValue());
        }
        this.rules = List.copyOf(rules);
    }

    /** The rules used when nothing is forced: measured on the default emulated cluster (see docs/selection.md). */
    public static List<SizeRule> defaultRules() {
        List<SizeRule> r = new ArrayList<>();
        r.add(new SizeRule(Collective.ALLGATHER, 16 * 1024, "allgather.bruck"));
        r.add(new SizeRule(Collective.ALLGATHER, Long.MAX_VALUE, "allgather.direct"));
        r.add(new SizeRule(Collective.GATHER, 4 * 1024, "gather.binomial"));
        r.add(new SizeRule(Collective.GATHER, Long.MAX_VALUE, "gather.direct"));
        r.add(new SizeRule(Collective.BROADCAST, 256 * 1024, "broadcast.knomial"));
        r.add(new SizeRule(Collective.BROADCAST, Long.MAX_VALUE, "broadcast.scatter-allgather"));
        r.add(new SizeRule(Collective.ALLTOALL, 256, "alltoall.bruck"));
        r.add(new SizeRule(Collective.ALLTOALL, Long.MAX_VALUE, "alltoall.pairwise"));
        r.add(new SizeRule(Collective.BARRIER, Long.MAX_VALUE, "barrier.dissemination"));
        return r;
    }

    /** Forces {@code id} for its collective; unknown ids are rejected at once. */
    public void force(String id) {
        Algorithm a = AlgorithmCatalog.standard().byId(id);
        forced.put(a.collective(), a.id());
    }

    public void clear(Collective collective) {
        forced.remove(collective);
    }

    public Algorithm select(Shape shape) {
        String f = forced.get(shape.collective());
        if (f != null) {
            return AlgorithmCatalog.standard().require(f, shape);
        }
        for (SizeRule rule : rules) {
            if (rule.collective() == shape.collective() && shape.blockBytes() <= rule.maxBlockBytes()) {
                Algorithm a = AlgorithmCatalog.standard().byId(rule.algorithmId());
                if (a.unsupportedReason(shape).isEmpty()) {
                    return a;
                }
            }
        }
        for (Algorithm a : AlgorithmCatalog.standard().forCollective(shape.collective())) {
            if (a.unsupportedReason(shape).isEmpty()) {
                return a;
            }
        }
        throw new IllegalStateException("no " + shape.collective().id() + " algorithm supports " + shape);
    }

    public Optional<String> forced(Collective collective) {
        return Optional.ofNullable(forced.get(collective));
    }
}
