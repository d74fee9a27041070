package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.node.NodeBroadcast;
import io.railcoll.algorithm.node.NodeGather;
import io.railcoll.algorithm.node.NodeOrder;
import io.railcoll.algorithm.node.NodeUnits;
import io.railcoll.algorithm.node.PackedBlocks;
import io.railcoll.algorithm.node.PhasedProgramBuilder;
import io.railcoll.algorithm.node.Region;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;
import io.railcoll.topology.Placement;

/**
 * SMP-aware Gather and Broadcast all-gather (paper 000 section 5.2.1, paper 001 section 6.2.1): an SMP-aware
 * gather of every block to one rank, then a broadcast of the whole result.
 * <ol>
 *   <li>node gather ({@link NodeGather}, shared memory): every rank puts its block to its node's master (its
 *       lowest rank);</li>
 *   <li>inter-node Direct gather (rails): every other master puts its node's blocks, as one message, straight
 *       into their final place in the root master's RECV (the root is rank 0's node's master, rank 0); the root
 *       takes k at a time, so {@code ceil((M-1)/k)} steps;</li>
 *   <li>broadcast: the whole N-block RECV goes down the k-nomial tree of node masters (rails; the paper uses the
 *       hardware broadcast of QsNet II, which TCP rails do not have), then from each master to its ranks (shared
 *       memory), masters first so the tree is not held up.</li>
 * </ol>
 * Of the paper's two choices for phase 2 (tree or Direct) this is Direct, the one it evaluates: with whole nodes
 * per message there are few masters, and Direct lands every node in its final place with no combining copies.
 *
 * <p>Bytes: over the rails every master but the root sends {@code L_n b} and receives {@code N b} once; the root
 * receives {@code (N - L_0) b} and every master sends {@code N b} per tree child. Over shared memory a master
 * receives {@code (L-1) b} and sends {@code (L-1) N b}; every other rank sends b and receives {@code N b} (its own
 * block included). For M nodes of L ranks, in the program-order k-port model: {@code ceil((L-1)/k)} steps of b
 * for the node gather, {@code ceil((M-1)/k)} of {@code L b} for the inter-node gather, {@code ceil(log_{k+1} M)}
 * tree levels and {@code ceil((L-1)/k)} node-broadcast steps of {@code N b}:
 * {@code T = (2 ceil((L-1)/k) + ceil((M-1)/k) + ceil(log_{k+1} M)) ts + (ceil((L-1)/k) + ceil((M-1)/k) L
 * + (ceil(log_{k+1} M) + ceil((L-1)/k)) N) b tau}; other placements are costed from the same design as a
 * {@link Traffic}. Best for the shortest messages: few, combined
 * network messages. Any placement, k and b; with one node it is a node gather and broadcast, with one rank per
 * node a Direct gather and a k-nomial broadcast.
 */
public final class SmpGatherBroadcastAllgather extends NodeAwareAllgather implements OwnBlockInPlace {
    public static final String ID = "allgather.smp-gather-bcast";
    /** Phases 1 and 2 alone: every block lands in rank 0's RECV only (not in the catalog: not an all-gather). */
    public static final String GATHER_TO_ROOT_ID = "allgather.smp-gather-to-root";

    private static final int TAG_GATHER = 1;
    private static final int TAG_NETWORK = 2;
    private static final int TAG_BROADCAST = 3;

    private final boolean broadcast;

    public SmpGatherBroadcastAllgather() {
        this(ID, true);
    }

    private SmpGatherBroadcastAllgather(String id, boolean broadcast) {
        super(id, "node gather (shm)", "inter-node Direct gather", broadcast ? "broadcast (masters, then shm)" : "none");
        this.broadcast = broadcast;
    }

    /**
     * The SMP-aware gather alone (phases 1 and 2): afterwards rank 0's RECV holds every block and no other rank's
     * RECV is written. Run by the engine before a transport broadcasts the result ({@code allgather.smp-gather-mcast});
     * not an all-gather, so not in the catalog.
     */
    public static SmpGatherBroadcastAllgather gatherToRoot() {
        return new SmpGatherBroadcastAllgather(GATHER_TO_ROOT_ID, false);
    }

    @Override
    void build(Shape shape, int rank, PhasedProgramBuilder p) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        long all = shape.size() * b;
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        int node = placement.nodeOf(rank);
        int master = units.master(node);
        if (rank != master) {
            NodeGather.member(p.phase(GATHER), master, b, TAG_GATHER);
            if (broadcast) {
                p.phase(BROADCAST).recv(master, TAG_BROADCAST, Buffer.RECV, 0, all);
            }
            return;
        }
        KnomialTree tree = new KnomialTree(nodes, shape.ports(), placement.nodeOf(0));
        PackedBlocks own = units.unit(node);
        Region ownRegion = p.stage(own, b);
        NodeGather.master(p.phase(GATHER), own, ownRegion, b, TAG_GATHER);
        int v = tree.relative(node);
        p.phase(NETWORK);
        if (v != 0) {
            p.putBlocks(units.master(tree.rank(0)), ownRegion, own, b, TAG_NETWORK);
            if (!broadcast) {
                return;
            }
            // The whole result comes back, this node's blocks included, so nothing staged needs copying out.
            p.phase(BROADCAST).recv(units.master(tree.rank(tree.parent(v))), TAG_BROADCAST, Buffer.RECV, 0, all);
        } else {
            p.unpack(ownRegion, own, b);
            for (int d = 1; d < nodes; d++) {
                p.recvInPlace(units.master(tree.rank(d)), TAG_NETWORK, units.unit(tree.rank(d)), b);
            }
        }
        if (!broadcast) {
            return;
        }
        p.phase(BROADCAST);
        for (int child : tree.childrenTopDown(v)) {
            p.put(units.master(tree.rank(child)), Buffer.RECV, 0, all, TAG_BROADCAST);
        }
        for (int local : NodeOrder.peersAfter(placement, rank)) {
            p.put(local, Buffer.RECV, 0, all, TAG_BROADCAST);
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        long all = shape.size() * b;
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        KnomialTree tree = new KnomialTree(nodes, shape.ports(), placement.nodeOf(0));
        Traffic traffic = new Traffic(shape.size());
        for (int rank = 0; rank < shape.size(); rank++) {
            int node = placement.nodeOf(rank);
            int master = units.master(node);
            PackedBlocks own = units.unit(node);
            NodeGather.traffic(traffic, rank, master, own, b, TAG_GATHER);
            if (rank != master) {
                if (broadcast) {
                    traffic.receive(rank, master, TAG_BROADCAST);
                }
                continue;
            }
            int v = tree.relative(node);
            if (v != 0) {
                traffic.send(rank, units.master(tree.rank(0)), TAG_NETWORK, own.bytes(b));
                if (broadcast) {
                    traffic.receive(rank, units.master(tree.rank(tree.parent(v))), TAG_BROADCAST);
                }
            } else {
                for (int d = 1; d < nodes; d++) {
                    traffic.receive(rank, units.master(tree.rank(d)), TAG_NETWORK);
                }
            }
            if (!broadcast) {
                continue;
            }
            for (int child : tree.childrenTopDown(v)) {
                traffic.send(rank, units.master(tree.rank(child)), TAG_BROADCAST, all);
            }
            NodeBroadcast.traffic(traffic, rank, NodeOrder.peersAfter(placement, rank), TAG_BROADCAST, all);
        }
        return traffic.cost(placement, shape.ports(), "M nodes x L ranks, g = ceil((L-1)/k), D = ceil(log_{k+1} M): "
                + "(2g + ceil((M-1)/k) + D)*ts + (g + ceil((M-1)/k)*L + (D + g)*N)*b*tau  [paper 000 sec. 5.2.1]");
    }

    @Override
    public String summary() {
        return "SMP-aware Gather and Broadcast: node gather (shm), Direct gather of whole nodes to rank 0, "
                + "k-nomial broadcast of N*b among masters, node broadcast (shm); any placement; "
                + "paper 000 sec. 5.2.1, paper 001 sec. 6.2.1";
    }
}
