package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What one line of a plot stands for: a collective run by one algorithm (or a peer library) on one
 * placement, rail count and engine. Every {@link BenchResult} belongs to exactly one series.
 *
 * @param collective   the collective measured
 * @param algorithm    a railcoll algorithm id ({@code allgather.bruck}) or a peer name ({@code openmpi})
 * @param nodes        emulated nodes
 * @param ranksPerNode ranks per node as a number ({@code 4}) or, for uneven placements, a list ({@code 3,4,2})
 * @param rails        network rails between nodes
 * @param engine       the engine (or, for a peer, the launcher) that ran it; free text shown in labels
 */
public record Series(Collective collective, String algorithm, int nodes, String ranksPerNode, int rails, String engine) {
    private static final Pattern RANKS_PER_NODE = Pattern.compile("[1-9][0-9]*(,[1-9][0-9]*)*");

    public Series {
        Objects.requireNonNull(collective, "collective");
        requireText(algorithm, "algorithm");
        requireText(ranksPerNode, "ranksPerNode");
        requireText(engine, "engine");
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
        }
        if (rails < 0) {
            throw new IllegalArgumentException("rails must be >= 0, got " + rails);
        }
        if (!RANKS_PER_NODE.matcher(ranksPerNode).matches()
                || (ranksPerNode.contains(",") && ranksPerNode.split(",").length != nodes)) {
            throw new IllegalArgumentException("ranksPerNode must be a number or one number per node (" + nodes
                    + " nodes), got '" + ranksPerNode + "'");
        }
    }

    /** A series whose node count and ranks-per-node text come from {@code placement}. */
    public static Series of(Collective collective, String algorithm, Placement placement, int rails, String engine) {
        return new Series(collective, algorithm, placement.nodeCount(), ranksPerNodeOf(placement), rails, engine);
    }

    /** {@code 4} for a uniform placement, {@code 3,4,2} otherwise: the CSV's ranks_per_node column. */
    public static String ranksPerNodeOf(Placement placement) {
        return placement.isUniform() ? Integer.toString(placement.ranksOnNode(0)) : placement.describe();
    }

    /** Total ranks, from {@link #ranksPerNode} (a single number applies to every node). */
    public int ranks() {
        if (!ranksPerNode.contains(",")) {
            return nodes * Integer.parseInt(ranksPerNode);
        }
        int total = 0;
        for (String part : ranksPerNode.split(",")) {
            total += Integer.parseInt(part);
        }
        return total;
    }

    /** Human text for the placement: {@code 4 nodes x 4 ranks} or {@code 3 nodes (3,4,2 ranks)}. */
    public String placementLabel() {
        String nodeWord = nodes == 1 ? "node" : "nodes";
        if (ranksPerNode.contains(",")) {
            return nodes + " " + nodeWord + " (" + ranksPerNode + " ranks)";
        }
        return nodes + " " + nodeWord + " x " + ranksPerNode + (ranksPerNode.equals("1") ? " rank" : " ranks");
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
