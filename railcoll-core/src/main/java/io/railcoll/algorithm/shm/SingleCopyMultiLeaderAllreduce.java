package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.EvenSplit;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.allreduce.RabenseifnerAllreduce;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.PeerAccessUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.Optional;

/**
 * {@code allreduce.multi-leader-single-copy}: {@code allreduce.multi-leader-rabenseifner} (paper 002's g leaders per
 * node carried over to reduction, decision 0113) with both node phases by single copy (decisions 0143, 0171) instead of
 * puts through the shared-memory rings (decision 0207). Local rank i of every node leads slice i of g (g = the fewest
 * ranks on any node):
 * <ol>
 *   <li>Every rank publishes {@link SingleCopy#READY} (its SEND and RECV are announced then).</li>
 *   <li>Node reduce-scatter: leader i pulls slice i of every node-mate's SEND with cross-memory attach, piece by piece
 *       through a TEMP of at most {@link SingleCopyAllreduce#PIECE_BYTES}, and combines it in local rank order
 *       {@code c0 op (c1 op (... op cL-1))} into a TEMP range that nothing writes afterwards.</li>
 *   <li>Across nodes: the leaders of slice i, one per node in node order, run Rabenseifner's all-reduce on it
 *       ({@link RabenseifnerAllreduce#appendAmong}) into their RECV, and publish {@link #REDUCED}.</li>
 *   <li>Node all-gather: every rank pulls each slice it does not lead from that slice's leader's RECV once REDUCED is
 *       seen, then the single-copy ending ({@link SingleCopy#finish} among node-mates).</li>
 * </ol>
 * Per rank inside its node {@code (L-1)/g b} pulled for the reduce-scatter (leaders) and {@code (g-1)/g b} for the
 * all-gather, one copy each, where the ring puts copy every byte twice (into the ring and out) and wait on the ring's
 * flow control; across nodes the leaders move {@code 2 (M-1)/M b/g} each, as with the rings. Every element is combined
 * by one leader per node in local rank order and then across nodes as Rabenseifner's all-reduce combines it, then only
 * copied: the same bits on every rank (not rank order, so a non-commutative operator is refused). At least two ranks
 * on every node; only where every node agreed on cross-memory attach. Stateless.
 */
public final class SingleCopyMultiLeaderAllreduce extends AlgorithmBase implements PeerAccessUser {
    public static final String ID = "allreduce.multi-leader-single-copy";
    /** Raised by leader i once slice i of its RECV holds the job's result. */
    static final int REDUCED = 2;
    /** The first tag of the leaders' exchange across nodes (the node phases move no message). */
    private static final int TAG_NETWORK = 0;

    public SingleCopyMultiLeaderAllreduce() {
        super(ID, Collective.ALLREDUCE);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        Placement placement = shape.placement();
        for (int node = 0; node < placement.nodeCount(); node++) {
            if (placement.ranksOnNode(node) < 2) {
                return Optional.of("node " + node + " has one rank: its node phases are single-copy steps between"
                        + " node-mates");
            }
        }
        if (!shape.commutative()) {
            return Optional.of("it combines each node's contributions first, in node-major order, not in rank order, "
                    + "which a non-commutative operator needs");
        }
        return Optional.empty();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        Placement placement = shape.placement();
        int g = placement.fewestRanksOnANode();
        int node = placement.nodeOf(rank);
        int local = placement.localRankOf(rank);
        int[] mates = placement.ranksOf(node);
        long e = shape.elementBytes();
        long elements = shape.elements();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.publish(SingleCopy.READY);
        if (local < g) {
            long off = EvenSplit.first(elements, g, local) * e;
            long len = EvenSplit.count(elements, g, local) * e;
            long partial = combineNode(p, mates, local, off, len, e);
            int[] leaders = new int[placement.nodeCount()];
            for (int m = 0; m < leaders.length; m++) {
                leaders[m] = placement.rankAt(m, local);
            }
            RabenseifnerAllreduce.appendAmong(p, leaders, node, Buffer.TEMP, partial, off, len / e, e, TAG_NETWORK);
            p.publish(REDUCED);
        }
        // Node all-gather: each slice this rank does not lead, from its leader (a leader starts after its own).
        for (int d = 0; d < g; d++) {
            int i = local < g ? (local + d) % g : d;
            if (i == local) {
                continue;
            }
            long len = EvenSplit.count(elements, g, i) * e;
            p.awaitFlag(mates[i], REDUCED, 1);
            if (len > 0) {
                long off = EvenSplit.first(elements, g, i) * e;
                p.peerRead(mates[i], Buffer.RECV, off, Buffer.RECV, off, len);
            }
        }
        // Nobody returns while a node-mate may still read its buffers.
        p.publish(SingleCopy.DONE);
        for (int d = 1; d < mates.length; d++) {
            p.awaitFlag(mates[(local + d) % mates.length], SingleCopy.DONE, 1);
        }
        return p.build();
    }

    /**
     * Leader {@code local}'s node reduction of slice {@code [off, off+len)}: every node-mate's piece pulled (its own
     * copied) and combined {@code c0 op (c1 op (... op cL-1))} into a TEMP range it returns, piece by piece so that a
     * pulled piece is still in cache when it is combined.
     */
    private static long combineNode(ProgramBuilder p, int[] mates, int local, long off, long len, long e) {
        int l = mates.length;
        long acc = p.allocateTemp(len);
        long piece = Math.max(e, SingleCopyAllreduce.PIECE_BYTES - SingleCopyAllreduce.PIECE_BYTES % e);
        long pulled = p.allocateTemp(Math.min(piece, len));
        boolean[] ready = new boolean[l];
        for (long at = 0; at < len; at += piece) {
            long n = Math.min(piece, len - at);
            // The last rank's piece first, straight into the accumulator.
            pull(p, mates, ready, l - 1, local, off + at, Buffer.TEMP, acc + at, n);
            for (int q = l - 2; q >= 0; q--) {
                if (q == local) {
                    p.reduce(Buffer.SEND, off + at, Buffer.TEMP, acc + at, n);
                } else {
                    pull(p, mates, ready, q, local, off + at, Buffer.TEMP, pulled, n);
                    p.reduce(Buffer.TEMP, pulled, Buffer.TEMP, acc + at, n);
                }
            }
        }
        return acc;
    }

    /** Node-mate {@code q}'s SEND range into {@code dst} (this rank's own by a local copy), awaiting its READY once. */
    private static void pull(ProgramBuilder p, int[] mates, boolean[] ready, int q, int local, long at, Buffer dst,
                             long dstOff, long n) {
        if (q == local) {
            p.copy(Buffer.SEND, at, dst, dstOff, n);
            return;
        }
        if (!ready[q]) {
            p.awaitFlag(mates[q], SingleCopy.READY, 1);
            ready[q] = true;
        }
        p.peerRead(mates[q], Buffer.SEND, at, dst, dstOff, n);
    }

    /** The leaders' messages across nodes; the single-copy steps are priced by the simulator. */
    @Override
    public CostTerms cost(Shape shape) {
        return measuredCost(shape,
                "2 log2 M ts + 2 (M-1)/M b/g tau across nodes; (L-1)/g b + (g-1)/g b pulled per rank inside a node");
    }

    @Override
    public String summary() {
        return "every rank leads 1/L of the vector: node reduce-scatter by single copy, Rabenseifner's all-reduce among"
                + " same-index leaders across nodes, node all-gather by single copy; commutative operators; at least"
                + " two ranks per node, where cross-memory attach works; paper 002's multi-connection idea,"
                + " decision 0207";
    }
}
