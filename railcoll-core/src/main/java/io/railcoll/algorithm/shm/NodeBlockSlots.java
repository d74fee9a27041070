package io.railcoll.algorithm.shm;

import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * Where the blocks of a one-node gather or all-gather in node steps ({@code gather.shm}, {@code allgather.shm};
 * decision 0190) lie in the node buffer: each of {@code writers} ranks owns a region of it, {@link #LINE}-aligned so
 * that no two writers share a cache line (nor the pair the adjacent-line prefetcher fetches together).
 * <ul>
 *   <li>When every writer's whole block fits ({@code writers x b} rounded up to lines at most
 *       {@link NodeBuffer#BYTES}), a block is one chunk in one slot: one write, one raise, one read per reader.</li>
 *   <li>Otherwise a writer's region is {@link #DEPTH} slots and the block goes through them in chunks: chunk j in
 *       slot {@code j mod DEPTH}, rewritten only after the readers raised their drained flag for chunk
 *       {@code j - DEPTH}; so a writer may be one chunk ahead of its readers and the buffer streams.</li>
 * </ul>
 * A value; derived from the block size and writer count only, so every rank computes the same layout.
 */
record NodeBlockSlots(long blockBytes, long chunkBytes, int chunks, long regionBytes) {
    /** Slot alignment: two 64-byte lines. */
    static final long LINE = 128;
    /** Slots per writer once the blocks go in chunks (double buffering: write chunk j+1 while j is read). */
    static final int DEPTH = 2;

    /** The layout for {@code writers} ranks each writing a block of {@code blockBytes}. */
    static NodeBlockSlots of(long blockBytes, int writers) {
        long whole = roundUp(blockBytes);
        if (blockBytes == 0) {
            return new NodeBlockSlots(0, 0, 0, 0);
        }
        if (whole <= NodeBuffer.BYTES / writers) {
            return new NodeBlockSlots(blockBytes, blockBytes, 1, whole);
        }
        long region = NodeBuffer.BYTES / writers / LINE * LINE;
        long chunk = Math.max(LINE, region / DEPTH / LINE * LINE);
        long chunks = (blockBytes + chunk - 1) / chunk;
        return new NodeBlockSlots(blockBytes, chunk, (int) Math.min(chunks, Integer.MAX_VALUE), DEPTH * chunk);
    }

    /**
     * Why {@code writers} ranks cannot move blocks of {@code shape}'s size this way: too many ranks for two
     * line-sized slots each, or more chunks than a flag's count holds in one call.
     */
    static Optional<String> unsupported(Shape shape, int writers) {
        if ((long) writers * DEPTH * LINE > NodeBuffer.BYTES) {
            return Optional.of(writers + " writers need " + DEPTH + " slots of " + LINE + " bytes each, more than the"
                    + " node buffer's " + NodeBuffer.BYTES + " bytes");
        }
        long region = NodeBuffer.BYTES / writers / LINE * LINE;
        long chunk = Math.max(LINE, region / DEPTH / LINE * LINE);
        if (shape.blockBytes() / chunk >= NodeBuffer.MAX_COUNT) {
            return Optional.of("a block of " + shape.blockBytes() + " bytes is more than " + NodeBuffer.MAX_COUNT
                    + " chunks of " + chunk + " bytes, the raises of a node flag one call may await");
        }
        return Optional.empty();
    }

    /** Whether the blocks go through the buffer in more than one chunk (and slots are reused: drained flags). */
    boolean chunked() {
        return chunks > 1;
    }

    /** The node-buffer offset of chunk {@code j} of the writer with index {@code writer}. */
    long slot(int writer, int j) {
        return writer * regionBytes + (long) (j % DEPTH) * chunkBytes;
    }

    /** Offset of chunk {@code j} within the block. */
    long chunkOffset(int j) {
        return j * chunkBytes;
    }

    /** Bytes of chunk {@code j} (the last may be short). */
    long chunkLength(int j) {
        return Math.min(chunkBytes, blockBytes - chunkOffset(j));
    }

    /** Whether a reader raises its drained flag after chunk {@code j}: a later chunk reuses that chunk's slot. */
    boolean drainedAfter(int j) {
        return j + DEPTH < chunks;
    }

    /** The count of the drained flag a writer awaits before it writes chunk {@code j}, or 0 when none. */
    int drainedBefore(int j) {
        return j >= DEPTH ? j - DEPTH + 1 : 0;
    }

    private static long roundUp(long bytes) {
        return (bytes + LINE - 1) / LINE * LINE;
    }
}
