package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.EvenSplit;
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
 * SMP-aware all-reduce with g leaders per node: paper 002's multi-connection idea carried over to reduction. The
 * vector is cut into g slices at element boundaries, and local rank i of every node leads slice i:
 * <ol>
 *   <li>node reduce-scatter (shared memory): every rank puts slice i of its vector to its node's leader i, which
 *       combines the node's contributions in local rank order;</li>
 *   <li>across nodes (rails): the leaders of slice i, one per node in node order, run the recursive doubling
 *       all-reduce ({@link RecursiveDoublingAllreduce#appendAmong}) on it, so g pairs of leaders per node pair
 *       carry the inter-node phase at once, over g connections;</li>
 *   <li>node all-gather (shared memory): leader i puts the finished slice i into the RECV of every other rank of
 *       its node.</li>
 * </ol>
 * With one leader ({@code allreduce.smp}) this is the classic hierarchical all-reduce: node reduce, all-reduce among
 * node masters, node broadcast. {@code allreduce.multi-leader} makes every rank a leader (g = the fewest ranks on
 * any node, so every node has the same leaders), the hierarchical reduce-scatter of NCCL's and Horovod's
 * hierarchical all-reduce. {@code allreduce.multi-leader-rabenseifner} has the same leaders run Rabenseifner's
 * all-reduce ({@link RabenseifnerAllreduce#appendAmong}) instead of recursive doubling in phase 2: {@code 2 log2 M}
 * start-ups instead of {@code log2 M}, but each node's rails carry {@code 2 (M-1)/M b} rather than
 * {@code log2 M b} (decision 0113), the large-vector form. {@code allreduce.multi-leader-direct} moves the same bytes
 * in 2 steps: each leader puts part j of its slice to the leader of node j at once, combines its part, and puts it
 * to every other leader ({@link DirectAmong}, decision 0176).
 *
 * <p>Identical bits: each slice is combined inside a node by one leader, then across nodes by recursive doubling,
 * in which both partners compute {@code lower op higher}, and is afterwards only copied; every rank ends with the
 * same bits. The order is node-major, not rank order, so a non-commutative operator is refused.
 *
 * <p>For M nodes of L ranks: a rank sends {@code (g-1)/g b} and receives {@code (L-1)/g b} inside its node in
 * phase 1, the leaders move {@code (floor(log2 M) + 2[M != 2^k]) b/g} each over the rails, and phase 3 mirrors
 * phase 1; {@code T ~ 2 (L-1) (ts + b/g tau) + log2 M (ts + b/g tau) + (L-1+log2 M) b/g gamma} with one port (the
 * cost model prices the programs themselves as a {@link Traffic}). Any placement and N; commutative operators.
 */
public final class SmpAllreduce extends AlgorithmBase {
    public static final String ONE_LEADER_ID = "allreduce.smp";
    public static final String MULTI_LEADER_ID = "allreduce.multi-leader";
    public static final String MULTI_LEADER_RABENSEIFNER_ID = "allreduce.multi-leader-rabenseifner";
    public static final String MULTI_LEADER_DIRECT_ID = "allreduce.multi-leader-direct";
    private static final int TAG_NODE_REDUCE = 0;
    private static final int TAG_NETWORK = 1;

    /** Leaders per node: a fixed count, or 0 for as many as the smallest node has ranks. */
    private final int fixedLeaders;
    /** What the leaders of a slice run across nodes. */
    private enum Among { RECURSIVE_DOUBLING, RABENSEIFNER, DIRECT }

    private final Among among;

    private SmpAllreduce(String id, int fixedLeaders, Among among) {
        super(id, Collective.ALLREDUCE);
        this.fixedLeaders = fixedLeaders;
        this.among = among;
    }

    /** One leader per node: node reduce, recursive doubling among node masters, node broadcast. */
    public static SmpAllreduce oneLeader() {
        return new SmpAllreduce(ONE_LEADER_ID, 1, Among.RECURSIVE_DOUBLING);
    }

    /** Every rank a leader of one slice (g = the fewest ranks on any node). */
    public static SmpAllreduce everyRankLeads() {
        return new SmpAllreduce(MULTI_LEADER_ID, 0, Among.RECURSIVE_DOUBLING);
    }

    /**
     * Every rank a leader of one slice, the leaders of a slice running Rabenseifner's all-reduce across nodes
     * (decision 0113): each node's rails carry {@code 2 (M-1)/M b} instead of {@code log2 M b}, for large vectors.
     */
    public static SmpAllreduce everyRankLeadsRabenseifner() {
        return new SmpAllreduce(MULTI_LEADER_RABENSEIFNER_ID, 0, Among.RABENSEIFNER);
    }

    /**
     * Every rank a leader of one slice, the leaders of a slice running a direct reduce-scatter and all-gather across
     * nodes ({@link DirectAmong}, decision 0176): the bytes of the Rabenseifner form, {@code 2 (M-1)/M b} per node,
     * in 2 steps instead of {@code 2 log2 M}.
     */
    public static SmpAllreduce everyRankLeadsDirect() {
        return new SmpAllreduce(MULTI_LEADER_DIRECT_ID, 0, Among.DIRECT);
    }

    /** Leaders per node for {@code placement}: never more than the smallest node has ranks. */
    int leaders(Placement placement) {
        int fewest = placement.fewestRanksOnANode();
        return fixedLeaders > 0 ? Math.min(fixedLeaders, fewest) : fewest;
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        if (!shape.commutative() && shape.size() > 1) {
            return Optional.of("it combines each node's contributions first, in node-major order, not in rank order, "
                    + "which a non-commutative operator needs");
        }
        return Optional.empty();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        Placement placement = shape.placement();
        int g = leaders(placement);
        int node = placement.nodeOf(rank);
        int local = placement.localRankOf(rank);
        int[] nodeRanks = placement.ranksOf(node);
        int nodes = placement.nodeCount();
        int tagGather = TAG_NETWORK + switch (among) {
            case RECURSIVE_DOUBLING -> RecursiveDoublingAllreduce.tagsAmong(nodes);
            case RABENSEIFNER -> RabenseifnerAllreduce.tagsAmong(nodes);
            case DIRECT -> DirectAmong.tags(nodes);
        };
        ProgramBuilder p = new ProgramBuilder(rank);
        // Phase 1: slice i of my vector to leader i (my own slice stays for the combining below).
        for (int i = 0; i < g; i++) {
            if (i != local) {
                p.put(nodeRanks[i], Buffer.SEND, sliceOffset(shape, g, i), sliceLength(shape, g, i), TAG_NODE_REDUCE);
            }
        }
        if (local < g) {
            long len = sliceLength(shape, g, local);
            long off = sliceOffset(shape, g, local);
            long partial = combineNode(p, nodeRanks, local, off, len);
            // Phase 2: my slice across the nodes, with leader `local` of every node, into RECV.
            int[] peers = new int[nodes];
            for (int m = 0; m < nodes; m++) {
                peers[m] = placement.rankAt(m, local);
            }
            switch (among) {
                case RECURSIVE_DOUBLING ->
                        RecursiveDoublingAllreduce.appendAmong(p, peers, node, Buffer.TEMP, partial, off, len, TAG_NETWORK);
                case RABENSEIFNER -> RabenseifnerAllreduce.appendAmong(p, peers, node, Buffer.TEMP, partial, off,
                        len / shape.elementBytes(), shape.elementBytes(), TAG_NETWORK);
                case DIRECT -> DirectAmong.append(p, peers, node, Buffer.TEMP, partial, off,
                        len / shape.elementBytes(), shape.elementBytes(), TAG_NETWORK);
            }
            // Phase 3: the finished slice to every other rank of the node.
            for (int j = 0; j < nodeRanks.length; j++) {
                if (j != local) {
                    p.put(nodeRanks[j], Buffer.RECV, off, len, tagGather);
                }
            }
        }
        for (int i = 0; i < g; i++) {
            if (i != local) {
                p.recv(nodeRanks[i], tagGather, Buffer.RECV, sliceOffset(shape, g, i), sliceLength(shape, g, i));
            }
        }
        return p.build();
    }

    /**
     * Leader {@code local}'s node reduction of its slice: receives the slice of every other rank of the node and
     * combines {@code c0 op (c1 op (... op cL-1))} in local rank order into a TEMP range it returns, which nothing
     * writes afterwards (it is the source of the leader's first put across nodes). The last rank's slice arrives
     * straight in that range; the leader's own is copied there only when it is the last.
     */
    private static long combineNode(ProgramBuilder p, int[] nodeRanks, int local, long off, long len) {
        int l = nodeRanks.length;
        long acc = p.allocateTemp(len);
        long[] received = new long[l];
        for (int j = 0; j < l; j++) {
            if (j != local) {
                received[j] = j == l - 1 ? acc : p.allocateTemp(len);
                p.recv(nodeRanks[j], TAG_NODE_REDUCE, Buffer.TEMP, received[j], len);
            }
        }
        if (local == l - 1) {
            p.copy(Buffer.SEND, off, Buffer.TEMP, acc, len);
        }
        for (int j = l - 2; j >= 0; j--) {
            if (j == local) {
                p.reduce(Buffer.SEND, off, Buffer.TEMP, acc, len);
            } else {
                p.reduce(Buffer.TEMP, received[j], Buffer.TEMP, acc, len);
            }
        }
        return acc;
    }

    /**
     * Byte offset of slice {@code i} of {@code g} of a reduction's vector, cut between elements: {@code elements/g}
     * elements each, the first {@code elements%g} one more. Shared with the ring all-reduce's N parts.
     */
    static long sliceOffset(Shape shape, int g, int i) {
        return EvenSplit.first(shape.elements(), g, i) * shape.elementBytes();
    }

    /** Byte length of slice {@code i} of {@code g} (see {@link #sliceOffset}). */
    static long sliceLength(Shape shape, int g, int i) {
        return EvenSplit.count(shape.elements(), g, i) * shape.elementBytes();
    }

    /** The programs themselves as {@link Traffic}: three phases whose shape depends on the placement's nodes. */
    @Override
    public CostTerms cost(Shape shape) {
        return measuredCost(shape, switch (among) {
            case RABENSEIFNER ->
                    "2 (L-1) (ts + b/g tau) + 2 log2 M ts + 2 (M-1)/M b/g tau + (L-1 + (M-1)/M) b/g gamma, one port";
            case DIRECT -> "2 (L-1) (ts + b/g tau) + 2 (M-1) ts + 2 (M-1)/M b/g tau + (L-1 + (M-1)/M) b/g gamma,"
                    + " one port";
            case RECURSIVE_DOUBLING ->
                    "2 (L-1) (ts + b/g tau) + log2 M (ts + b/g tau) + (L-1 + log2 M) b/g gamma, one port";
        });
    }

    @Override
    public String summary() {
        return (fixedLeaders == 1 ? "node reduce (shm), recursive doubling among node masters, node broadcast"
                : "every rank leads 1/L of the vector: node reduce-scatter (shm), "
                + switch (among) {
                    case RABENSEIFNER -> "Rabenseifner's all-reduce";
                    case DIRECT -> "a direct reduce-scatter and all-gather (2 steps)";
                    case RECURSIVE_DOUBLING -> "recursive doubling";
                } + " among "
                + "same-index leaders across nodes, node all-gather")
                + "; commutative operators; any placement; paper 002's multi-connection idea for reduction";
    }
}
