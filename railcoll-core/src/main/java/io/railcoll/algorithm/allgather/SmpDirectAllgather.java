package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.Radix;
import io.railcoll.algorithm.node.NodeBroadcast;
import io.railcoll.algorithm.node.NodeGather;
import io.railcoll.algorithm.node.NodeOrder;
import io.railcoll.algorithm.node.NodeUnits;
import io.railcoll.algorithm.node.PackedBlocks;
import io.railcoll.algorithm.node.PhasedProgramBuilder;
import io.railcoll.algorithm.node.Region;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;

/**
 * SMP-aware Direct all-gather (paper 000 section 5.2.2, paper 001 section 6.2.2): the k-port Direct all-gather run
 * across node masters instead of ranks, with shared memory inside the nodes.
 * <ol>
 *   <li>node gather ({@link NodeGather}, shared memory): every rank puts its block to its node's master (its
 *       lowest rank), into its final RECV place (TEMP when the node's ranks are not consecutive numbers);</li>
 *   <li>inter-node Direct (rails): in step s = 1..ceil((M-1)/k) master n puts its node's blocks, as one message,
 *       to the masters of nodes {@code n+(s-1)k+1 .. n+sk} (mod M), straight into their final RECV place, and
 *       receives the step's k messages before it starts the next step, so k connections are active at a time;</li>
 *   <li>node broadcast ({@link NodeBroadcast}, shared memory), overlapped with phase 2 as in the paper: right
 *       after posting step 1 the master forwards its own node's blocks to its ranks, and after posting each later
 *       step it forwards the nodes that arrived in the step before, one message per node, so copies overlap the
 *       network.</li>
 * </ol>
 * A rank other than the master receives its node's blocks (its own included) and every other node's from its
 * master, into their final places; it copies nothing but TEMP-staged blocks of non-consecutive nodes.
 *
 * <pre>
 *   4 nodes x 4 ranks, k = 1, master 0 (node 0 = ranks 0-3):
 *   phase 1    1,2,3 -> 0                          RECV[0,4) of rank 0
 *   step 1     0 -> 4 (blocks 0-3); 12 -> 0 (12-15)   then 0 -> 1,2,3: blocks 0-3
 *   step 2     0 -> 8; 8 -> 0 (8-11)               then 0 -> 1,2,3: blocks 12-15
 *   step 3     0 -> 12; 4 -> 0 (4-7)               then 0 -> 1,2,3: blocks 8-11, then 4-7
 * </pre>
 *
 * <p>Bytes: a master sends {@code (M-1) L b} and receives as much over the rails; over shared memory it receives
 * {@code (L-1) b} and sends {@code (L-1) N b}; every other rank sends b and receives {@code N b}. Steps, in the
 * program-order k-port model where the forwards share the master's k ports with the network puts, for M nodes of
 * L ranks: {@code ceil((L-1)/k) + max(ceil((N-1)/k), ceil((M-1)/k) + [L>1])}, the master's N-1 sends or, when the
 * ports are not the bottleneck, the chain of network steps and the last forward. Other placements are costed
 * from the same design as a {@link Traffic}. With one rank per node this is the Direct all-gather paced step by
 * step; with one node, a node gather and broadcast. Any placement, k and b.
 */
public final class SmpDirectAllgather extends NodeAwareAllgather implements OwnBlockInPlace {
    public static final String ID = "allgather.smp-direct";

    private static final int TAG_GATHER = 1;
    private static final int TAG_NETWORK = 2;
    /**
     * Forwards of node j's blocks to a local rank of node n use tag {@code TAG_FORWARD + (n - j mod M)}: relative to
     * the node, so every node's programs are node 0's shifted, which lets the simulator run one node for all.
     */
    private static final int TAG_FORWARD = 16;

    public SmpDirectAllgather() {
        super(ID, "node gather (shm)", "inter-node Direct", "node broadcast (shm)");
    }

    /** The nodes master n receives from in step s (0-based): {@code n - d} for the step's distances d. */
    private static List<Integer> sources(int node, int step, int nodes, int ports) {
        List<Integer> from = new ArrayList<>();
        for (int d = step * ports + 1; d <= Math.min((step + 1) * ports, nodes - 1); d++) {
            from.add(Math.floorMod(node - d, nodes));
        }
        return from;
    }

    /** The tag of node {@code j}'s blocks forwarded inside node {@code node}. */
    private static int forwardTag(int node, int j, int nodes) {
        return TAG_FORWARD + Math.floorMod(node - j, nodes);
    }

    /** The order in which a master forwards nodes to its ranks: its own, then the sources step by step. */
    private static List<Integer> forwardOrder(int node, int nodes) {
        List<Integer> order = new ArrayList<>(nodes);
        for (int d = 0; d < nodes; d++) {
            order.add(Math.floorMod(node - d, nodes));
        }
        return order;
    }

    @Override
    void build(Shape shape, int rank, PhasedProgramBuilder p) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        int k = shape.ports();
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        int node = placement.nodeOf(rank);
        int master = units.master(node);
        if (rank != master) {
            NodeGather.member(p.phase(GATHER), master, b, TAG_GATHER);
            p.phase(BROADCAST);
            for (int j : forwardOrder(node, nodes)) {
                NodeBroadcast.receive(p, master, forwardTag(node, j, nodes), units.unit(j), b);
            }
            return;
        }
        int[] locals = NodeOrder.peersAfter(placement, rank);
        Region[] regions = new Region[nodes];
        PackedBlocks own = units.unit(node);
        regions[node] = p.stage(own, b);
        NodeGather.master(p.phase(GATHER), own, regions[node], b, TAG_GATHER);
        int steps = (int) Radix.ceilDiv(nodes - 1, k);
        List<Integer> pending = List.of(node);
        for (int s = 0; s <= steps; s++) {
            if (s < steps) {
                p.phase(NETWORK);
                for (int d = s * k + 1; d <= Math.min((s + 1) * k, nodes - 1); d++) {
                    p.putBlocks(units.master((node + d) % nodes), regions[node], own, b, TAG_NETWORK);
                }
            }
            // Forward what arrived in the previous step (at first: the node's own blocks) while this one flies.
            p.phase(BROADCAST);
            for (int j : pending) {
                p.unpack(regions[j], units.unit(j), b);
                NodeBroadcast.send(p, locals, regions[j], units.unit(j), b, forwardTag(node, j, nodes));
            }
            if (s < steps) {
                pending = sources(node, s, nodes, k);
                p.phase(NETWORK);
                for (int j : pending) {
                    regions[j] = p.stage(units.unit(j), b);
                    p.recvBlocks(units.master(j), TAG_NETWORK, regions[j], units.unit(j), b);
                }
            }
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        int k = shape.ports();
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        int steps = (int) Radix.ceilDiv(nodes - 1, k);
        Traffic traffic = new Traffic(shape.size());
        for (int rank = 0; rank < shape.size(); rank++) {
            int node = placement.nodeOf(rank);
            int master = units.master(node);
            PackedBlocks own = units.unit(node);
            NodeGather.traffic(traffic, rank, master, own, b, TAG_GATHER);
            if (rank != master) {
                for (int j : forwardOrder(node, nodes)) {
                    traffic.receive(rank, master, forwardTag(node, j, nodes));
                }
                continue;
            }
            int[] locals = NodeOrder.peersAfter(placement, rank);
            List<Integer> pending = List.of(node);
            for (int s = 0; s <= steps; s++) {
                for (int d = s * k + 1; s < steps && d <= Math.min((s + 1) * k, nodes - 1); d++) {
                    traffic.send(rank, units.master((node + d) % nodes), TAG_NETWORK, own.bytes(b));
                }
                for (int j : pending) {
                    NodeBroadcast.traffic(traffic, rank, locals, forwardTag(node, j, nodes), units.unit(j).bytes(b));
                }
                if (s < steps) {
                    pending = sources(node, s, nodes, k);
                    for (int j : pending) {
                        traffic.receive(rank, units.master(j), TAG_NETWORK);
                    }
                }
            }
        }
        return traffic.cost(placement, shape.ports(), "M nodes x L ranks: (ceil((L-1)/k) + max(ceil((N-1)/k), "
                + "ceil((M-1)/k) + [L>1]))*ts; rails (M-1)*L*b per master  [paper 000 sec. 5.2.2]");
    }

    @Override
    public String summary() {
        return "SMP-aware Direct: node gather (shm), k-port Direct among node masters (k connections at a time, "
                + "into final places), node broadcast overlapped with it; (M-1)*L*b per master over the rails; "
                + "any placement; paper 000 sec. 5.2.2, paper 001 sec. 6.2.2";
    }
}
