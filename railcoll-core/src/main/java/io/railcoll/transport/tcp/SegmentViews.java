package io.railcoll.transport.tcp;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * {@code ByteBuffer} views of the memories frames land in on one connection, kept by the memory's identity and
 * reused (decision 0127): a socket reads into a {@code ByteBuffer}, and making a view per frame allocated on every
 * frame. Several memories take turns (a call's RECV and TEMP, and TEMP is the memory of the engine's slot, one of 16),
 * so a few dozen are kept; past that the oldest entry is replaced. Lookup is a scan of references: a few nanoseconds.
 *
 * <p>Threading: one connection's driver at a time, like the connection. A view is handed out positioned and limited
 * to one fragment and is not used again until that fragment has landed (one frame at a time arrives on a connection).
 */
final class SegmentViews {
    /** Twice the engine's window (16 slots, each with its own TEMP), so a loop of calls finds every view again. */
    static final int ENTRIES = 32;

    private final MemorySegment[] memories = new MemorySegment[ENTRIES];
    private final ByteBuffer[] views = new ByteBuffer[ENTRIES];
    private int next;

    /** A view of {@code length} bytes at {@code offset} of {@code memory} (below 2 GiB), positioned and limited to them. */
    ByteBuffer of(MemorySegment memory, long offset, int length) {
        int i = 0;
        while (i < ENTRIES && memories[i] != memory) {
            i++;
        }
        if (i == ENTRIES) {
            i = next;
            next = (next + 1) % ENTRIES;
            memories[i] = memory;
            views[i] = memory.asByteBuffer();
        }
        ByteBuffer v = views[i];
        v.limit((int) (offset + length)).position((int) offset);
        return v;
    }
}
