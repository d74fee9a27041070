package io.railcoll.schedule;

import java.util.Objects;

/**
 * One node collective of a {@link NodePhased} algorithm, as the ranks of one node run it in their node's shared
 * memory: what kind, which local rank is its root, which caller buffers it reads and writes. Offsets and lengths
 * are in bytes. Immutable.
 *
 * @param kind      what the node does
 * @param rootLocal the local rank that receives (gather) or sends (broadcast); 0 otherwise
 * @param src       what every rank contributes from (gather, all-gather), or what the root sends (broadcast; when
 *                  it is not {@code dst} at the same offset, the root copies it there too)
 * @param srcOffset where in {@code src}
 * @param dst       where the blocks land (gather: on the root; all-gather: on every rank; broadcast: on every rank)
 * @param dstOffset where in {@code dst}; block of local rank r at {@code dstOffset + r * bytes} (gather, all-gather)
 * @param bytes     bytes per rank (gather, all-gather) or of the message (broadcast)
 */
public record NodeStep(Kind kind, int rootLocal, Buffer src, long srcOffset, Buffer dst, long dstOffset, long bytes) {

    /** What a node does in a step. */
    public enum Kind {
        /** Nothing (a node that takes no part in this phase). */
        NONE,
        /** Every local rank waits for all of them. */
        BARRIER,
        /** Every local rank's block to the root's {@code dst}. */
        GATHER,
        /** The root's {@code dst} to every local rank's {@code dst}. */
        BROADCAST,
        /** Every local rank's block to every local rank's {@code dst}. */
        ALLGATHER
    }

    public static final NodeStep NONE = new NodeStep(Kind.NONE, 0, Buffer.SEND, 0, Buffer.RECV, 0, 0);
    public static final NodeStep BARRIER = new NodeStep(Kind.BARRIER, 0, Buffer.SEND, 0, Buffer.RECV, 0, 0);

    public NodeStep {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        if (rootLocal < 0 || srcOffset < 0 || dstOffset < 0 || bytes < 0) {
            throw new IllegalArgumentException("negative root, offset or length in " + kind + ": " + rootLocal + ", "
                    + srcOffset + ", " + dstOffset + ", " + bytes);
        }
        if (dst == Buffer.SEND) {
            throw new IllegalArgumentException("a node step never writes the SEND buffer");
        }
    }

    /** Every local rank's {@code blockBytes} at SEND[0] to the root's {@code dst[dstOffset + r * blockBytes]}. */
    public static NodeStep gather(int rootLocal, long blockBytes, Buffer dst, long dstOffset) {
        return new NodeStep(Kind.GATHER, rootLocal, Buffer.SEND, 0, dst, dstOffset, blockBytes);
    }

    /** The root's {@code buffer[offset, offset + bytes)} to the same place on every local rank. */
    public static NodeStep broadcast(int rootLocal, Buffer buffer, long offset, long bytes) {
        return new NodeStep(Kind.BROADCAST, rootLocal, buffer, offset, buffer, offset, bytes);
    }

    /** Every local rank's {@code blockBytes} at SEND[0] to every local rank's {@code dst[dstOffset + r * blockBytes]}. */
    public static NodeStep allgather(long blockBytes, Buffer dst, long dstOffset) {
        return new NodeStep(Kind.ALLGATHER, 0, Buffer.SEND, 0, dst, dstOffset, blockBytes);
    }
}
