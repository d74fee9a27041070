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
 * <p>Memory over a {@code byte[]} is known by its array, and its view is one of the whole array: slices of one array
 * share a view. Engine records that hold frames read ahead of their call are carved from a few shared arrays
 * ({@code engine.EarlyFrames}): a root eager by thousands of calls had as many records in turn, every one missed a
 * cache of 32, and each early frame made a view and two references (about 100 bytes, CI's PerCallAllocationTest). A
 * program that wraps the same array in a new segment per call finds its view again too.
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

    /** A memory (its {@code byte[]}, or the segment) and its view, neither kept alive by this cache. */
    private static final class Entry extends WeakReference<Object> {
        final WeakReference<ByteBuffer> view;

        Entry(Object key, ByteBuffer view) {
            super(key);
            this.view = new WeakReference<>(view);
        }
    }

    private final Entry[] entries = new Entry[ENTRIES];
    private int next;

    /** A view of {@code length} bytes at {@code offset} of {@code memory} (below 2 GiB), positioned and limited to them. */
    ByteBuffer of(MemorySegment memory, long offset, int length) {
        Object key = memory;
        long start = 0;
        if (!memory.isNative() && memory.heapBase().orElse(null) instanceof byte[] array) {
            key = array;
            start = memory.address(); // a heap segment's address is its offset in the array
        }
        ByteBuffer v = null;
        for (int i = 0; i < ENTRIES && v == null; i++) {
            Entry e = entries[i];
            if (e != null && e.get() == key) {
                v = e.view.get();
                if (v == null) {
                    // The view was collected while the memory lives (nothing else holds a view): make it again here.
                    v = viewOf(key, memory);
                    entries[i] = new Entry(key, v);
                }
            }
        }
        if (v == null) {
            v = viewOf(key, memory);
            entries[next] = new Entry(key, v);
            next = (next + 1) % ENTRIES;
        }
        v.limit((int) (start + offset + length)).position((int) (start + offset));
        return v;
    }

    /** The view for {@code key}: of the whole array where it is one, else of {@code memory}. */
    private static ByteBuffer viewOf(Object key, MemorySegment memory) {
        return key instanceof byte[] array ? ByteBuffer.wrap(array) : memory.asByteBuffer();
    }
}
