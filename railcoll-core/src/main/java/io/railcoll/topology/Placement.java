package io.railcoll.topology;

import java.util.Arrays;

/**
 * Which rank runs on which node: the only topology fact the algorithms need.
 *
 * <p>Node ids are dense (0..nodeCount-1) and ranks on a node are listed in increasing rank order;
 * a rank's local rank is its index in that list, so local rank 0 is the node's master. Placements
 * may be uneven (3, 4, 2 ranks on three nodes) and ranks of one node need not be contiguous.
 * Immutable and thread-safe.
 */
public final class Placement {
    private final int[] nodeOfRank;
    private final int[] localRankOf;
    private final int[][] ranksOfNode;
    /** Placements key the engine's program cache on every call, so the hash is computed once. */
    private final int hash;

    private Placement(int[] nodeOfRank) {
        this.nodeOfRank = nodeOfRank.clone();
        this.hash = Arrays.hashCode(this.nodeOfRank);
        int nodes = 0;
        for (int node : nodeOfRank) {
            if (node < 0) {
                throw new IllegalArgumentException("node id must be >= 0, got " + node);
            }
            nodes = Math.max(nodes, node + 1);
        }
        int[] counts = new int[nodes];
        for (int node : nodeOfRank) {
            counts[node]++;
        }
        ranksOfNode = new int[nodes][];
        for (int n = 0; n < nodes; n++) {
            if (counts[n] == 0) {
                throw new IllegalArgumentException("node ids must be dense; node " + n + " has no rank in "
                        + Arrays.toString(nodeOfRank));
            }
            ranksOfNode[n] = new int[counts[n]];
        }
        localRankOf = new int[nodeOfRank.length];
        int[] fill = new int[nodes];
        for (int r = 0; r < nodeOfRank.length; r++) {
            int n = nodeOfRank[r];
            localRankOf[r] = fill[n];
            ranksOfNode[n][fill[n]++] = r;
        }
    }

    /** A placement from each rank's node id; node ids must be dense from 0. */
    public static Placement ofNodeIds(int... nodeOfRank) {
        if (nodeOfRank.length == 0) {
            throw new IllegalArgumentException("a placement needs at least one rank");
        }
        return new Placement(nodeOfRank);
    }

    /** Ranks filled node by node: {@code ofCounts(3,4,2)} puts ranks 0-2 on node 0, 3-6 on node 1, 7-8 on node 2. */
    public static Placement ofCounts(int... ranksPerNode) {
        if (ranksPerNode.length == 0) {
            throw new IllegalArgumentException("a placement needs at least one node");
        }
        int total = 0;
        for (int c : ranksPerNode) {
            if (c <= 0) {
                throw new IllegalArgumentException("every node needs at least one rank: " + Arrays.toString(ranksPerNode));
            }
            total += c;
        }
        int[] nodes = new int[total];
        int r = 0;
        for (int n = 0; n < ranksPerNode.length; n++) {
            for (int i = 0; i < ranksPerNode[n]; i++) {
                nodes[r++] = n;
            }
        }
        return new Placement(nodes);
    }

    /** {@code nodes} nodes with {@code ranksPerNode} ranks each. */
    public static Placement uniform(int nodes, int ranksPerNode) {
        if (nodes < 1) {
            throw new IllegalArgumentException("a placement needs at least one node, got " + nodes + " nodes");
        }
        int[] counts = new int[nodes];
        Arrays.fill(counts, ranksPerNode);
        return ofCounts(counts);
    }

    /** All ranks on one node. */
    public static Placement singleNode(int ranks) {
        return uniform(1, ranks);
    }

    /**
     * Parses {@code "4x4"} (nodes x ranks per node), {@code "3,4,2"} (ranks per node) or {@code "8"} (one node).
     */
    public static Placement parse(String spec) {
        String s = spec.strip();
        try {
            if (s.contains("x")) {
                String[] parts = s.split("x");
                if (parts.length != 2) {
                    throw new IllegalArgumentException("expected NODESxRANKS, got '" + spec + "'");
                }
                return uniform(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
            }
            String[] parts = s.split(",");
            int[] counts = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                counts[i] = Integer.parseInt(parts[i].strip());
            }
            return ofCounts(counts);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad placement '" + spec + "': expected e.g. 4x4 or 3,4,2", e);
        }
    }

    public int size() {
        return nodeOfRank.length;
    }

    public int nodeCount() {
        return ranksOfNode.length;
    }

    public int nodeOf(int rank) {
        return nodeOfRank[rank];
    }

    public int localRankOf(int rank) {
        return localRankOf[rank];
    }

    public int localSizeOf(int rank) {
        return ranksOfNode[nodeOfRank[rank]].length;
    }

    public int ranksOnNode(int node) {
        return ranksOfNode[node].length;
    }

    /** The ranks on the node with the fewest: how many same-index leaders every node can field. */
    public int fewestRanksOnANode() {
        int fewest = Integer.MAX_VALUE;
        for (int[] ranks : ranksOfNode) {
            fewest = Math.min(fewest, ranks.length);
        }
        return fewest;
    }

    /** The {@code localRank}-th rank of {@code node}. */
    public int rankAt(int node, int localRank) {
        return ranksOfNode[node][localRank];
    }

    /** A copy of the ranks on {@code node}, increasing. */
    public int[] ranksOf(int node) {
        return ranksOfNode[node].clone();
    }

    /** The node's master: its lowest rank. */
    public int masterOf(int node) {
        return ranksOfNode[node][0];
    }

    public boolean sameNode(int a, int b) {
        return nodeOfRank[a] == nodeOfRank[b];
    }

    /** Largest number of ranks on any node. */
    public int maxRanksPerNode() {
        int max = 0;
        for (int[] ranks : ranksOfNode) {
            max = Math.max(max, ranks.length);
        }
        return max;
    }

    public boolean isUniform() {
        for (int[] ranks : ranksOfNode) {
            if (ranks.length != ranksOfNode[0].length) {
                return false;
            }
        }
        return true;
    }

    /** Ranks per node as a list, e.g. {@code 3,4,2}; {@code 4x4} when uniform. */
    public String describe() {
        if (isUniform()) {
            return nodeCount() + "x" + ranksOfNode[0].length;
        }
        StringBuilder sb = new StringBuilder();
        for (int n = 0; n < ranksOfNode.length; n++) {
            if (n > 0) {
                sb.append(',');
            }
            sb.append(ranksOfNode[n].length);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Placement p && p.hash == hash && Arrays.equals(nodeOfRank, p.nodeOfRank);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "Placement[" + describe() + "]";
    }
}
