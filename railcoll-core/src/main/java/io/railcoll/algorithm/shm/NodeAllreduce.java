package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.EvenSplit;
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
 * {@code allreduce.shm}: a one-node all-reduce in node steps (decision 0170), a schedule the engine runs like any
 * other. Every rank copies its vector into its own slot of the node buffer and raises flag 0; then
 * <ul>
 *   <li><b>small vectors</b> (the node's contributions at most {@link #READ_ALL_BYTES}): every rank waits for every
 *       node-mate's raise, reads all L slots and combines the whole vector itself: one flag crossing per call;</li>
 *   <li><b>larger vectors</b>: rank j reads slice j (1/L of the vector, whole elements) of every slot, combines it,
 *       writes the result into the result area and raises flag 1; every rank waits for every raise of flag 1 and
 *       reads the whole result (a reduce-scatter and an all-gather in shared memory: each rank combines b/L, reads
 *       about 2b and writes about b + b/L).</li>
 * </ul>
 * Vectors larger than the node buffer holds go through it in chunks of at most {@code BYTES / (L + 1)}, each chunk as
 * above. A slot is rewritten in the next chunk only after this rank saw every node-mate's flag 1 of this chunk
 * (raised after that node-mate read its slices of every slot), and the result area only after every node-mate's
 * flag 0 of the next chunk (raised after it read this chunk's result), so no flag beyond these two is needed.
 *
 * <p>Identical bits and rank order: every element is combined once, by one rank, as
 * {@code c0 op (c1 op (... op cL-1))} of the node's contributions in rank order (the node is the whole
 * communicator), then only copied. The small form folds the same way on every rank. So a non-commutative operator is
 * served, and both forms give the same bits. Nodes = 1, at least two ranks; only where the node region is enabled
 * (the world communicator with shared memory on). Stateless.
 */
public final class NodeAllreduce extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "allreduce.shm";
    /** Raised by a rank after it wrote a chunk of its vector into its slot. */
    static final int WRITTEN = 0;
    /** Raised by rank j after it wrote its combined slice of a chunk into the result area. */
    static final int REDUCED = 1;
    /**
     * Largest node-wide contribution (L x vector) for which every rank reads every slot and combines the whole
     * vector: below it a second flag crossing costs more than reading and combining L-1 more copies of the vector.
     */
    static final long READ_ALL_BYTES = 16 * 1024;

    public NodeAllreduce() {
        super(ID, Collective.ALLREDUCE);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return OneNode.ofSeveralRanks(shape);
    }

    /**
     * Slots and the result area start on 128-byte boundaries: a node-mate's writes never share a cache line (nor the
     * pair the adjacent-line prefetcher fetches together) with another's slot.
     */
    static final long LINE = 128;

    /** Bytes per chunk for {@code l} ranks: whole elements and whole lines, L slots plus a result area fit the buffer. */
    static long chunkBytes(Shape shape, int l) {
        long unit = lineMultiple(shape.elementBytes());
        long fit = NodeBuffer.BYTES / (l + 1);
        return Math.max(unit, fit - fit % unit);
    }

    /**
     * {@code shape}'s block rounded up to whole units of {@link #lineMultiple} (one at least): the slot in which a
     * block or vector sits whole, line-aligned, in the node buffer.
     */
    static long wholeUnits(Shape shape) {
        long unit = lineMultiple(shape.elementBytes());
        return Math.max(1, (shape.blockBytes() + unit - 1) / unit) * unit;
    }

    /**
     * How many chunks of {@code chunkBytes} carry {@code shape}'s block (or vector): one at least, since a block of 0
     * bytes still crosses the node once. Shared by the node steps that go through the buffer chunk by chunk
     * ({@code reduce-scatter.shm}, {@code scan.shm}).
     */
    static long chunks(Shape shape, long chunkBytes) {
        return Math.max(1, (shape.blockBytes() + chunkBytes - 1) / chunkBytes);
    }

    /**
     * Why {@code chunks} chunks of {@code what} are more than a node flag counts in one call, or empty: each chunk
     * raises the flag once.
     */
    static Optional<String> countableChunks(String what, Shape shape, long chunks) {
        if (chunks > NodeBuffer.MAX_COUNT) {
            return Optional.of("a " + what + " of " + shape.blockBytes() + " bytes is " + chunks + " chunks of the node"
                    + " buffer, more than a node flag counts in one call (" + NodeBuffer.MAX_COUNT + ")");
        }
        return Optional.empty();
    }

    /** The least common multiple of {@link #LINE} and the element size. */
    static long lineMultiple(long e) {
        long a = LINE;
        long b = e;
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return LINE / a * e;
    }

    /** Whether every rank reads every slot and combines the whole vector (one flag crossing). */
    static boolean readsAll(Shape shape) {
        return shape.blockBytes() * shape.size() <= READ_ALL_BYTES;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        long bytes = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (readsAll(shape)) {
            readAll(p, l, rank, bytes);
            return p.build();
        }
        long chunk = chunkBytes(shape, l);
        long resultArea = l * chunk;
        long elementBytes = shape.elementBytes();
        long temp = p.allocateTemp(Math.min(chunk, bytes) / l + elementBytes);
        int chunks = (int) ((bytes + chunk - 1) / chunk);
        for (int c = 0; c < chunks; c++) {
            long at = c * chunk;
            long len = Math.min(chunk, bytes - at);
            // Slot `rank` was freed by the flag-1 waits of chunk c-1; the result area of chunk c-1 is rewritten
            // below only after the flag-0 waits of this chunk (each node-mate raised it after reading that result).
            p.nodeWrite(Buffer.SEND, at, (long) rank * chunk, len).publish(WRITTEN);
            for (int q = 0; q < l; q++) {
                if (q != rank) {
                    p.awaitFlag(q, WRITTEN, c + 1);
                }
            }
            long sliceOff = EvenSplit.first(len / elementBytes, l, rank) * elementBytes;
            long sliceLen = EvenSplit.count(len / elementBytes, l, rank) * elementBytes;
            if (sliceLen > 0) {
                // c0 op (c1 op (... op cL-1)), folded from the right into this rank's part of RECV.
                p.nodeRead((long) (l - 1) * chunk + sliceOff, Buffer.RECV, at + sliceOff, sliceLen);
                for (int q = l - 2; q >= 0; q--) {
                    if (q == rank) {
                        p.reduce(Buffer.SEND, at + sliceOff, Buffer.RECV, at + sliceOff, sliceLen);
                    } else {
                        p.nodeRead((long) q * chunk + sliceOff, Buffer.TEMP, temp, sliceLen);
                        p.reduce(Buffer.TEMP, temp, Buffer.RECV, at + sliceOff, sliceLen);
                    }
                }
                p.nodeWrite(Buffer.RECV, at + sliceOff, resultArea + sliceOff, sliceLen);
            }
            p.publish(REDUCED);
            for (int q = 0; q < l; q++) {
                if (q != rank) {
                    p.awaitFlag(q, REDUCED, c + 1);
                }
            }
            // Every slice but this rank's own, which is already in place.
            if (sliceOff > 0) {
                p.nodeRead(resultArea, Buffer.RECV, at, sliceOff);
            }
            if (sliceOff + sliceLen < len) {
                p.nodeRead(resultArea + sliceOff + sliceLen, Buffer.RECV, at + sliceOff + sliceLen,
                        len - sliceOff - sliceLen);
            }
        }
        return p.build();
    }

    /**
     * The small form: every node-mate's slot is read as soon as it is raised, and the whole vector combined,
     * {@code c0 op (c1 op (...))}, on every rank. Slots are {@code b} rounded up to whole lines apart; rank L-1's
     * vector lands straight in RECV, the others' in TEMP, this rank's own is taken from SEND. A vector of at most
     * {@link NodeBuffer#PAYLOAD_BYTES} rides in the flag's own line instead of a slot (decision 0202).
     */
    private static void readAll(ProgramBuilder p, int l, int rank, long bytes) {
        if (bytes == 0) {
            // Nothing to combine, but one crossing all the same: a node-mate that called with another count sees
            // this call's digest at its await and fails with a mismatch, rather than waiting for its deadline.
            p.publish(WRITTEN);
            awaitAll(p, l, rank, WRITTEN, 1);
            return;
        }
        long stride = (bytes + LINE - 1) / LINE * LINE;
        // A vector of at most PAYLOAD_BYTES rides in the raise, in the flag's own line (decision 0202).
        boolean inline = bytes <= NodeBuffer.PAYLOAD_BYTES;
        if (inline) {
            p.publish(WRITTEN, Buffer.SEND, 0, bytes);
        } else {
            p.nodeWrite(Buffer.SEND, 0, rank * stride, bytes).publish(WRITTEN);
        }
        long temp = p.allocateTemp((l - 1) * bytes);
        for (int q = 0; q < l; q++) {
            if (q != rank) {
                Buffer dst = q == l - 1 ? Buffer.RECV : Buffer.TEMP;
                long at = q == l - 1 ? 0 : temp + q * bytes;
                if (inline) {
                    p.awaitFlag(q, WRITTEN, 1, dst, at, bytes);
                } else {
                    p.awaitFlag(q, WRITTEN, 1).nodeRead(q * stride, dst, at, bytes);
                }
            }
        }
        if (rank == l - 1) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, bytes);
        }
        for (int q = l - 2; q >= 0; q--) {
            if (q == rank) {
                p.reduce(Buffer.SEND, 0, Buffer.RECV, 0, bytes);
            } else {
                p.reduce(Buffer.TEMP, temp + q * bytes, Buffer.RECV, 0, bytes);
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

    /** No message: the bytes move in node steps, which the simulator prices (copies and flag crossings). */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, readsAll(shape)
                ? "node steps: b written, L b read, (L-1) b combined per rank; one flag crossing"
                : "node steps: b + b/L written, about 2 b read, (L-1) b/L combined per rank; two flag crossings per"
                + " chunk of the node buffer");
    }

    @Override
    public String summary() {
        return "shared-memory all-reduce on one node in node steps: every rank writes its vector into the node buffer;"
                + " small vectors each rank combines all, larger ones rank j combines slice j and all read the result"
                + " (reduce-scatter + all-gather in shared memory, chunked through the buffer); rank order, so any"
                + " operator; nodes = 1; decision 0170";
    }
}
