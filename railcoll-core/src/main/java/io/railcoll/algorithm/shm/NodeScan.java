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
 * {@code scan.shm} and {@code exscan.shm}: a one-node prefix in node steps (decision 0222). Ranks 0..L-2 copy their
 * vector into their slot of the node buffer and raise flag 0 (rank L-1's is read by no one); rank r waits for the
 * raises of ranks r-1 down to 0 and combines their slots into its own vector: one flag crossing, no message. Rank r
 * reads r vectors, so the last rank reads L-1: meant for nodes of few ranks, where a log-depth exchange would cross
 * the node more often for nothing (on 2 ranks one vector written and one read).
 *
 * <p>Vectors of more than {@link #PIPELINE_BYTES}, or whose L-1 slots do not fit the node buffer, go through it in
 * chunks of whole elements and lines (at most {@link #PIPELINE_BYTES}), so that readers combine one chunk while their
 * writers copy the next in; chunk c takes set c mod S of the S sets of L-1 slots the buffer holds, and a writer
 * rewrites a set only after every rank above it raised flag 1 for the chunk that set held last (raised after it read
 * that chunk's slots). Vectors of up to {@link NodeBuffer#PAYLOAD_BYTES} ride in the raise itself (decision 0202): no
 * slot.
 *
 * <p>Rank order: rank r's result is {@code c0 op (c1 op (... op cr))} (exclusive: up to {@code c(r-1)}), combined from
 * the right, so a non-commutative operator is served; with a commutative one the inclusive scan reads rank r-1's slot
 * straight into RECV and combines its own vector on top, which saves a copy of the vector. Rank 0 of the exclusive
 * scan never writes RECV (MPI leaves it undefined). Nodes = 1, at least two ranks; only where the node region is
 * enabled. Stateless.
 */
public final class NodeScan extends AlgorithmBase implements NodeRegionUser {
    /** Raised by ranks 0..L-2 after they wrote a chunk of their vector. */
    static final int WRITTEN = 0;
    /** Raised by ranks 1..L-1 after they read a chunk's slots, where a later chunk rewrites that chunk's set. */
    static final int READ = 1;
    private final boolean exclusive;

    private NodeScan(Collective collective) {
        super(collective.id() + ".shm", collective);
        this.exclusive = collective == Collective.EXSCAN;
    }

    /** {@code scan.shm}: rank r gets {@code c0 op ... op cr}. */
    public static NodeScan inclusive() {
        return new NodeScan(Collective.SCAN);
    }

    /** {@code exscan.shm}: rank r gets {@code c0 op ... op c(r-1)}. */
    public static NodeScan exclusive() {
        return new NodeScan(Collective.EXSCAN);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        Optional<String> oneNode = OneNode.ofSeveralRanks(shape);
        if (oneNode.isPresent()) {
            return oneNode;
        }
        int l = shape.size();
        if ((l - 1L) * NodeAllreduce.lineMultiple(shape.elementBytes()) > NodeBuffer.BYTES) {
            return Optional.of((l - 1) + " slots of " + NodeAllreduce.lineMultiple(shape.elementBytes())
                    + " bytes (one unit of lines and elements each) exceed the node buffer's " + NodeBuffer.BYTES
                    + " bytes");
        }
        return NodeAllreduce.countableChunks("vector", shape, NodeAllreduce.chunks(shape, chunkBytes(shape)));
    }

    /**
     * Bytes per chunk above which a vector goes through the node buffer in chunks even where it would fit: a reader
     * combines chunk c while its writers copy chunk c + 1 in, where one whole vector would be written before any
     * reader starts (1x2, 1 MiB: a flag crossing per 64 KiB against a 1 MiB write in a row).
     */
    static final long PIPELINE_BYTES = 64 * 1024;

    /** Whether the L-1 slots of whole vectors fit the node buffer, and the vector is not long enough to pipeline. */
    private static boolean fitsOnce(Shape shape) {
        return shape.blockBytes() <= PIPELINE_BYTES
                && (shape.size() - 1L) * NodeAllreduce.wholeUnits(shape) <= NodeBuffer.BYTES;
    }

    /**
     * Bytes of the vector per chunk: the whole vector where it fits once, else at most {@link #PIPELINE_BYTES}, and
     * two sets of L-1 slots at least in the node buffer.
     */
    static long chunkBytes(Shape shape) {
        if (fitsOnce(shape)) {
            return NodeAllreduce.wholeUnits(shape);
        }
        long unit = NodeAllreduce.lineMultiple(shape.elementBytes());
        long fit = Math.min(PIPELINE_BYTES, NodeBuffer.BYTES / (2 * (shape.size() - 1L)));
        return Math.max(unit, fit - fit % unit);
    }

    /** Sets of L-1 slots the node buffer holds for {@code chunk}-byte chunks: chunk c uses set c mod sets. */
    private static int sets(Shape shape, long chunk, long chunks) {
        long fit = NodeBuffer.BYTES / ((shape.size() - 1L) * chunk);
        return (int) Math.max(1, Math.min(chunks, fit));
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        long b = shape.blockBytes();
        boolean commutative = shape.commutative();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (b == 0) {
            // Nothing to combine, but one crossing all the same: a node-mate that called with another count meets
            // this call's digest at its await and fails with a mismatch, rather than waiting for its deadline.
            p.publish(WRITTEN);
            for (int q = 0; q < l; q++) {
                if (q != rank) {
                    p.awaitFlag(q, WRITTEN, 1);
                }
            }
            return p.build();
        }
        if (b <= NodeBuffer.PAYLOAD_BYTES) {
            inFlagLine(p, l, rank, b);
            return p.build();
        }
        long chunk = chunkBytes(shape);
        int chunks = (int) NodeAllreduce.chunks(shape, chunk);
        int sets = sets(shape, chunk, chunks);
        long temp = rank > (exclusive ? 1 : 0) ? p.allocateTemp(Math.min(chunk, b)) : 0;
        for (int c = 0; c < chunks; c++) {
            long at = c * chunk;
            long len = Math.min(chunk, b - at);
            long set = c % sets * (l - 1L) * chunk;
            if (rank < l - 1) {
                if (c >= sets) {
                    // This set last held chunk c - sets: every rank above raised READ after reading this slot of it.
                    for (int q = rank + 1; q < l; q++) {
                        p.awaitFlag(q, READ, c - sets + 1);
                    }
                }
                p.nodeWrite(Buffer.SEND, at, set + rank * chunk, len).publish(WRITTEN);
            }
            if (rank == 0) {
                if (!exclusive) {
                    p.copy(Buffer.SEND, at, Buffer.RECV, at, len);
                }
                continue;
            }
            int first = exclusive ? rank - 1 : rank;
            if (exclusive) {
                p.awaitFlag(first, WRITTEN, c + 1).nodeRead(set + first * chunk, Buffer.RECV, at, len);
                foldFromTheRight(p, first - 1, set, chunk, c, temp, at, len);
            } else if (commutative) {
                // Any order will do: rank r-1's chunk straight into RECV, then this rank's own on top, no copy.
                p.awaitFlag(rank - 1, WRITTEN, c + 1).nodeRead(set + (rank - 1) * chunk, Buffer.RECV, at, len);
                p.reduce(Buffer.SEND, at, Buffer.RECV, at, len);
                foldFromTheRight(p, rank - 2, set, chunk, c, temp, at, len);
            } else {
                p.copy(Buffer.SEND, at, Buffer.RECV, at, len);
                foldFromTheRight(p, rank - 1, set, chunk, c, temp, at, len);
            }
            if (c + sets < chunks) {
                p.publish(READ);
            }
        }
        return p.build();
    }

    /** RECV = c0 op (c1 op (... op (c{from} op RECV))): ranks {@code from} down to 0's chunk c, each through TEMP. */
    private static void foldFromTheRight(ProgramBuilder p, int from, long set, long chunk, int c, long temp, long at,
                                         long len) {
        for (int q = from; q >= 0; q--) {
            p.awaitFlag(q, WRITTEN, c + 1).nodeRead(set + q * chunk, Buffer.TEMP, temp, len);
            p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, len);
        }
    }

    /** Vectors of up to {@link NodeBuffer#PAYLOAD_BYTES}: each rides in its owner's raise. */
    private void inFlagLine(ProgramBuilder p, int l, int rank, long b) {
        if (rank < l - 1) {
            p.publish(WRITTEN, Buffer.SEND, 0, b);
        }
        if (rank == 0) {
            if (!exclusive) {
                p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            }
            return;
        }
        int first = exclusive ? rank - 1 : rank;
        if (exclusive) {
            p.awaitFlag(first, WRITTEN, 1, Buffer.RECV, 0, b);
        } else {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
        }
        if (first > 0) {
            long temp = p.allocateTemp(b);
            for (int q = first - 1; q >= 0; q--) {
                p.awaitFlag(q, WRITTEN, 1, Buffer.TEMP, temp, b);
                p.reduce(Buffer.TEMP, temp, Buffer.RECV, 0, b);
            }
        }
    }

    /** No message: the bytes move in node steps, which the simulator prices (copies and flag crossings). */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "node steps: b written by ranks 0..L-2, r b read and"
                + " combined by rank r; one flag crossing (two per chunk where the vectors outgrow the node buffer)");
    }

    @Override
    public String summary() {
        return (exclusive ? "exclusive" : "inclusive") + " prefix on one node in node steps: ranks 0..L-2 write their"
                + " vector into the node buffer, rank r reads and combines ranks 0..r-1's (chunked through the buffer,"
                + " small vectors in the flag's line); rank order, so any operator; few ranks; nodes = 1;"
                + " decision 0222";
    }
}
