package io.railcoll.algorithm.scan;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;
import io.railcoll.topology.Placement;

import java.util.Optional;

/**
 * SMP-aware inclusive scan ({@code scan.smp}) for placements whose nodes hold consecutive ranks, in node order (what
 * launchers do by default):
 * <ol>
 *   <li>node scan (shared memory): the ranks of each node run the recursive doubling scan among themselves, so
 *       rank r holds the prefix {@code P} of its node's ranks up to r, and the node's last rank its total;</li>
 *   <li>across nodes (rails): the last ranks of the nodes run the recursive doubling <em>exclusive</em> scan on
 *       the node totals, so node m's last rank gets {@code E = T0 op ... op T(m-1)};</li>
 *   <li>node step (shared memory): node m's last rank puts E to the other ranks of its node; every rank of a node
 *       but the first combines {@code E op P}.</li>
 * </ol>
 * Only one rank per node crosses the rails, in {@code ceil(log2 M)} steps of b, where the flat recursive doubling
 * crosses them in every step whose partner is on another node.
 *
 * <p>Rank order holds: a node's ranks are consecutive, so {@code E op P} is the combination of ranks 0..r in order;
 * any operator runs it. A placement whose nodes do not hold consecutive ranks is refused (the prefix of rank r would
 * not be whole nodes and a prefix of one). Steps {@code 2 ceil(log2 L) + ceil(log2 M) + 1} for nodes of L ranks.
 */
public final class SmpScan extends AlgorithmBase {
    public static final String ID = "scan.smp";
    private static final int TAG_NODE = 0;

    public SmpScan() {
        super(ID, Collective.SCAN);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        Placement placement = shape.placement();
        for (int r = 1; r < placement.size(); r++) {
            int step = placement.nodeOf(r) - placement.nodeOf(r - 1);
            if (step != 0 && step != 1) {
                return Optional.of("its nodes must hold consecutive ranks in node order (rank " + r + " is on node "
                        + placement.nodeOf(r) + ", rank " + (r - 1) + " on node " + placement.nodeOf(r - 1) + ")");
            }
        }
        return Optional.empty();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        int node = placement.nodeOf(rank);
        int local = placement.localRankOf(rank);
        int[] nodeRanks = placement.ranksOf(node);
        int nodes = placement.nodeCount();
        int tagNetwork = TAG_NODE + RecursiveDoublingScan.tagsAmong(placement.maxRanksPerNode());
        int tagBroadcast = tagNetwork + RecursiveDoublingScan.tagsAmong(nodes);
        ProgramBuilder p = new ProgramBuilder(rank);
        RecursiveDoublingScan.appendAmong(p, nodeRanks, local, false, Buffer.SEND, 0, Buffer.RECV, 0, b, TAG_NODE);
        if (nodes == 1) {
            return p.build();
        }
        int last = nodeRanks.length - 1;
        if (local == last) {
            // The node total is RECV, which E is combined into below: the puts across nodes send a copy.
            long total = p.allocateTemp(b);
            p.copy(Buffer.RECV, 0, Buffer.TEMP, total, b);
            int[] lastRanks = new int[nodes];
            for (int m = 0; m < nodes; m++) {
                int[] ranks = placement.ranksOf(m);
                lastRanks[m] = ranks[ranks.length - 1];
            }
            long before = p.allocateTemp(b);
            RecursiveDoublingScan.appendAmong(p, lastRanks, node, true, Buffer.TEMP, total, Buffer.TEMP, before, b,
                    tagNetwork);
            if (node > 0) {
                for (int j = 0; j < last; j++) {
                    p.put(nodeRanks[j], Buffer.TEMP, before, b, tagBroadcast);
                }
                p.reduce(Buffer.TEMP, before, Buffer.RECV, 0, b);
            }
        } else if (node > 0) {
            long before = p.allocateTemp(b);
            p.recv(nodeRanks[last], tagBroadcast, Buffer.TEMP, before, b);
            p.reduce(Buffer.TEMP, before, Buffer.RECV, 0, b);
        }
        return p.build();
    }

    /** The programs themselves as {@link Traffic}. */
    @Override
    public CostTerms cost(Shape shape) {
        return measuredCost(shape,
                "(2 ceil(log2 L) + ceil(log2 M) + 1) (ts + b*tau), one port");
    }

    @Override
    public String summary() {
        return "node scan (shm), exclusive scan of node totals among the nodes' last ranks, node step; "
                + "rank order; nodes of consecutive ranks";
    }
}
