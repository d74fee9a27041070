package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code reduce-scatter.shm}: a one-node reduce-scatter of equal blocks in node steps (decision 0222), the first half
 * of {@code allreduce.shm}'s large form. Every rank copies the blocks its node-mates need (all but its own) into its
 * slot of the node buffer and raises flag 0; rank j waits for each node-mate's raise, reads block j of its slot and
 * combines it into RECV. One flag crossing per call, no message.
 *
 * <p>Blocks whose L x L pieces do not fit the node buffer go through it in chunks of whole elements and lines, each
 * chunk's pieces in one of two sets by the chunk's parity: a rank rewrites a set two chunks on, after it awaited every
 * node-mate's raise of the chunk in between, which that node-mate raised after it read its pieces of the set (every
 * rank both writes and reads, so flag 0 alone orders the reuse: one crossing per chunk). Where the node buffer
 * cannot hold two sets of L x L pieces of one unit (128 bytes and whole elements) the shape is refused. Blocks of which
 * all L fit in a flag's line ({@link NodeBuffer#PAYLOAD_BYTES}) ride in the raise itself (decision 0202): no slot.
 *
 * <p>Rank order: block j is combined once, by rank j, as {@code c0 op (c1 op (... op cL-1))} of the node's
 * contributions, so a non-commutative operator is served. Nodes = 1, at least two ranks; only where the node region is
 * enabled. Stateless.
 */
public final class NodeReduceScatter extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "reduce-scatter.shm";
    /** Raised by a rank after it wrote its pieces of a chunk. */
    static final int WRITTEN = 0;

    public NodeReduceScatter() {
        super(ID, Collective.REDUCE_SCATTER);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        Optional<String> oneNode = OneNode.ofSeveralRanks(shape);
        if (oneNode.isPresent()) {
            return oneNode;
        }
        int l = shape.size();
        if (!fitsOnce(shape) && 2L * l * l * NodeAllreduce.lineMultiple(shape.elementBytes()) > NodeBuffer.BYTES) {
            return Optional.of("two sets of L x L pieces of " + NodeAllreduce.lineMultiple(shape.elementBytes())
                    + " bytes for " + l + " ranks exceed the node buffer's " + NodeBuffer.BYTES + " bytes");
        }
        return NodeAllreduce.countableChunks("block", shape, chunks(shape));
    }

    /** Whether the node's L x L pieces of whole blocks fit the node buffer: one chunk, one set. */
    private static boolean fitsOnce(Shape shape) {
        long l = shape.size();
        return l * l * NodeAllreduce.wholeUnits(shape) <= NodeBuffer.BYTES;
    }

    /** Bytes of a block per chunk: the whole block where it fits, else two sets of L x L pieces fill the buffer. */
    static long chunkBytes(Shape shape) {
        if (fitsOnce(shape)) {
            return NodeAllreduce.wholeUnits(shape);
        }
        long l = shape.size();
        long unit = NodeAllreduce.lineMultiple(shape.elementBytes());
        long fit = NodeBuffer.BYTES / (2 * l * l);
        return Math.max(unit, fit - fit % unit);
    }

    private static long chunks(Shape shape) {
        long b = shape.blockBytes();
        long chunk = chunkBytes(shape);
        return Math.max(1, (b + chunk - 1) / chunk);
    }

    /** Whether every rank's L blocks ride in its raise (decision 0202). */
    private static boolean inFlagLine(Shape shape) {
        return shape.blockBytes() > 0 && shape.blockBytes() * shape.size() <= NodeBuffer.PAYLOAD_BYTES;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (b == 0) {
            // Nothing to combine, but one crossing all the same: a node-mate that called with another count meets
            // this call's digest at its await and fails with a mismatch, rather than waiting for its deadline.
            p.publish(WRITTEN);
            awaitAll(p, l, rank, WRITTEN, 1);
            return p.build();
        }
        if (inFlagLine(shape)) {
            inFlagLine(p, l, rank, b);
            return p.build();
        }
        long chunk = chunkBytes(shape);
        int chunks = (int) chunks(shape);
        long temp = p.allocateTemp(Math.min(chunk, b));
        for (int c = 0; c < chunks; c++) {
            long at = c * chunk;
            long len = Math.min(chunk, b - at);
            Pieces set = new Pieces(c % 2 * (long) l * l * chunk, l, chunk);
            // This set last held chunk c - 2, whose pieces every node-mate had read before its raise of chunk c - 1,
            // which this rank awaited: no flag of its own says so.
            for (int j = 0; j < l; j++) {
                if (j != rank) {
                    p.nodeWrite(Buffer.SEND, j * b + at, set.at(rank, j), len);
                }
            }
            p.publish(WRITTEN);
            // c0 op (c1 op (... op cL-1)), folded from the right into RECV.
            int last = l - 1;
            if (rank == last) {
                p.copy(Buffer.SEND, rank * b + at, Buffer.RECV, at, len);
            } else {
                p.awaitFlag(last, WRITTEN, c + 1).nodeRead(set.at(last, rank), Buffer.RECV, at, len);
            }
            for (int q = l - 2; q >= 0; q--) {
                if (q == rank) {
                    p.reduce(Buffer.SEND, rank * b + at, Buffer.RECV, at, len);
                } else {
                    p.awaitFlag(q, WRITTEN, c + 1).nodeRead(set.at(q, rank), Buffer.TEMP, temp, len);
                    p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, len);
                }
            }
        }
        return p.build();
    }

    /** Every block of every rank in its raise: each node-mate's L blocks land in TEMP, block {@code rank} is used. */
    private static void inFlagLine(ProgramBuilder p, int l, int rank, long b) {
        p.publish(WRITTEN, Buffer.SEND, 0, l * b);
        long temp = p.allocateTemp(l * b);
        int last = l - 1;
        if (rank == last) {
            p.copy(Buffer.SEND, rank * b, Buffer.RECV, 0, b);
        } else {
            p.awaitFlag(last, WRITTEN, 1, Buffer.TEMP, temp, l * b);
            p.copy(Buffer.TEMP, temp + rank * b, Buffer.RECV, 0, b);
        }
        for (int q = l - 2; q >= 0; q--) {
            if (q == rank) {
                p.reduce(Buffer.SEND, rank * b, Buffer.RECV, 0, b);
            } else {
                p.awaitFlag(q, WRITTEN, 1, Buffer.TEMP, temp, l * b);
                p.reduce(Buffer.TEMP, temp + rank * b, Buffer.RECV, 0, b);
            }
        }
    }

    private static void awaitAll(ProgramBuilder p, int l, int rank, int flag, int count) {
        for (int q = 0; q < l; q++) {
            if (q != rank) {
                p.awaitFlag(q, flag, count);
            }
        }
    }

    /** Piece {@code j} (for rank j) of rank {@code q}'s slot in one set: L slots of L pieces of a chunk each. */
    private record Pieces(long base, int l, long chunk) {
        long at(int q, int j) {
            return base + ((long) q * l + j) * chunk;
        }
    }

    /** No message: the bytes move in node steps, which the simulator prices (copies and flag crossings). */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "node steps: (L-1) b written, (L-1) b read and combined"
                + " per rank; one flag crossing per chunk of the node buffer");
    }

    @Override
    public String summary() {
        return "shared-memory reduce-scatter on one node in node steps: every rank writes its node-mates' blocks into"
                + " the node buffer, rank j reads and combines block j (chunked through the buffer, tiny blocks in the"
                + " flag's line); rank order, so any operator; nodes = 1; decision 0222";
    }
}
