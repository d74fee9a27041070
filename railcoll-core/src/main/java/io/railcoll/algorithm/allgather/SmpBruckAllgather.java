package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.Radix;
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

import java.util.ArrayList;
import java.util.List;

/**
 * SMP-aware Bruck all-gather (paper 000 section 5.2.2, paper 001 section 6.2.2): the k-port Bruck all-gather of
 * {@link BruckAllgather} run across node masters on whole nodes' blocks, with shared memory inside the nodes.
 * <ol>
 *   <li>node gather ({@link NodeGather}, shared memory): every rank puts its block to its node's master;</li>
 *   <li>inter-node Bruck (rails): master n works on a rotated view in which position i holds node
 *       {@code (n+i) mod M}'s blocks. In step s it puts positions {@code [0, c)} as one message to the masters of
 *       nodes {@code n - o} and receives positions {@code [o, o+c)} from nodes {@code n + o}, for the step's k
 *       offsets o, exactly the pieces of the flat Bruck over M (the extra step split over the ports), so
 *       {@code ceil(log_{k+1} M)} steps;</li>
 *   <li>node broadcast ({@link NodeBroadcast}, shared memory), overlapped with phase 2: right after posting
 *       step 1 the master forwards its node's blocks to its ranks, and after posting each later step, every piece
 *       that arrived in the step before, one message per piece.</li>
 * </ol>
 * Both of the paper's refinements are here: the forwards overlap the network, and there is no final shift: a piece
 * that no later step forwards lands straight in its final RECV range when its nodes form one (no wrap past the
 * last node, consecutive rank numbers), and every piece reaches the other ranks of the node in its final place.
 * Only the positions a later step sends, and pieces that are not one RECV range, live in TEMP (the rotated view
 * packed node after node); the master copies those out once each, the other ranks only TEMP-staged ones.
 *
 * <pre>
 *   4 nodes x 4 ranks, k = 1, master n (positions hold nodes n, n+1, n+2, n+3):
 *   phase 1    ranks of n -> master n, into TEMP position 0 (sent again in step 2)
 *   step 1     put position 0 (4 blocks) to n-1; receive position 1 (node n+1) into TEMP; forward node n
 *   step 2     put positions 0-1 (8 blocks) to n-2; receive positions 2-3 (nodes n+2, n+3) into RECV unless they
 *              wrap; forward node n+1
 *   end        forward nodes n+2, n+3 (one message)
 * </pre>
 *
 * <p>Bytes: over the rails a master receives every other node's blocks once, {@code (N - L_n) b}, and sends its
 * prefix in each of its messages, {@code (M-1) L b} with L ranks on every node; over shared memory it receives
 * {@code (L-1) b} and sends {@code (L-1) N b}; every other rank sends b and receives {@code N b}. Steps, in the
 * program-order k-port model where the forwards share the master's k ports, for M nodes of L ranks and P pieces
 * (k per full Bruck step plus those of the extra step): {@code ceil((L-1)/k) + max(ceil((P + (P+1)(L-1))/k),
 * ceil(log_{k+1} M) + [L>1])}; other placements are costed from the same design as a {@link Traffic}. With one
 * rank per node this is the flat Bruck all-gather; with one node, a node gather and broadcast. Any placement, k
 * and b.
 */
public final class SmpBruckAllgather extends NodeAwareAllgather implements OwnBlockInPlace {
    public static final String ID = "allgather.smp-bruck";

    private static final int TAG_GATHER = 1;
    /** Step s of the inter-node Bruck uses tag {@code TAG_NETWORK + s}. */
    private static final int TAG_NETWORK = 100;
    /** The own node's forward uses {@code TAG_FORWARD}, piece i's {@code TAG_FORWARD + 1 + i}. */
    private static final int TAG_FORWARD = 10_000;

    public SmpBruckAllgather() {
        super(ID, "node gather (shm)", "inter-node Bruck", "node broadcast (shm)");
    }

    /** One inter-node message: in {@code step}, positions {@code [offset, offset+length)} from node n + offset. */
    private record Piece(int step, int offset, int length) {
    }

    /** The flat Bruck's pieces over {@code nodes} (see {@link BruckAllgather}), in step then port order. */
    private static List<Piece> pieces(int nodes, int ports) {
        int radix = ports + 1;
        int depth = Radix.floorLog(nodes, radix);
        List<Piece> pieces = new ArrayList<>();
        int count = 1;
        for (int s = 0; s < depth; s++, count *= radix) {
            for (int j = 1; j <= ports; j++) {
                pieces.add(new Piece(s, j * count, count));
            }
        }
        int share = (int) Radix.ceilDiv(nodes - count, ports);
        for (int offset = count; offset < nodes; offset += share) {
            pieces.add(new Piece(depth, offset, Math.min(share, nodes - offset)));
        }
        return pieces;
    }

    @Override
    void build(Shape shape, int rank, PhasedProgramBuilder p) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        int node = placement.nodeOf(rank);
        int master = units.master(node);
        List<Piece> pieces = pieces(nodes, shape.ports());
        if (rank != master) {
            NodeGather.member(p.phase(GATHER), master, b, TAG_GATHER);
            p.phase(BROADCAST);
            NodeBroadcast.receive(p, master, TAG_FORWARD, units.unit(node), b);
            for (int i = 0; i < pieces.size(); i++) {
                Piece piece = pieces.get(i);
                NodeBroadcast.receive(p, master, TAG_FORWARD + 1 + i,
                        units.run((node + piece.offset()) % nodes, piece.length()), b);
            }
            return;
        }

        // Positions a later step sends (the longest prefix of any later step) must sit in the rotated TEMP view.
        int steps = pieces.isEmpty() ? 0 : pieces.getLast().step() + 1;
        int[] forwardedLater = new int[steps + 1];
        for (Piece piece : pieces) {
            for (int s = 0; s < piece.step(); s++) {
                forwardedLater[s] = Math.max(forwardedLater[s], piece.length());
            }
        }
        int longestPrefix = maxLength(pieces);
        long[] positionBytes = new long[nodes + 1];
        for (int i = 0; i < nodes; i++) {
            positionBytes[i + 1] = positionBytes[i] + units.unit((node + i) % nodes).bytes(b);
        }
        boolean[] inRotated = new boolean[pieces.size()];
        int rotatedPositions = longestPrefix > 1 ? 1 : 0;
        for (int i = 0; i < pieces.size(); i++) {
            Piece piece = pieces.get(i);
            inRotated[i] = piece.offset() < forwardedLater[piece.step()]
                    || !units.run((node + piece.offset()) % nodes, piece.length()).isRecvContiguous();
            if (inRotated[i]) {
                rotatedPositions = Math.max(rotatedPositions, piece.offset() + piece.length());
            }
        }
        long rotatedTemp = p.allocateTemp(positionBytes[rotatedPositions]);
        PackedBlocks own = units.unit(node);
        // The own node goes to the rotated view only when a prefix longer than itself is ever sent.
        Region ownRegion = longestPrefix > 1 ? new Region(Buffer.TEMP, rotatedTemp) : p.stage(own, b);
        NodeGather.master(p.phase(GATHER), own, ownRegion, b, TAG_GATHER);

        int[] locals = NodeOrder.peersAfter(placement, rank);
        List<Integer> pending = List.of(-1);
        int next = 0;
        for (int s = 0; s <= steps; s++) {
            int end = next;
            while (end < pieces.size() && pieces.get(end).step() == s) {
                end++;
            }
            p.phase(NETWORK);
            for (int i = next; i < end; i++) {
                Piece piece = pieces.get(i);
                Region source = piece.length() == 1 ? ownRegion : new Region(Buffer.TEMP, rotatedTemp);
                p.put(units.master(Math.floorMod(node - piece.offset(), nodes)), source.buffer(), source.offset(),
                        positionBytes[piece.length()], TAG_NETWORK + s);
            }
            // Forward what arrived in the previous step (at first: the node's own blocks) while this one flies.
            p.phase(BROADCAST);
            for (int i : pending) {
                PackedBlocks blocks = i < 0 ? own : units.run((node + pieces.get(i).offset()) % nodes,
                        pieces.get(i).length());
                Region region = i < 0 ? ownRegion : landing(pieces.get(i), inRotated[i], rotatedTemp, positionBytes,
                        blocks, b);
                p.unpack(region, blocks, b);
                NodeBroadcast.send(p, locals, region, blocks, b, TAG_FORWARD + 1 + i);
            }
            p.phase(NETWORK);
            List<Integer> arrived = new ArrayList<>();
            for (int i = next; i < end; i++) {
                Piece piece = pieces.get(i);
                PackedBlocks blocks = units.run((node + piece.offset()) % nodes, piece.length());
                Region region = landing(piece, inRotated[i], rotatedTemp, positionBytes, blocks, b);
                p.recvBlocks(units.master((node + piece.offset()) % nodes), TAG_NETWORK + s, region, blocks, b);
                arrived.add(i);
            }
            pending = arrived;
            next = end;
        }
    }

    private static int maxLength(List<Piece> pieces) {
        int max = 0;
        for (Piece piece : pieces) {
            max = Math.max(max, piece.length());
        }
        return max;
    }

    /** Where a master receives a piece: its rotated TEMP positions, or its final RECV range. */
    private static Region landing(Piece piece, boolean inRotated, long rotatedTemp, long[] positionBytes,
                                  PackedBlocks blocks, long b) {
        return inRotated ? new Region(Buffer.TEMP, rotatedTemp + positionBytes[piece.offset()])
                : new Region(Buffer.RECV, blocks.rank(0) * b);
    }

    @Override
    public CostTerms cost(Shape shape) {
        Placement placement = shape.placement();
        long b = shape.blockBytes();
        NodeUnits units = new NodeUnits(placement);
        int nodes = units.nodes();
        List<Piece> pieces = pieces(nodes, shape.ports());
        int steps = pieces.isEmpty() ? 0 : pieces.getLast().step() + 1;
        Traffic traffic = new Traffic(shape.size());
        for (int rank = 0; rank < shape.size(); rank++) {
            int node = placement.nodeOf(rank);
            int master = units.master(node);
            PackedBlocks own = units.unit(node);
            NodeGather.traffic(traffic, rank, master, own, b, TAG_GATHER);
            if (rank != master) {
                for (int i = -1; i < pieces.size(); i++) {
                    traffic.receive(rank, master, TAG_FORWARD + 1 + i);
                }
                continue;
            }
            int[] locals = NodeOrder.peersAfter(placement, rank);
            List<Integer> pending = List.of(-1);
            for (int s = 0; s <= steps; s++) {
                List<Integer> arrived = new ArrayList<>();
                for (int i = 0; i < pieces.size(); i++) {
                    if (pieces.get(i).step() == s) {
                        Piece piece = pieces.get(i);
                        traffic.send(rank, units.master(Math.floorMod(node - piece.offset(), nodes)), TAG_NETWORK + s,
                                units.run(node, piece.length()).bytes(b));
                        arrived.add(i);
                    }
                }
                for (int i : pending) {
                    long bytes = i < 0 ? own.bytes(b)
                            : units.run((node + pieces.get(i).offset()) % nodes, pieces.get(i).length()).bytes(b);
                    NodeBroadcast.traffic(traffic, rank, locals, TAG_FORWARD + 1 + i, bytes);
                }
                for (int i : arrived) {
                    traffic.receive(rank, units.master((node + pieces.get(i).offset()) % nodes), TAG_NETWORK + s);
                }
                pending = arrived;
            }
        }
        return traffic.cost(placement, shape.ports(), "M nodes x L ranks, P pieces: (ceil((L-1)/k) + max(ceil((P + "
                + "(P+1)(L-1))/k), ceil(log_{k+1} M) + [L>1]))*ts; rails (M-1)*L*b per master  [paper 000 sec. 5.2.2]");
    }

    @Override
    public String summary() {
        return "SMP-aware Bruck: node gather (shm), k-port Bruck among node masters on whole nodes "
                + "(ceil(log_{k+1} M) steps, no final shift), node broadcast overlapped with it; any placement; "
                + "paper 000 sec. 5.2.2, paper 001 sec. 6.2.2";
    }
}
