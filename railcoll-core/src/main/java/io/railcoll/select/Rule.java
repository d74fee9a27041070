package io.railcoll.select;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.Objects;

/**
 * A tuning-file rule: for {@code collective}, shapes whose block size, rank count, node count, ranks on every node and
 * ports (k) all lie in the given ranges, in a job whose ranks have processors of their own or share them as
 * {@code processors} says, run {@code algorithmId}. Rules are tried in order; the first that matches, and whose
 * algorithm can run the shape, wins.
 *
 * @param name       the rule's key in its file, e.g. {@code rule.allgather.10}
 * @param processors whether every rank must have a processor of its own, must not, or either (decision 0196)
 * @param origin     where it was read, for errors and explanations, e.g. {@code tuning.properties line 42}
 */
public record Rule(String name, Collective collective, Range sizeBytes, Range ranks, Range nodes, Range ranksPerNode,
                   Range ports, Processors processors, String algorithmId, String origin) {

    /** A rule with no processor condition. */
    public Rule(String name, Collective collective, Range sizeBytes, Range ranks, Range nodes, Range ranksPerNode,
                Range ports, String algorithmId, String origin) {
        this(name, collective, sizeBytes, ranks, nodes, ranksPerNode, ports, Processors.ANY, algorithmId, origin);
    }

    public Rule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(processors, "processors");
        Objects.requireNonNull(algorithmId, "algorithmId");
        Objects.requireNonNull(origin, "origin");
        if (!algorithmId.startsWith(collective.id() + ".")) {
            throw new IllegalArgumentException(name + " is for " + collective.id() + " but names " + algorithmId);
        }
    }

    /**
     * True when every range holds the shape and the processor condition holds for a job where every rank has a
     * processor of its own ({@code ownProcessors}) or not; on an uneven placement every node's rank count must lie in
     * range.
     */
    public boolean matches(Shape shape, boolean ownProcessors) {
        return processors.holds(ownProcessors) && matches(shape);
    }

    /** True when every range holds the shape, whatever the processor condition; see {@link #matches(Shape, boolean)}. */
    boolean matches(Shape shape) {
        Placement p = shape.placement();
        int fewest = Integer.MAX_VALUE;
        int most = 0;
        for (int n = 0; n < p.nodeCount(); n++) {
            fewest = Math.min(fewest, p.ranksOnNode(n));
            most = Math.max(most, p.ranksOnNode(n));
        }
        return matches(shape, fewest, most);
    }

    /** {@link #matches(Shape, boolean)} with the placement's fewest and most ranks on a node already known. */
    boolean matches(Shape shape, boolean ownProcessors, int fewestPerNode, int mostPerNode) {
        return processors.holds(ownProcessors) && matches(shape, fewestPerNode, mostPerNode);
    }

    private boolean matches(Shape shape, int fewestPerNode, int mostPerNode) {
        Placement p = shape.placement();
        return shape.collective() == collective && sizeBytes.contains(shape.blockBytes()) && ranks.contains(p.size())
                && nodes.contains(p.nodeCount()) && ports.contains(shape.ports())
                && ranksPerNode.contains(fewestPerNode) && ranksPerNode.contains(mostPerNode);
    }

    /**
     * The conditions as a tuning file writes them, e.g. {@code size=..256 nodes=4 ranks-per-node=4 processors=own};
     * {@link TuningFile#parse} reads them back to an equal rule.
     */
    public String conditions() {
        StringBuilder sb = new StringBuilder();
        append(sb, "size", sizeBytes);
        append(sb, "ranks", ranks);
        append(sb, "nodes", nodes);
        append(sb, "ranks-per-node", ranksPerNode);
        append(sb, "ports", ports);
        if (processors != Processors.ANY) {
            sb.append(sb.isEmpty() ? "" : " ").append("processors=").append(processors.key());
        }
        return sb.isEmpty() ? "always" : sb.toString();
    }

    private static void append(StringBuilder sb, String key, Range range) {
        if (!range.isAny()) {
            sb.append(sb.isEmpty() ? "" : " ").append(key).append('=').append(range);
        }
    }
}
