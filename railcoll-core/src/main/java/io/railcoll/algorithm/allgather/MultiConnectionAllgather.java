package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.node.NodeBroadcast;
import io.railcoll.algorithm.node.NodeGather;
import io.railcoll.algorithm.node.NodeOrder;
import io.railcoll.algorithm.node.NodeShares;
import io.railcoll.algorithm.node.PackedBlocks;
import io.railcoll.algorithm.node.PhasedProgramBuilder;
import io.railcoll.algorithm.node.Region;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.ResourceTable;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;

/**
 * Multi-connection aware all-gather with g groups per node (paper 002: section 5.1 for g = 1, the "single-group"
 * algorithm, section 5.3 for g = 2 and g = 4, the "multi-group" algorithm). Each node's ranks split into g shares
 * of consecutive local ranks ({@link NodeShares}); each share's first rank is its master.
 * <ol>
 *   <li>group gather ({@link NodeGather} of the share, shared memory): every rank puts its block to its share's
 *       master;</li>
 *   <li>inter-node all-gather (rails): every master puts its share to the master of the same group on every other
 *       node, all puts posted at once, one connection per peer (the multi-connection part);</li>
 *   <li>node broadcast ({@link NodeBroadcast}, shared memory): every master puts everything it holds (its
 *       "image": its own share and the shares delivered to it) to every other rank of its node, starting after
 *       itself in local-rank order.</li>
 * </ol>
 * Nothing of phase 3 overlaps phase 2: the masters broadcast once they hold their whole image, as in the paper.
 *
 * <p>With 4 nodes of 4 ranks this is the paper's 1-group (g = 1: 3 connections in and out per node, 4b each),
 * 2-group (g = 2: 6 connections, 2b each) and 4-group (g = 4: 12 connections, b each; phase 1 is empty, so the
 * paper numbers the two remaining phases 1 and 2) algorithm; see {@link ResourceTable}.
 *
 * <p>Open cases the paper leaves, settled here: g need not divide the ranks of a node (shares differ by at most
 * one rank); a node with fewer ranks than g has one share per rank, and its masters each receive, from every other
 * node, the shares whose index is theirs modulo its share count; nodes may be uneven and non-contiguous (shares
 * and images that are not one RECV range are packed in TEMP and copied out). Any number of nodes, any g >= 1.
 *
 * <p>Cost, for M nodes of L ranks, shares of s = L/g ranks (g dividing L): phase 1 {@code ceil((s-1)/k)} steps
 * of b, phase 2 {@code ceil((M-1)/k)} steps of {@code s b}, phase 3 {@code ceil((L-1)/k)} steps of {@code M s b}.
 * Rails: each master sends and receives {@code (M-1) s b}. Shared memory: a master sends its image,
 * {@code M s b}, to each of the L-1 other ranks and receives {@code (s-1) b + (g-1) M s b}; a member sends b and
 * receives every master's image, {@code N b}. These closed forms are checked by {@code SmpAllgatherCostTest}; other
 * placements are costed from the same design as a {@link Traffic}.
 */
public final class MultiConnectionAllgather extends NodeAwareAllgather implements OwnBlockInPlace {
    public static final String SINGLE_GROUP_ID = "allgather.mc-1group";
    public static final String TWO_GROUP_ID = "allgather.mc-2group";
    public static final String GROUPS_ID = "allgather.mc-groups";

    private static final int TAG_GATHER = 1;
    private static final int TAG_NETWORK = 2;
    private static final int TAG_BROADCAST = 3;

    /** Groups per node, or 0 to take them from {@link Shape#groups()}. */
    private final int fixedGroups;

    private MultiConnectionAllgather(String id, int fixedGroups) {
        super(id, "group gather (shm)", "inter-node all-gather", "node broadcast (shm)");
        this.fixedGroups = fixedGroups;
    }

    /** Paper 002 section 5.1: one master per node sends its node's blocks to all other masters at once. */
    public static MultiConnectionAllgather singleGroup() {
        return new MultiConnectionAllgather(SINGLE_GROUP_ID, 1);
    }

    /** Paper 002 section 5.3.1: two masters per node, each owning half of the node's ranks. */
    public static MultiConnectionAllgather twoGroup() {
        return new MultiConnectionAllgather(TWO_GROUP_ID, 2);
    }

    /** Paper 002 section 5.3: g masters per node, g from {@link Shape#groups()} ({@code RAILCOLL_GROUPS}). */
    public static MultiConnectionAllgather groups() {
        return new MultiConnectionAllgather(GROUPS_ID, 0);
    }

    public int groups(Shape shape) {
        return fixedGroups > 0 ? fixedGroups : shape.groups();
    }

    @Override
    void build(Shape shape, int rank, PhasedProgramBuilder p) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        NodeShares shares = new NodeShares(placement, groups(shape));
        int node = placement.nodeOf(rank);
        int h = shares.shareOf(rank);
        int master = shares.master(node, h);
        if (rank != master) {
            NodeGather.member(p.phase(GATHER), master, b, TAG_GATHER);
        } else {
            PackedBlocks own = shares.share(node, h);
            PackedBlocks image = shares.image(node, h);
            Region region = p.stage(image, b);
            Region ownSlot = region.plus(shares.imageIndex(node, h, node, h) * b);
            NodeGather.master(p.phase(GATHER), own, ownSlot, b, TAG_GATHER);
            p.phase(NETWORK);
            int nodes = placement.nodeCount();
            for (int d = 1; d < nodes; d++) {
                p.putBlocks(shares.receiverOf(h, (node + d) % nodes), ownSlot, own, b, TAG_NETWORK);
            }
            // Senders post in the same rotation, so the d-th receive here is the d-th put there.
            for (int d = 1; d < nodes; d++) {
                int from = Math.floorMod(node - d, nodes);
                for (int s = 0; s < shares.sharesOn(from); s++) {
                    if (shares.delivers(from, s, node, h)) {
                        p.recvBlocks(shares.master(from, s), TAG_NETWORK,
                                region.plus(shares.imageIndex(node, h, from, s) * b), shares.share(from, s), b);
                    }
                }
            }
            NodeBroadcast.send(p.phase(BROADCAST), NodeOrder.peersAfter(placement, rank), region, image, b,
                    TAG_BROADCAST);
            p.unpack(region, image, b);
        }
        p.phase(BROADCAST);
        for (int m : otherMastersByArrival(shares, rank)) {
            NodeBroadcast.receive(p, m, TAG_BROADCAST, shares.image(node, shares.shareOf(m)), b);
        }
    }

    /** The masters of {@code rank}'s node other than itself, in the order their broadcasts reach it. */
    private static List<Integer> otherMastersByArrival(NodeShares shares, int rank) {
        int node = shares.placement().nodeOf(rank);
        List<Integer> masters = new ArrayList<>();
        for (int h = 0; h < shares.sharesOn(node); h++) {
            if (shares.master(node, h) != rank) {
                masters.add(shares.master(node, h));
            }
        }
        return NodeOrder.byArrival(shares.placement(), masters, rank);
    }

    @Override
    public CostTerms cost(Shape shape) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        NodeShares shares = new NodeShares(placement, groups(shape));
        int nodes = placement.nodeCount();
        Traffic traffic = new Traffic(shape.size());
        for (int rank = 0; rank < shape.size(); rank++) {
            int node = placement.nodeOf(rank);
            int h = shares.shareOf(rank);
            int master = shares.master(node, h);
            PackedBlocks own = shares.share(node, h);
            NodeGather.traffic(traffic, rank, master, own, b, TAG_GATHER);
            if (rank == master) {
                for (int d = 1; d < nodes; d++) {
                    traffic.send(rank, shares.receiverOf(h, (node + d) % nodes), TAG_NETWORK, own.bytes(b));
                }
                for (int d = 1; d < nodes; d++) {
                    int from = Math.floorMod(node - d, nodes);
                    for (int s = 0; s < shares.sharesOn(from); s++) {
                        if (shares.delivers(from, s, node, h)) {
                            traffic.receive(rank, shares.master(from, s), TAG_NETWORK);
                        }
                    }
                }
                NodeBroadcast.traffic(traffic, rank, NodeOrder.peersAfter(placement, rank), TAG_BROADCAST,
                        shares.image(node, h).bytes(b));
            }
            for (int m : otherMastersByArrival(shares, rank)) {
                traffic.receive(rank, m, TAG_BROADCAST);
            }
        }
        return traffic.cost(placement, shape.ports(), "M nodes x L ranks, s = L/g: ceil((s-1)/k)*(ts + b*tau)"
                + " + ceil((M-1)/k)*(ts + s*b*tau) + ceil((L-1)/k)*(ts + M*s*b*tau)  [paper 002 sec. 5.1/5.3]");
    }

    @Override
    public String summary() {
        String g = fixedGroups > 0 ? "g=" + fixedGroups : "g from RAILCOLL_GROUPS";
        return "multi-connection aware, " + g + " masters per node: group gather (shm), every master to the same "
                + "group's master on every other node at once, node broadcast of each master's image (shm); "
                + "ceil((s-1)/k) + ceil((M-1)/k) + ceil((L-1)/k) steps, s = L/g; any placement"
                + (fixedGroups > 0 ? "; " : " and g; ")
                + "paper 002 sec. " + (fixedGroups == 1 ? "5.1" : "5.3");
    }
}
