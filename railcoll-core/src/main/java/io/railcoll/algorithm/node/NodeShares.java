package io.railcoll.algorithm.node;

import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;

/**
 * How the ranks of each node split into groups for the multi-group algorithms of paper 002 section 5.3: node n
 * has {@code g_n = min(g, L_n)} shares (L_n its ranks), share h holding local ranks
 * {@code [floor(h L_n / g_n), floor((h+1) L_n / g_n))}, so shares differ by at most one rank when g does not divide
 * L_n; the share's first rank is its master. With g = 1 a node is one share whose master is the node master.
 *
 * <p>What the paper leaves open is settled here: a node with fewer ranks than g has {@code L_n} one-rank shares,
 * and the master of share h on node n receives, from every other node, the shares h' with
 * {@code h' mod g_n == h}; so every share reaches exactly one master per node and the masters' images partition
 * all blocks. Nodes need not be contiguous in rank numbers. Immutable.
 */
public final class NodeShares {
    private final Placement placement;
    private final int groups;
    private final PackedBlocks[][] shares;
    private final int[] shareOfRank;

    public NodeShares(Placement placement, int groups) {
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be >= 1, got " + groups);
        }
        this.placement = placement;
        this.groups = groups;
        int nodes = placement.nodeCount();
        shares = new PackedBlocks[nodes][];
        shareOfRank = new int[placement.size()];
        for (int n = 0; n < nodes; n++) {
            int[] ranks = placement.ranksOf(n);
            int count = Math.min(groups, ranks.length);
            shares[n] = new PackedBlocks[count];
            for (int h = 0; h < count; h++) {
                int from = (int) ((long) h * ranks.length / count);
                int to = (int) ((long) (h + 1) * ranks.length / count);
                int[] share = new int[to - from];
                System.arraycopy(ranks, from, share, 0, share.length);
                for (int r : share) {
                    shareOfRank[r] = h;
                }
                shares[n][h] = PackedBlocks.of(share);
            }
        }
    }

    public Placement placement() {
        return placement;
    }

    /** The g asked for; a node may have fewer shares ({@link #sharesOn}). */
    public int groups() {
        return groups;
    }

    public int sharesOn(int node) {
        return shares[node].length;
    }

    public PackedBlocks share(int node, int h) {
        return shares[node][h];
    }

    public int master(int node, int h) {
        return shares[node][h].rank(0);
    }

    /** The share {@code rank} belongs to on its node. */
    public int shareOf(int rank) {
        return shareOfRank[rank];
    }

    /** The master on {@code toNode} that receives share h of another node. */
    public int receiverOf(int h, int toNode) {
        return master(toNode, h % shares[toNode].length);
    }

    /** True when share {@code fromShare} of {@code fromNode} goes to the master of share {@code toShare} on {@code toNode}. */
    public boolean delivers(int fromNode, int fromShare, int toNode, int toShare) {
        return fromNode != toNode && fromShare % shares[toNode].length == toShare;
    }

    /**
     * What the master of share h on {@code node} holds after the inter-node phase, packed node by node (ascending)
     * and share by share: its own share and every share delivered to it. With contiguous nodes and g = 1 this is
     * every block in rank order, i.e. all of RECV.
     */
    public PackedBlocks image(int node, int h) {
        List<PackedBlocks> parts = new ArrayList<>();
        for (int j = 0; j < shares.length; j++) {
            for (int s = 0; s < shares[j].length; s++) {
                if (j == node ? s == h : delivers(j, s, node, h)) {
                    parts.add(shares[j][s]);
                }
            }
        }
        return PackedBlocks.concat(parts);
    }

    /** Where share s of {@code fromNode} sits, in blocks, inside {@link #image} of (node, h). */
    public int imageIndex(int node, int h, int fromNode, int s) {
        int index = 0;
        for (int j = 0; j < shares.length; j++) {
            for (int t = 0; t < shares[j].length; t++) {
                if (j == fromNode && t == s) {
                    return index;
                }
                if (j == node ? t == h : delivers(j, t, node, h)) {
                    index += shares[j][t].count();
                }
            }
        }
        throw new IllegalArgumentException("share " + s + " of node " + fromNode + " is not in the image of share " + h
                + " of node " + node);
    }
}
