package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;
import io.railcoll.topology.Placement;

import java.util.Optional;

/**
 * {@code allgather.smp-direct-shm}: paper 000's SMP-aware Direct all-gather (section 5.2.2) with its intra-node
 * phases in the node buffer with flags (section 4.2), one program of node steps and puts the engine runs like any
 * other, and which the checker verifies and the simulator and model price (decisions 0156, 0157):
 * <ol>
 *   <li>every rank writes its block into the node buffer and raises its flag {@link #WRITTEN}; the node's master
 *       (local rank 0) copies its node-mates' blocks into RECV as their flags rise;</li>
 *   <li>k-port Direct among the masters on whole nodes, straight into the final places of RECV;</li>
 *   <li>the master writes every piece it received into the node buffer, raising {@link #WRITTEN}, and every other
 *       rank copies each one out.</li>
 * </ol>
 * What moves, and in which order, is {@link SmpDirectPlan}'s: below {@value SmpDirectPlan#OVERLAP_MIN_BYTES} bytes of
 * the largest node's blocks, one message per node and one raise by the master at the end (every node-mate reads the
 * whole result with one copy); above, pieces on the wire while the node copies out the ones that landed; where the
 * result exceeds the node buffer, chunks round its slots, each reader raising {@link #DRAINED} so a writer knows
 * when a slot is free. Nodes >= 2 whose ranks are consecutive numbers (a node's blocks are then one range of RECV);
 * only where the node region is enabled. Stateless.
 */
public final class SmpDirectShmAllgather extends AlgorithmBase implements NodeRegionUser, OwnBlockInPlace {
    public static final String ID = "allgather.smp-direct-shm";
    /** Raised by a writer after each item it wrote into the node buffer. */
    static final int WRITTEN = 0;
    /** Raised by a reader after each item it copied out whose slot a later item reuses. */
    static final int DRAINED = 1;

    public SmpDirectShmAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return severalNodesOfConsecutiveRanks(shape);
    }

    /** Why a shape is not two or more nodes each holding consecutive ranks (its blocks one range of RECV), if so. */
    static Optional<String> severalNodesOfConsecutiveRanks(Shape shape) {
        Placement p = shape.placement();
        if (p.nodeCount() < 2) {
            return Optional.of("all ranks are on one node: allgather.shm runs a node all-gather there");
        }
        for (int node = 0; node < p.nodeCount(); node++) {
            int first = p.masterOf(node);
            if (p.rankAt(node, p.ranksOnNode(node) - 1) != first + p.ranksOnNode(node) - 1) {
                return Optional.of("the ranks of node " + node + " are not consecutive numbers, so its blocks are not"
                        + " one range of RECV");
            }
        }
        return Optional.empty();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        ProgramBuilder p = new ProgramBuilder(rank);
        if (shape.blockBytes() == 0) {
            return p.build();
        }
        SmpDirectPlan plan = new SmpDirectPlan(shape, shape.placement().nodeOf(rank));
        if (rank == plan.master) {
            master(plan, shape, p);
        } else if (!plan.overlapped && plan.whole) {
            // One hand-off each way: the master raises once, after the last byte of the result is in the buffer.
            long b = shape.blockBytes();
            p.nodeWrite(Buffer.SEND, 0, rank * b, b).publish(WRITTEN).awaitFlag(plan.master, WRITTEN, 1)
                    .nodeRead(0, Buffer.RECV, 0, shape.size() * b);
        } else {
            mate(plan, shape, p);
        }
        return p.build();
    }

    /** A node-mate: its own items first (those that reuse no slot), then every item in order. */
    private static void mate(SmpDirectPlan plan, Shape shape, ProgramBuilder p) {
        int me = p.rank();
        long b = shape.blockBytes();
        p.copy(Buffer.SEND, 0, Buffer.RECV, me * b, b);
        for (int j = 0; j < plan.items.size() && j < plan.slots; j++) {
            if (plan.items.get(j).writer() == me) {
                write(plan, j, Buffer.SEND, me * b, p, true);
            }
        }
        for (int j = 0; j < plan.items.size(); j++) {
            SmpDirectPlan.Item item = plan.items.get(j);
            if (item.writer() != me) {
                read(plan, j, p);
            } else if (j >= plan.slots) {
                write(plan, j, Buffer.SEND, me * b, p, true);
            }
        }
    }

    /**
     * The master: its node's blocks in (its own first; with one block per piece, it leaves from SEND at once), each
     * own piece put to the first step's masters as soon as it is complete, then step by step its pieces out and the
     * step's pieces in, each received piece handed to the node after the next one arrived (a step's last after the
     * next step's puts are posted, so the rails never wait for a copy).
     */
    private static void master(SmpDirectPlan plan, Shape shape, ProgramBuilder p) {
        int me = p.rank();
        long b = shape.blockBytes();
        int k = shape.ports();
        boolean batched = !plan.overlapped && plan.whole;
        boolean early = plan.overlapped && plan.ownBlocksPerPiece() == 1;
        int[] first = plan.destinations(0, k);
        if (early) {
            for (int to : first) {
                p.put(to, Buffer.SEND, 0, b, 0);
            }
        }
        p.copy(Buffer.SEND, 0, Buffer.RECV, me * b, b);
        int mates = plan.ranks - 1;
        if (batched && mates > 0) {
            p.nodeWrite(Buffer.SEND, 0, me * b, b);
            for (int q = me + 1; q <= me + mates; q++) {
                p.awaitFlag(q, WRITTEN, 1);
            }
            p.nodeRead((me + 1) * b, Buffer.RECV, (me + 1) * b, mates * b);
            for (SmpDirectPlan.Piece own : plan.own) {
                putOwn(own, first, p);
            }
        } else if (mates > 0) {
            int piece = 0;
            for (int j = 0; j < plan.firstItemOf[0]; j++) {
                if (plan.items.get(j).writer() == me) {
                    write(plan, j, Buffer.SEND, me * b, p, true);
                } else {
                    read(plan, j, p);
                }
                while (piece < plan.own.size() && plan.lastItemOf[piece] == j) {
                    if (!(early && piece == 0)) {
                        putOwn(plan.own.get(piece), first, p);
                    }
                    piece++;
                }
            }
        }
        for (int t = 0; t < plan.own.size(); t++) {
            if (plan.lastItemOf[t] < 0 && !(early && t == 0)) {
                putOwn(plan.own.get(t), first, p); // a node of one rank: nothing to wait for
            }
        }
        int deferred = -1;
        int r = 0;
        for (int s = 0; s < plan.rounds(k); s++) {
            if (s > 0) {
                int[] to = plan.destinations(s, k);
                for (SmpDirectPlan.Piece own : plan.own) {
                    putOwn(own, to, p);
                }
            }
            if (deferred >= 0) {
                handOn(plan, deferred, p, !batched);
                deferred = -1;
            }
            for (; r < plan.received.size() && plan.received.get(r).step() == s; r++) {
                SmpDirectPlan.Piece in = plan.received.get(r);
                p.recv(in.fromMaster(), in.tag(), Buffer.RECV, in.offset(), in.length());
                if (deferred >= 0) {
                    handOn(plan, deferred, p, !batched);
                }
                deferred = r;
            }
        }
        if (deferred >= 0) {
            handOn(plan, deferred, p, !batched);
        }
        if (batched && mates > 0) {
            p.publish(WRITTEN);
        }
    }

    private static void putOwn(SmpDirectPlan.Piece own, int[] to, ProgramBuilder p) {
        for (int peer : to) {
            p.put(peer, Buffer.RECV, own.offset(), own.length(), own.tag());
        }
    }

    /** The master writes received piece {@code r} into the node buffer, item by item. */
    private static void handOn(SmpDirectPlan plan, int r, ProgramBuilder p, boolean raise) {
        for (int j = plan.firstItemOf[r]; j < plan.firstItemOf[r + 1]; j++) {
            write(plan, j, Buffer.RECV, 0, p, raise);
        }
    }

    /**
     * Writes item {@code j} from {@code src} (whose byte {@code base} is RECV's byte {@code base} when src is SEND:
     * the writer's own block), once every reader drained the item that used its slot last.
     */
    private static void write(SmpDirectPlan plan, int j, Buffer src, long base, ProgramBuilder p, boolean raise) {
        SmpDirectPlan.Item item = plan.items.get(j);
        if (j >= plan.slots) {
            int before = j - plan.slots;
            int previous = plan.items.get(before).writer();
            for (int q = plan.master; q < plan.master + plan.ranks; q++) {
                if (q != previous && q != p.rank()) {
                    p.awaitFlag(q, DRAINED, plan.drainedBy(q, before));
                }
            }
        }
        long srcOffset = src == Buffer.SEND ? item.offset() - base : item.offset();
        p.nodeWrite(src, srcOffset, item.nodeOffset(), item.length());
        if (raise) {
            p.publish(WRITTEN);
        }
    }

    /** Copies item {@code j} out once its writer raised it; says so where a later item reuses its slot. */
    private static void read(SmpDirectPlan plan, int j, ProgramBuilder p) {
        SmpDirectPlan.Item item = plan.items.get(j);
        p.awaitFlag(item.writer(), WRITTEN, item.raise()).nodeRead(item.nodeOffset(), Buffer.RECV, item.offset(),
                item.length());
        if (plan.reused(j)) {
            p.publish(DRAINED);
        }
    }

    /**
     * The masters' messages (the node's hand-offs move none; the simulator prices their copies and flags): master n
     * in step s puts each of its pieces to the step's masters, then receives the step's pieces.
     */
    @Override
    public CostTerms cost(Shape shape) {
        Placement placement = shape.placement();
        Traffic traffic = new Traffic(shape.size());
        int k = shape.ports();
        if (shape.blockBytes() > 0) {
            for (int node = 0; node < placement.nodeCount(); node++) {
                SmpDirectPlan plan = new SmpDirectPlan(shape, node);
                int r = 0;
                for (int s = 0; s < plan.rounds(k); s++) {
                    for (SmpDirectPlan.Piece own : plan.own) {
                        for (int to : plan.destinations(s, k)) {
                            traffic.send(plan.master, to, own.tag(), own.length());
                        }
                    }
                    for (; r < plan.received.size() && plan.received.get(r).step() == s; r++) {
                        traffic.receive(plan.master, plan.received.get(r).fromMaster(), plan.received.get(r).tag());
                    }
                }
            }
        }
        return traffic.cost(placement, k, "k-port Direct among M masters: ceil((M-1)/k) * ts, (M-1) L b per master;"
                + " node hand-offs (b in, N b out per rank) priced by the simulator  [paper 000 sec. 5.2.2 + 4.2]");
    }

    @Override
    public String summary() {
        return "SMP-aware Direct with its node phases in the node buffer (node steps): every rank writes its block,"
                + " k-port Direct among node masters on whole nodes, the master writes what it received and the"
                + " node-mates copy it out, overlapped and streamed in chunks for large blocks; nodes >= 2,"
                + " consecutive ranks per node; paper 000 sec. 5.2.2 with sec. 4.2";
    }
}
