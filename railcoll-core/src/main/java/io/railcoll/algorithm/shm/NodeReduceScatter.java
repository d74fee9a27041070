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
 * {@code reduce-scatter.shm}: a one-node reduce-scatter of equal blocks in node steps (decisions 0222, 0229), the
 * first half of {@code allreduce.shm}'s large form. Every rank copies the blocks its node-mates need (all but its own)
 * into its slot of the node buffer and raises flag 0; rank j waits for each node-mate's raise, reads block j of its
 * slot and combines it into RECV. No message.
 *
 * <p><b>Pipeline.</b> Blocks of more than {@link #PIPELINE_BYTES}, or whose L x L pieces do not fit the node buffer,
 * go through it in chunks of whole elements and lines (at most {@code PIPELINE_BYTES} a piece), and a rank writes
 * its pieces of up to d chunks ahead of the one it combines: a node-mate that is late finds them waiting, and a rank
 * that is early writes instead of waiting for it. Chunk c uses set {@code c mod S} of the S sets of L x L pieces the
 * buffer holds, and {@code d = min(S/2 - 1, AHEAD_BYTES / ((L-1) chunk))}. No flag but the one raise per chunk orders
 * the reuse of a set (here d = 1, S = 4):
 * <pre>
 *   rank q, chunk by chunk:   W(0) W(1) | C(0) W(2) | C(1) W(3) | C(2) W(4) ...   (W = write + raise, C = combine)
 *   W(k) comes after C(k-d-1), which awaited every node-mate's raise of chunk k-d-1,
 *   which that node-mate made after its own C(k-2d-2): set k mod S (S >= 2d+2) last held chunk k-S, all of it read.
 * </pre>
 * With 16 KiB chunks: 1x2 S = 32, d = 15; 1x3 S = 14, d = 6; 1x4 S = 8, d = 3; 1x5 d = 1; from 6 ranks d = 0.
 * Where the node buffer holds only two sets the lookahead is 0 (each chunk is written after the one before is
 * combined, decision 0222's schedule); where two sets of L x L pieces of one unit (128 bytes and whole elements) do
 * not fit, the shape is refused. The lookahead stops at {@link #AHEAD_BYTES} written ahead, so that what a rank
 * combines was written recently enough to be in its writer's cache. Blocks of which all L fit in a flag's line
 * ({@link NodeBuffer#PAYLOAD_BYTES}) ride in the raise itself (decision 0202): no slot.
 *
 * <p>Rank order: block j is combined once, by rank j, as {@code c0 op (c1 op (... op cL-1))} of the node's
 * contributions, so a non-commutative operator is served. With a commutative one, rank L-1 reads rank L-2's piece
 * straight into RECV and combines its own on top, {@code cL-1 op cL-2}, the same bits as {@code cL-2 op cL-1}: a copy
 * of its block saved, on the rank that has the most to do. Nodes = 1, at least two ranks; only where the node region
 * is enabled. Stateless.
 */
public final class NodeReduceScatter extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "reduce-scatter.shm";
    /** Raised by a rank after it wrote its pieces of a chunk. */
    static final int WRITTEN = 0;
    /**
     * Bytes of a piece above which a block goes through the node buffer in chunks even where it fits whole, so that
     * node-mates write one chunk while they combine the one before (decision 0229: 1x2 and 1x4, 16 KiB to 1 MiB).
     */
    static final long PIPELINE_BYTES = 16 * 1024;
    /**
     * Bytes a rank writes ahead of the chunk it combines, at most: on a host where ranks outnumber free processors a
     * wait for a node-mate costs a wake-up, and each chunk written ahead is one wait fewer (1x3, 1 MiB, load 17: one
     * chunk ahead took 103-141 ms, where the ring took 9-35; decision 0229).
     */
    static final long AHEAD_BYTES = 256 * 1024;

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
        if (!fitsOnce(shape) && setBytes(shape, NodeAllreduce.lineMultiple(shape.elementBytes())) * 2
                > NodeBuffer.BYTES) {
            return Optional.of("two sets of L x L pieces of " + NodeAllreduce.lineMultiple(shape.elementBytes())
                    + " bytes for " + l + " ranks exceed the node buffer's " + NodeBuffer.BYTES + " bytes");
        }
        return NodeAllreduce.countableChunks("block", shape, NodeAllreduce.chunks(shape, chunkBytes(shape)));
    }

    /** Whether the block is one chunk: short enough not to pipeline, and the node's L x L whole pieces fit. */
    private static boolean fitsOnce(Shape shape) {
        return shape.blockBytes() <= PIPELINE_BYTES && setBytes(shape, NodeAllreduce.wholeUnits(shape))
                <= NodeBuffer.BYTES;
    }

    /** Bytes of one set of L x L pieces of {@code pieceBytes}: every rank's slot of a piece for every rank. */
    private static long setBytes(Shape shape, long pieceBytes) {
        long l = shape.size();
        return l * l * pieceBytes;
    }

    /**
     * Chunks written ahead of the one combined: as many as the sets of {@code chunk}-byte pieces the node buffer
     * holds allow (S >= 2d + 2), and at most {@link #AHEAD_BYTES} of pieces.
     */
    static int lookahead(Shape shape, long chunk) {
        long byReuse = sets(shape, chunk) / 2 - 1;
        long byBytes = AHEAD_BYTES / ((shape.size() - 1L) * chunk);
        return (int) Math.max(0, Math.min(byReuse, byBytes));
    }

    /** Sets of L x L pieces of {@code chunk} bytes the node buffer holds. */
    private static long sets(Shape shape, long chunk) {
        return NodeBuffer.BYTES / setBytes(shape, chunk);
    }

    /**
     * Bytes of a block per chunk: the whole block where it fits once, else at most {@link #PIPELINE_BYTES}, with two
     * sets of L x L pieces in the node buffer at least.
     */
    static long chunkBytes(Shape shape) {
        if (fitsOnce(shape)) {
            return NodeAllreduce.wholeUnits(shape);
        }
        long unit = NodeAllreduce.lineMultiple(shape.elementBytes());
        long fit = Math.min(PIPELINE_BYTES, NodeBuffer.BYTES / (2 * setBytes(shape, 1)));
        return Math.max(unit, fit - fit % unit);
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
        int ahead = lookahead(shape, chunk);
        Chunks chunks = new Chunks(l, b, chunk, (int) NodeAllreduce.chunks(shape, chunk), (int) sets(shape, chunk));
        long temp = p.allocateTemp(Math.min(chunk, b));
        for (int c = 0; c < Math.min(ahead, chunks.count()); c++) {
            write(p, chunks, rank, c);
        }
        for (int c = 0; c < chunks.count(); c++) {
            if (c + ahead < chunks.count()) {
                // Set (c + ahead) mod S last held chunk c + ahead - S, which every node-mate read before it raised
                // chunk c - 1 (S >= 2 ahead + 2), and this rank awaited that raise while it combined chunk c - 1.
                write(p, chunks, rank, c + ahead);
            }
            combine(p, chunks, rank, c, temp, shape.commutative());
        }
        return p.build();
    }

    /** W(c): this rank's piece of chunk {@code c} for every node-mate, into its slot of the chunk's set; one raise. */
    private static void write(ProgramBuilder p, Chunks chunks, int rank, int c) {
        for (int j = 0; j < chunks.l(); j++) {
            if (j != rank) {
                p.nodeWrite(Buffer.SEND, chunks.block(j, c), chunks.piece(c, rank, j), chunks.length(c));
            }
        }
        p.publish(WRITTEN);
    }

    /** C(c): chunk {@code c} of this rank's block, {@code c0 op (c1 op (... op cL-1))}, folded from the right. */
    private static void combine(ProgramBuilder p, Chunks chunks, int rank, int c, long temp, boolean commutative) {
        int l = chunks.l();
        long at = chunks.offset(c);
        long len = chunks.length(c);
        long own = chunks.block(rank, c);
        int last = l - 1;
        int next;
        if (rank != last) {
            p.awaitFlag(last, WRITTEN, c + 1).nodeRead(chunks.piece(c, last, rank), Buffer.RECV, at, len);
            next = l - 2;
        } else if (commutative) {
            // cL-1 op cL-2 is cL-2 op cL-1 here: rank L-2's piece straight into RECV, this rank's own on top.
            p.awaitFlag(last - 1, WRITTEN, c + 1).nodeRead(chunks.piece(c, last - 1, rank), Buffer.RECV, at, len);
            p.reduce(Buffer.SEND, own, Buffer.RECV, at, len);
            next = l - 3;
        } else {
            p.copy(Buffer.SEND, own, Buffer.RECV, at, len);
            next = l - 2;
        }
        for (int q = next; q >= 0; q--) {
            if (q == rank) {
                p.reduce(Buffer.SEND, own, Buffer.RECV, at, len);
            } else {
                p.awaitFlag(q, WRITTEN, c + 1).nodeRead(chunks.piece(c, q, rank), Buffer.TEMP, temp, len);
                p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, len);
            }
        }
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

    /**
     * Where chunk {@code c} of the blocks lies: {@code count} chunks of {@code chunk} bytes of {@code b}-byte blocks,
     * chunk c in set {@code c mod sets}, a set being L slots (one per writer) of L pieces (one per reader).
     */
    private record Chunks(int l, long b, long chunk, int count, int sets) {
        /** Offset of chunk {@code c} within a block. */
        long offset(int c) {
            return c * chunk;
        }

        /** Bytes of chunk {@code c} (the last may be short). */
        long length(int c) {
            return Math.min(chunk, b - offset(c));
        }

        /** Offset in SEND of chunk {@code c} of block {@code j}. */
        long block(int j, int c) {
            return j * b + offset(c);
        }

        /** Node-buffer offset of writer {@code q}'s piece for reader {@code j} in chunk {@code c}'s set. */
        long piece(int c, int q, int j) {
            return ((long) (c % sets) * l * l + (long) q * l + j) * chunk;
        }
    }

    /** No message: the bytes move in node steps, which the simulator prices (copies and flag crossings). */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "node steps: (L-1) b written, (L-1) b read and combined"
                + " per rank; one flag crossing per chunk of the node buffer, the next chunk written while one is"
                + " combined");
    }

    @Override
    public String summary() {
        return "shared-memory reduce-scatter on one node in node steps: every rank writes its node-mates' blocks into"
                + " the node buffer, rank j reads and combines block j (pipelined in chunks through the buffer, tiny"
                + " blocks in the flag's line); rank order, so any operator; nodes = 1; decisions 0222, 0229";
    }
}
