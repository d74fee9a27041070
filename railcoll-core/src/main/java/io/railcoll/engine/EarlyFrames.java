package io.railcoll.engine;

import io.railcoll.transport.FrameHeader;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * DATA frames read ahead of their call (or of their communicator) while a rank has several communicators open or uses
 * point-to-point messages, kept with a copy of their header until the call is posted; see {@link ContextRouter}.
 * Bounded: past {@link #LIMIT_BYTES} held, {@link #hold} refuses and the connection pauses as it would with one
 * communicator.
 *
 * <p>The payload must be copied (the call that will take it is not posted, so there is nowhere else to land it, and
 * pausing the connection instead could hold back a point-to-point message this rank waits for, decision 0080); the
 * records that hold it are not made per frame (decision 0089): a replayed frame's record and its memory are kept for
 * the next early frame, each at most {@link #SPARE_BYTES}, together at most {@link #SPARES_LIMIT_BYTES}, so what stays
 * allocated is bounded whatever the traffic. The bound is in bytes, not records (decision 0195): a root that runs
 * hundreds of small calls ahead of a busy receiver (eager puts, two ranks on a loaded host) held more frames than the
 * 32 records once kept, and every frame past them was a new record, 160-230 bytes per call. The frames arriving are a short list searched by the connection's header object, not a
 * hash map (whose node is one allocation per frame).
 *
 * <p>Threading: {@link #hold} and {@link #completeIfHeld} on the thread that reads the frame's connection (several
 * connections at once), {@link #replay} on any thread; the lists are guarded by this object.
 */
final class EarlyFrames {
    /** Most payload bytes held at once (every communicator together). */
    static final long LIMIT_BYTES = 64L << 20;
    /** The largest payload memory a kept record may hold: larger frames' records are dropped once replayed. */
    static final int SPARE_BYTES = 16 << 10;
    /** Most memory the kept records stand for together, each counted as at least {@link #RECORD_BYTES}. */
    static final long SPARES_LIMIT_BYTES = 4L << 20;
    /** What a kept record costs at the least besides its payload (header, segment, array): counts small ones fairly. */
    static final int RECORD_BYTES = 256;
    /** Kept records looked at for one that fits, newest first (frames of one stream are mostly of one size). */
    private static final int SCAN = 32;

    /** A frame read early: its header (the job's rank numbering) and payload, complete once all of it arrived. */
    private static final class Held {
        final FrameHeader header = new FrameHeader();
        /** Payload memory, at least the frame's length (a reused record's may be longer). */
        final MemorySegment payload;
        /** The connection's header object while the payload arrives (identity), else null. */
        FrameHeader arrivingAs;
        boolean complete;

        Held(MemorySegment payload) {
            this.payload = payload;
        }
    }

    /**
     * Bytes of each shared array that small records' payloads are carved from. A connection keeps one view per array
     * it lands in (transport.tcp.SegmentViews, 32 of them): a record of its own array each, a backlog of thousands of
     * records (a root eager by thousands of calls) missed that cache at every frame, a view and two references made
     * per early frame. An array lives while any record carved from it does; the kept records are bounded
     * ({@link #SPARES_LIMIT_BYTES}), so what a slab pins is too.
     */
    static final int SLAB_BYTES = 256 << 10;
    /** The array records are carved from now, and how much of it is carved. */
    private byte[] slab;
    private int slabUsed;

    /** How {@link #replay} hands a frame to the communicator of {@code member}; made once by the router. */
    interface Target<M> {
        /** Where the frame's payload goes, or null while its call is not posted. */
        MemorySegment header(M member, FrameHeader h);

        void complete(M member, FrameHeader h);
    }

    /** Frames whose payload is arriving. */
    private final List<Held> arriving = new ArrayList<>();
    private final List<Held> held = new ArrayList<>();
    private Held[] spares = new Held[32];
    private int spareCount;
    private long spareBytes;
    private long heldBytes;
    private volatile boolean empty = true;

    boolean isEmpty() {
        return empty;
    }

    /** The memory {@code h}'s payload goes to, or null (pause the connection) when the limit is reached. */
    synchronized MemorySegment hold(FrameHeader h) {
        if (heldBytes + h.fragLength > LIMIT_BYTES) {
            return null;
        }
        Held f = record(h.fragLength);
        f.header.copyFrom(h);
        f.arrivingAs = h;
        f.complete = false;
        heldBytes += h.fragLength;
        held.add(f);
        arriving.add(f);
        empty = false;
        h.landingOffset = 0;
        return f.payload;
    }

    /** A kept record whose memory holds {@code bytes}, or a new one. */
    private Held record(int bytes) {
        for (int i = spareCount - 1; i >= 0 && i >= spareCount - SCAN; i--) {
            Held f = spares[i];
            if (f.payload.byteSize() >= bytes) {
                spares[i] = spares[--spareCount];
                spares[spareCount] = null;
                spareBytes -= cost(f);
                return f;
            }
        }
        return new Held(payloadMemory(bytes));
    }

    /** New payload memory of {@code bytes}: a slice of the shared slab up to {@link #SPARE_BYTES}, else its own array. */
    private MemorySegment payloadMemory(int bytes) {
        if (bytes > SPARE_BYTES) {
            return MemorySegment.ofArray(new byte[bytes]); // dropped once replayed (keep), so no slab space is lost
        }
        int size = (bytes + 7) & ~7;
        if (slab == null || slabUsed + size > slab.length) {
            slab = new byte[SLAB_BYTES];
            slabUsed = 0;
        }
        MemorySegment m = MemorySegment.ofArray(slab).asSlice(slabUsed, size);
        slabUsed += size;
        return m;
    }

    /** Keeps a replayed frame's record for the next early frame, within the bounds. */
    private void keep(Held f) {
        if (f.payload.byteSize() > SPARE_BYTES || spareBytes + cost(f) > SPARES_LIMIT_BYTES) {
            return;
        }
        if (spareCount == spares.length) {
            spares = java.util.Arrays.copyOf(spares, 2 * spareCount); // grows to the largest backlog seen, then stays
        }
        spares[spareCount++] = f;
        spareBytes += cost(f);
    }

    private static long cost(Held f) {
        return Math.max(f.payload.byteSize(), RECORD_BYTES);
    }

    /** Whether {@code h} is the header of a frame being held; if so, its payload is now complete. */
    boolean completeIfHeld(FrameHeader h) {
        if (empty) {
            return false;
        }
        synchronized (this) {
            for (int i = 0; i < arriving.size(); i++) {
                Held f = arriving.get(i);
                if (f.arrivingAs == h) {
                    arriving.remove(i);
                    f.arrivingAs = null;
                    f.complete = true;
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Offers every complete frame of {@code context}, oldest first, to {@code target} for {@code member}; copies the
     * payload where it says and completes the frame there.
     */
    synchronized <M> void replay(long context, M member, Target<M> target) {
        for (int i = 0; i < held.size(); ) {
            Held f = held.get(i);
            if (!f.complete || f.header.context != context) {
                i++;
                continue;
            }
            MemorySegment to = target.header(member, f.header);
            if (to == null) {
                i++;
                continue;
            }
            MemorySegment.copy(f.payload, 0, to, f.header.landingOffset, f.header.fragLength);
            held.remove(i);
            heldBytes -= f.header.fragLength;
            target.complete(member, f.header);
            keep(f);
        }
        empty = held.isEmpty();
    }
}
