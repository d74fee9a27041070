package io.railcoll.transport.tcp;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;

/**
 * {@code ByteBuffer} views of the memories frames land in on one connection, kept by the memory's identity and
 * reused (decision 0127): a socket reads into a {@code ByteBuffer}, and making a view per frame allocated on every
 * frame. Several memories take turns (a call's RECV and TEMP, and TEMP is the memory of the engine's slot, one of 16),
 * so a few dozen are kept; past that the oldest entry is replaced. Lookup is a scan of references: a few nanoseconds.
 *
 * <p>Both the memory and its view are held weakly (decision 0221): a view of a {@code byte[]} holds the array, and a
 * program that gathers into a fresh 8 MB array per call had every connection keep its last 32 arrays alive (the check
 * jobs' 8-rank all-gathers ran out of a 256 MB heap). A memory the program still holds keeps its entry; one it dropped
 * is collected, and its entry is found empty and replaced.
 *
 * <p>Threading: one connection's driver at a time, like the connection. A view is handed out positioned and limited
 * to one fragment and is not used again until that fragment has landed (one frame at a time arrives on a connection).
 */
final class SegmentViews {
    /** Twice the engine's window (16 slots, each with its own TEMP), so a loop of calls finds every view again. */
    static final int ENTRIES = 32;

    /** A memory and its view, neither kept alive by this cache. */
    private static final class Entry extends WeakReference<MemorySegment> {
        final WeakReference<ByteBuffer> view;

        Entry(MemorySegment memory, ByteBuffer view) {
            super(memory);
            this.view = new WeakReference<>(view);
        }
    }

    private final Entry[] entries = new Entry[ENTRIES];
    private int next;

    /** A view of {@code length} bytes at {@code offset} of {@code memory} (below 2 GiB), positioned and limited to them. */
    ByteBuffer of(MemorySegment memory, long offset, int length) {
        ByteBuffer v = null;
        for (int i = 0; i < ENTRIES && v == null; i++) {
            Entry e = entries[i];
            if (e != null && e.get() == memory) {
                v = e.view.get();
                if (v == null) {
                    // The view was collected while the memory lives (nothing else holds a view): make it again here.
                    v = memory.asByteBuffer();
                    entries[i] = new Entry(memory, v);
                }
            }
        }
        if (v == null) {
            v = memory.asByteBuffer();
            entries[next] = new Entry(memory, v);
            next = (next + 1) % ENTRIES;
        }
        v.limit((int) (offset + length)).position((int) offset);
        return v;
    }
}
