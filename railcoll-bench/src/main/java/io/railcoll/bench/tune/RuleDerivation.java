package io.railcoll.bench.tune;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.select.Range;
import io.railcoll.select.Rule;
import io.railcoll.select.Tuning;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rules from a sweep: where the algorithm the model would choose measured slower than the sweep's fastest by more
 * than {@code margin}, a rule sends that size range of this placement to the fastest. Elsewhere the model's choice
 * stands, so rules record only what the model measurably gets wrong, and a near tie (within the margin, which is
 * about the noise of a shared machine) does not flip the choice on one run's luck. A size's range runs up to the
 * next measured size; the first starts at 0 and the last is open. Neighbouring ranges with the same algorithm merge.
 * Stateless.
 */
public final class RuleDerivation {
    private RuleDerivation() {
    }

    public static List<Rule> derive(SweepResults sweep, SweepResults.Statistic statistic, Tuning model,
                                    Placement placement, int ports, double margin, String origin) {
        AlgorithmSelector byModel = new AlgorithmSelector(Map.of(), model.withRules(List.of()));
        Range nodes = Range.exactly(placement.nodeCount());
        int minPerNode = Integer.MAX_VALUE;
        int maxPerNode = 0;
        for (int n = 0; n < placement.nodeCount(); n++) {
            minPerNode = Math.min(minPerNode, placement.ranksOnNode(n));
            maxPerNode = Math.max(maxPerNode, placement.ranksOnNode(n));
        }
        Range perNode = new Range(minPerNode, maxPerNode);
        List<Rule> rules = new ArrayList<>();
        for (Collective c : sweep.collectives()) {
            List<Long> sizes = sweep.sizes(c);
            String pending = null;
            long pendingFrom = 0;
            int order = 10;
            for (int i = 0; i < sizes.size(); i++) {
                long size = sizes.get(i);
                String chosen = byModel.select(new Shape(c, placement, ports, size, 0)).id();
                String fastest = sweep.fastest(statistic, c, size);
                boolean measured = sweep.algorithms(c, size).contains(chosen);
                String wanted = measured && sweep.ns(statistic, c, size, chosen)
                        > (1 + margin) * sweep.ns(statistic, c, size, fastest) ? fastest : null;
                long from = i == 0 ? 0 : size;
                if (pending != null && !pending.equals(wanted)) {
                    rules.add(rule(c, order, pendingFrom, from - 1, nodes, perNode, ports, pending, origin));
                    order += 10;
                    pending = null;
                }
                if (wanted != null && pending == null) {
                    pending = wanted;
                    pendingFrom = from;
                }
            }
            if (pending != null) {
                rules.add(rule(c, order, pendingFrom, Long.MAX_VALUE, nodes, perNode, ports, pending, origin));
            }
        }
        return rules;
    }

    private static Rule rule(Collective c, int order, long from, long to, Range nodes, Range perNode, int ports,
                             String algorithm, String origin) {
        return new Rule("rule." + c.id() + "." + order, c, new Range(from, to), Range.ANY, nodes, perNode,
                Range.exactly(ports), algorithm, origin);
    }
}
