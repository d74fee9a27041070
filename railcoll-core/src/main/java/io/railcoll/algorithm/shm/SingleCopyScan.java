package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.ChosenByRuleOnly;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * {@code scan.shm-single-copy} and {@code exscan.shm-single-copy}: a one-node prefix for large vectors by single copy
 * (decision 0227), a chain along the ranks pulled straight between their own buffers, with no node buffer in between.
 * Every rank publishes {@link SingleCopy#READY} (its SEND and RECV are announced then); then, piece by piece (at most
 * {@link #PIECE_BYTES}, whole elements), so that rank r works on piece i while rank r-1 works on piece i+1:
 * <table>
 *   <caption>what rank r moves and combines (P(k) = c0 op ... op ck; h = half the vector)</caption>
 *   <tr><th>rank</th><th>inclusive scan</th><th>exclusive scan</th></tr>
 *   <tr><td>0</td><td>copies its SEND into RECV; for [0, h) pulls c1 from rank 1's SEND, combines c0 op c1 and
 *       pushes it into rank 1's RECV</td><td>pushes [0, h) of its SEND into rank 1's RECV (its own RECV is untouched:
 *       MPI leaves it undefined)</td></tr>
 *   <tr><td>1</td><td>for [h, b) pulls c0 from rank 0's SEND, combines its own c1</td><td>for [h, b) pulls c0 from
 *       rank 0's SEND into RECV</td></tr>
 *   <tr><td>2</td><td>pulls P(1) from rank 1's RECV, combines c2</td><td>pulls c0 from rank 0's SEND and c1 from rank
 *       1's SEND, combines them</td></tr>
 *   <tr><td>r</td><td>pulls P(r-1) from rank r-1's RECV, combines cr</td><td>pulls P(r-2) from rank r-1's RECV and
 *       c(r-1) from its SEND, combines them</td></tr>
 * </table>
 * Whoever writes a piece of a RECV that the next rank pulls raises {@link #PREFIX} once per piece (rank 0 for rank 1's
 * first half, rank r for the rest); the next awaits that raise. Rank 0 takes half of rank 1's work because otherwise
 * it would only wait, and a rank that waits long yields its processor or sleeps: on a loaded host a time slice per
 * call. Then the single-copy ending ({@link SingleCopy#finish}): nobody returns while a node-mate may still read or
 * write its buffers.
 *
 * <p>Per rank from 2 on: b pulled and b combined (exclusive: 2b pulled), whatever L, where {@code scan.shm} has rank r
 * read r vectors through the node buffer; ranks 0 and 1 move b/2 each (the inclusive scan's rank 0 also copies b); L-1
 * pieces of delay down the chain, one system call and flag raise per piece. Each prefix is {@code P(r-1) op cr} in
 * rank order, a left fold, so any operator; with a commutative one the inclusive scan pulls P(r-1) straight into RECV
 * and combines its own vector on top (which saves a copy of b), the same bits as IEEE addition and the order-free
 * operators give either way. The bits are those of a sequential {@code ((c0 op c1) op c2) ...}, not {@code scan.shm}'s
 * fold from the right. Nodes = 1, at least two ranks; only where the node agreed on cross-memory attach; chosen by a
 * rule or when forced, never by the model ({@link ChosenByRuleOnly}: on this 2-processor host its times swung from
 * 0.5x to 20x of the node-buffer prefixes' from run to run). Stateless.
 */
public final class SingleCopyScan extends SingleCopyAlgorithm implements ChosenByRuleOnly {
    /** Raised by rank r once per piece of its RECV that holds its prefix, where rank r+1 pulls it. */
    static final int PREFIX = 2;
    /**
     * The most bytes of a vector per piece: the unit of the chain's pipeline and of a pulled piece that is combined
     * while it is still in cache; larger only where a vector would be more pieces than a flag counts in one call.
     */
    static final long PIECE_BYTES = 64 * 1024;
    private final boolean exclusive;

    private SingleCopyScan(Collective collective, String copies) {
        super(collective.id() + ".shm-single-copy", collective, copies);
        this.exclusive = collective == Collective.EXSCAN;
    }

    /** {@code scan.shm-single-copy}: rank r gets {@code c0 op ... op cr}. */
    public static SingleCopyScan inclusive() {
        return new SingleCopyScan(Collective.SCAN, "b pulled and b combined per rank, down a chain of L-1 pieces");
    }

    /** {@code exscan.shm-single-copy}: rank r gets {@code c0 op ... op c(r-1)}. */
    public static SingleCopyScan exclusive() {
        return new SingleCopyScan(Collective.EXSCAN, "2b pulled and b combined per rank from rank 2 on, down a chain"
                + " of L-1 pieces");
    }

    /** Bytes per piece: whole elements, at most {@link #PIECE_BYTES} unless the vector has too many of those. */
    static long pieceBytes(Shape shape) {
        long e = shape.elementBytes();
        // One piece more where rank 0's share ends inside one.
        long fewest = (shape.blockBytes() + NodeBuffer.MAX_COUNT - 2) / (NodeBuffer.MAX_COUNT - 1);
        long piece = Math.max(PIECE_BYTES, fewest);
        return Math.max(e, (piece + e - 1) / e * e);
    }

    /**
     * Where rank 0's share of rank 1's result ends: half the vector in whole elements. Rank 0 has little else to do,
     * and a rank with nothing to do waits for its node-mate's last raise long enough to yield its processor or sleep,
     * which on a loaded host costs a time slice per call; halves keep the two busy about as long.
     */
    static long share(Shape shape) {
        long e = shape.elementBytes();
        return shape.blockBytes() / e / 2 * e;
    }

    /** Piece boundaries: rank 0's share {@code [0, share)} cut into pieces, then the rest; {@code [0, ..., b]}. */
    static long[] pieces(Shape shape) {
        long b = shape.blockBytes();
        long piece = pieceBytes(shape);
        long h = share(shape);
        int first = (int) ((h + piece - 1) / piece);
        int rest = (int) ((b - h + piece - 1) / piece);
        long[] at = new long[first + rest + 1];
        for (int i = 0; i < first; i++) {
            at[i] = i * piece;
        }
        for (int i = 0; i <= rest; i++) {
            at[first + i] = Math.min(b, h + i * piece);
        }
        return at;
    }

    /** How many of {@code pieces}' pieces lie in rank 0's share. */
    private static int sharePieces(long[] pieces, long share) {
        int k = 0;
        while (k < pieces.length - 1 && pieces[k + 1] <= share) {
            k++;
        }
        return k;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.publish(SingleCopy.READY);
        if (b == 0) {
            // Nothing to combine, but one crossing all the same, so that a node-mate that called with another count
            // sees this call's digest at its await and fails with a mismatch rather than at its deadline.
            for (int d = 1; d < l; d++) {
                p.awaitFlag((rank + d) % l, SingleCopy.READY, 1);
            }
            return p.build();
        }
        long[] pieces = pieces(shape);
        int k = sharePieces(pieces, share(shape));
        if (exclusive) {
            exclusive(p, shape, rank, pieces, k);
        } else {
            inclusive(p, shape, rank, pieces, k);
        }
        return SingleCopy.finish(p, rank, l).build();
    }

    /**
     * Rank 0 copies its vector and computes rank 1's result for its share, pushed into rank 1's RECV (raising
     * {@link #PREFIX} per piece where rank 2 pulls it); rank 1 the rest; rank r > 1 every piece, each after the raise of
     * whoever wrote that piece of rank r-1's RECV.
     */
    private static void inclusive(ProgramBuilder p, Shape shape, int rank, long[] pieces, int k) {
        long b = shape.blockBytes();
        int l = shape.size();
        long temp = p.allocateTemp(Math.min(pieceBytes(shape), b));
        if (rank == 0) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            if (k > 0) {
                p.awaitFlag(1, SingleCopy.READY, 1);
            }
            for (int i = 0; i < k; i++) {
                long at = pieces[i];
                long n = pieces[i + 1] - at;
                // c0 op c1 into TEMP (c1 pulled, c0 the left operand), pushed as rank 1's result.
                p.peerRead(1, Buffer.SEND, at, Buffer.TEMP, temp, n);
                p.reduce(Buffer.SEND, at, Buffer.TEMP, temp, n);
                p.peerWrite(Buffer.TEMP, temp, 1, at, n);
                if (l > 2) {
                    p.publish(PREFIX);
                }
            }
            return;
        }
        boolean commutative = shape.commutative();
        boolean raises = rank < l - 1;
        // Rank 1 pulls P(0) = c0 from rank 0's SEND, ready once announced; the others their predecessor's RECV.
        Buffer from = rank == 1 ? Buffer.SEND : Buffer.RECV;
        p.awaitFlag(rank - 1, SingleCopy.READY, 1);
        for (int i = rank == 1 ? k : 0; i < pieces.length - 1; i++) {
            long at = pieces[i];
            long n = pieces[i + 1] - at;
            if (rank == 2 && i < k) {
                p.awaitFlag(0, PREFIX, i + 1); // rank 0 wrote this piece of rank 1's RECV
            } else if (rank == 2) {
                p.awaitFlag(1, PREFIX, i - k + 1);
            } else if (rank > 2) {
                p.awaitFlag(rank - 1, PREFIX, i + 1);
            }
            if (commutative) {
                p.peerRead(rank - 1, from, at, Buffer.RECV, at, n);
                p.reduce(Buffer.SEND, at, Buffer.RECV, at, n);
            } else {
                // P(r-1) op cr: the left operand is the pulled prefix.
                p.peerRead(rank - 1, from, at, Buffer.TEMP, temp, n);
                p.copy(Buffer.SEND, at, Buffer.RECV, at, n);
                p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, n);
            }
            if (raises) {
                p.publish(PREFIX);
            }
        }
    }

    /**
     * Rank 0 pushes its share of c0 into rank 1's RECV, rank 1 pulls the rest (no one reads rank 1's RECV: rank 2
     * pulls c0 from rank 0's SEND); rank r > 1 every piece.
     */
    private static void exclusive(ProgramBuilder p, Shape shape, int rank, long[] pieces, int k) {
        long b = shape.blockBytes();
        if (rank == 0) {
            if (k > 0) {
                p.awaitFlag(1, SingleCopy.READY, 1);
            }
            for (int i = 0; i < k; i++) {
                p.peerWrite(Buffer.SEND, pieces[i], 1, pieces[i], pieces[i + 1] - pieces[i]);
            }
            return;
        }
        // Rank r's RECV is pulled by rank r+1 from rank 3 on.
        boolean raises = rank >= 2 && rank < shape.size() - 1;
        long temp = rank >= 2 ? p.allocateTemp(Math.min(pieceBytes(shape), b)) : 0;
        p.awaitFlag(rank - 1, SingleCopy.READY, 1);
        if (rank == 2) {
            p.awaitFlag(0, SingleCopy.READY, 1);
        }
        for (int i = rank == 1 ? k : 0; i < pieces.length - 1; i++) {
            long at = pieces[i];
            long n = pieces[i + 1] - at;
            if (rank == 1) {
                p.peerRead(0, Buffer.SEND, at, Buffer.RECV, at, n);
                continue;
            }
            // P(r-2) op c(r-1): the prefix, pulled into TEMP, is the left operand.
            if (rank == 2) {
                p.peerRead(0, Buffer.SEND, at, Buffer.TEMP, temp, n);
            } else {
                p.awaitFlag(rank - 1, PREFIX, i + 1);
                p.peerRead(rank - 1, Buffer.RECV, at, Buffer.TEMP, temp, n);
            }
            p.peerRead(rank - 1, Buffer.SEND, at, Buffer.RECV, at, n);
            p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, n);
            if (raises) {
                p.publish(PREFIX);
            }
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return (exclusive ? "exclusive" : "inclusive") + " prefix on one node by single copy: rank r pulls its"
                + " predecessor's prefix (exclusive: and its vector) with cross-memory attach, piece by piece down a"
                + " chain, and combines in rank order (no node buffer); any operator; nodes = 1; only where the node"
                + " agreed on cross-memory attach; decision 0227";
    }
}
