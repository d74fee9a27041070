package io.railcoll.schedule;

/**
 * What node steps ({@link Op.NodeWrite}, {@link Op.NodeRead}, {@link Op.Publish}, {@link Op.AwaitFlag}) may use of
 * their node's shared memory: a buffer of {@link #BYTES} bytes that every rank of the node maps, and
 * {@link #FLAGS} flags per rank, each raised only by its owner and read by any node-mate. Programs are pure, so the
 * size is a constant here; the engine checks, when it binds a program to a node region, that the region offers at
 * least this much (decision 0101). Node steps run only on a communicator whose node region is enabled (the world's,
 * with shared memory on): an algorithm that uses them is a {@link NodeRegionUser}.
 */
public final class NodeBuffer {
    /** Bytes of the node buffer a program may address. */
    public static final long BYTES = 1L << 21;
    /** Flags per rank. */
    public static final int FLAGS = 4;
    /** Raises of one flag in one call a program may await (the engine keeps the count in 20 bits). */
    public static final int MAX_COUNT = (1 << 20) - 1;

    /**
     * Bytes a {@link Op.Publish} may carry in its flag's own cache line (decision 0202): two areas of this size, one per
     * parity of the call's sequence number as the buffer's halves, fill the 48 bytes the flag value and the raising
     * call's digest leave of the 64-byte line.
     */
    public static final int PAYLOAD_BYTES = 24;

    private NodeBuffer() {
    }

    static void checkRange(long offset, long length) {
        if (offset < 0 || length < 0 || offset > BYTES - length) {
            throw new IllegalArgumentException("node buffer range [" + offset + ", " + offset + " + " + length
                    + ") outside [0, " + BYTES + ")");
        }
    }

    static void checkPayload(long length) {
        if (length > PAYLOAD_BYTES) {
            throw new IllegalArgumentException("a node flag carries at most " + PAYLOAD_BYTES + " bytes, not " + length
                    + " (larger blocks go through the node buffer)");
        }
    }

    static void checkFlag(int flag) {
        if (flag < 0 || flag >= FLAGS) {
            throw new IllegalArgumentException("node flag " + flag + " outside [0, " + FLAGS + ")");
        }
    }
}
