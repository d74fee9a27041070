package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.node.NodeBroadcast;
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

import java.util.ArrayList;
import java.util.List;

/**
 * Multi-group gather-based multi-connection aware all-gather (paper 002 section 5.2). Ranks of equal local rank
 * form a group across the nodes; each node hosts one group master, which gathers every other node's blocks from
 * the members of its group and then broadcasts them to its node. The network work of a node is spread over its
 * ranks (one connection each on 4x4), which is what makes it the paper's choice for the shortest messages.
 * <ol>
 *   <li>node all-gather (shared memory): every rank puts its block to every other rank of its node, so every rank
 *       holds its node's blocks;</li>
 *   <li>inter-node gather (rails): the gatherer of node n is its rank of local rank {@code n mod L_n}; every other
 *       node j sends its blocks, as one message into their final place, from its rank of local rank
 *       {@code (local rank of n's gatherer) mod L_j}, i.e. the member of the gatherer's group; all posted at
 *       once;</li>
 *   <li>node broadcast (shared memory): the gatherer puts the other nodes' blocks to every other rank of its node,
 *       one message per run of consecutive ranks outside the node (one or two runs when nodes are consecutive).
 *       The paper broadcasts the whole result; the node's own blocks are left out here because every rank got
 *       them in phase 1.</li>
 * </ol>
 *
 * <p>Open cases the paper leaves (it notes only that a node without a master needs groups with several masters):
 * with more nodes than ranks per node, group {@code n mod L} has a master on every node n of that residue, each
 * with the same duty, and a member sends to all masters of its group; with uneven nodes the gatherer and sender
 * indices are taken modulo the node's size, so a small node's ranks serve several groups. Non-contiguous nodes are
 * packed in TEMP by the sender and copied out by the gatherer.
 *
 * <p>Bytes, for M nodes of L ranks: over the rails each node sends its {@code L b} to every other node, from
 * {@code min(M-1, L)} of its ranks, and its gatherer receives {@code (M-1) L b}; over shared memory every rank sends
 * and receives {@code (L-1) b} in phase 1, and the gatherer sends {@code (L-1)(N-L) b} in phase 3. Steps, in the
 * program-order k-port model, for M <= L: {@code ceil((L-1)/k) + ceil((M-1)/k) + ceil(r (L-1)/k)} with r the most
 * runs any node broadcasts (2 from three nodes on); more nodes, uneven or non-contiguous ones are costed from the
 * same design as a {@link Traffic}. Any placement, k and b; with one rank per node this is the Direct
 * all-gather.
 */
public final class GatherBasedMultiConnectionAllgather extends NodeAwareAllgather implements OwnBlockInPlace {
    public static final String ID = "allgather.mc-gather-based";

    /** Phase 1 here is a node all-gather: every rank collects its node's blocks. */
    private static final int ALLGATHER = GATHER;
    private static final int TAG_NODE = 1;
    private static final int TAG_NETWORK = 2;
    /** Run i of the broadcast uses tag {@code TAG_BROADCAST + i}. */
    private static final int TAG_BROADCAST = 16;

    public GatherBasedMultiConnectionAllgather() {
        super(ID, "node all-gather (shm)", "inter-node gather", "node broadcast (shm)");
    }

    /** The rank of {@code node} that gathers the other nodes' blocks: local rank {@code node mod L_node}. */
    static int gatherer(Placement placement, int node) {
        return placement.rankAt(node, node % placement.ranksOnNode(node));
    }

    /** The rank of {@code fromNode} that sends its blocks to {@code toNode}'s gatherer: the gatherer's group member. */
    static int sender(Placement placement, int fromNode, int toNode) {
        int local = placement.localRankOf(gatherer(placement, toNode));
        return placement.rankAt(fromNode, local % placement.ranksOnNode(fromNode));
    }

    /** The nodes {@code rank} sends its node's blocks to, nearest (in node order after its own) first. */
    private static List<Integer> destinations(Placement placement, int rank) {
        int node = placement.nodeOf(rank);
        int nodes = placement.nodeCount();
        List<Integer> to = new ArrayList<>();
        for (int d = 1; d < nodes; d++) {
            if (sender(placement, node, (node + d) % nodes) == rank) {
                to.add((node + d) % nodes);
            }
        }
        return to;
    }

    /** Every block not of {@code node}, in rank order: what its gatherer broadcasts, one message per run. */
    private static List<PackedBlocks.Run> remoteRuns(Placement placement, int node) {
        int[] remote = new int[placement.size() - placement.ranksOnNode(node)];
        int at = 0;
        for (int r = 0; r < placement.size(); r++) {
            if (placement.nodeOf(r) != node) {
                remote[at++] = r;
            }
        }
        return PackedBlocks.of(remote).runs();
    }

    private static List<Integer> nodePeersByArrival(Placement placement, int rank) {
        List<Integer> peers = new ArrayList<>();
        for (int peer : NodeOrder.peersAfter(placement, rank)) {
            peers.add(peer);
        }
        return NodeOrder.byArrival(placement, peers, rank);
    }

    @Override
    void build(Shape shape, int rank, PhasedProgramBuilder p) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        int node = placement.nodeOf(rank);
        int gatherer = gatherer(placement, node);
        p.phase(ALLGATHER);
        for (int peer : NodeOrder.peersAfter(placement, rank)) {
            p.put(peer, Buffer.SEND, 0, b, TAG_NODE);
        }
        p.copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b);
        for (int peer : nodePeersByArrival(placement, rank)) {
            p.recv(peer, TAG_NODE, Buffer.RECV, peer * b, b);
        }
        p.phase(NETWORK);
        List<Integer> destinations = destinations(placement, rank);
        if (!destinations.isEmpty()) {
            PackedBlocks own = units.unit(node);
            Region region = p.stage(own, b);
            p.pack(own, region, b);
            for (int to : destinations) {
                p.putBlocks(gatherer(placement, to), region, own, b, TAG_NETWORK);
            }
        }
        List<PackedBlocks.Run> runs = remoteRuns(placement, node);
        if (rank == gatherer) {
            for (int d = 1; d < nodes; d++) {
                int from = Math.floorMod(node - d, nodes);
                p.recvInPlace(sender(placement, from, node), TAG_NETWORK, units.unit(from), b);
            }
            p.phase(BROADCAST);
            for (int peer : NodeOrder.peersAfter(placement, rank)) {
                for (int i = 0; i < runs.size(); i++) {
                    p.put(peer, Buffer.RECV, runs.get(i).firstRank() * b, runs.get(i).count() * b, TAG_BROADCAST + i);
                }
            }
        } else {
            p.phase(BROADCAST);
            for (int i = 0; i < runs.size(); i++) {
                p.recv(gatherer, TAG_BROADCAST + i, Buffer.RECV, runs.get(i).firstRank() * b, runs.get(i).count() * b);
            }
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        Traffic traffic = new Traffic(shape.size());
        for (int rank = 0; rank < shape.size(); rank++) {
            int node = placement.nodeOf(rank);
            int gatherer = gatherer(placement, node);
            NodeBroadcast.traffic(traffic, rank, NodeOrder.peersAfter(placement, rank), TAG_NODE, b);
            for (int peer : nodePeersByArrival(placement, rank)) {
                traffic.receive(rank, peer, TAG_NODE);
            }
            for (int to : destinations(placement, rank)) {
                traffic.send(rank, gatherer(placement, to), TAG_NETWORK, units.unit(node).bytes(b));
            }
            List<PackedBlocks.Run> runs = remoteRuns(placement, node);
            if (rank == gatherer) {
                for (int d = 1; d < nodes; d++) {
                    int from = Math.floorMod(node - d, nodes);
                    traffic.receive(rank, sender(placement, from, node), TAG_NETWORK);
                }
                for (int peer : NodeOrder.peersAfter(placement, rank)) {
                    for (int i = 0; i < runs.size(); i++) {
                        traffic.send(rank, peer, TAG_BROADCAST + i, runs.get(i).count() * b);
                    }
                }
            } else {
                for (int i = 0; i < runs.size(); i++) {
                    traffic.receive(rank, gatherer, TAG_BROADCAST + i);
                }
            }
        }
        return traffic.cost(placement, shape.ports(), "M <= L: (ceil((L-1)/k) + ceil((M-1)/k) + ceil(r*(L-1)/k))*ts, "
                + "r = runs outside the node (<= 2); rails L*b out per rank, (M-1)*L*b into the gatherer  "
                + "[paper 002 sec. 5.2]");
    }

    @Override
    public String summary() {
        return "multi-group gather-based multi-connection aware: node all-gather (shm), every node's blocks to one "
                + "gatherer per node from the gatherer's group member (one connection per rank), node broadcast "
                + "(shm); any placement; paper 002 sec. 5.2";
    }
}
