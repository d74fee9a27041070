package io.railcoll.engine;

import io.railcoll.transport.FrameHeader;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * DATA frames read ahead of their call (or of their communicator) while a rank has several communicators open,
 * kept with a copy of their header until the call is posted; see {@link ContextRouter}. Bounded: past
 * {@link #LIMIT_BYTES} held, {@link #hold} refuses and the connection pauses as it would with one communicator.
 *
 * <p>Threading: {@link #hold} and {@link #completeIfHeld} on the thread that reads the frame's connection (several
 * connections at once), {@link #replay} on any thread; the lists are guarded by this object. Allocates only for
 * frames that arrive early.
 */
final class EarlyFrames {
    /** Most payload bytes held at once (every communicator together). */
    static final long LIMIT_BYTES = 64L << 20;

    /** A frame read early: its header (the job's rank numbering) and payload, complete once all of it arrived. */
    private static final class Held {
        final FrameHeader header = new FrameHeader();
        final MemorySegment payload;
        boolean complete;

        Held(FrameHeader h) {
            header.copyFrom(h);
            payload = MemorySegment.ofArray(new byte[h.fragLength]);
        }
    }

    /** Frames whose payload is arriving, by the connection's header object (identity). */
    private final Map<FrameHeader, Held> arriving = new ConcurrentHashMap<>();
    private final List<Held> held = new ArrayList<>();
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
        Held f = new Held(h);
        heldBytes += h.fragLength;
        held.add(f);
        arriving.put(h, f);
        empty = false;
        h.landingOffset = 0;
        return f.payload;
    }

    /** Whether {@code h} is the header of a frame being held; if so, its payload is now complete. */
    boolean completeIfHeld(FrameHeader h) {
        if (empty) {
            return false;
        }
        Held f = arriving.remove(h);
        if (f == null) {
            return false;
        }
        synchronized (this) {
            f.complete = true;
        }
        return true;
    }

    /**
     * Offers every complete frame of {@code context}, oldest first, to {@code header} (which returns where its
     * payload goes, or null while its call is not posted); copies the payload there and calls {@code complete}.
     */
    synchronized void replay(long context, Function<FrameHeader, MemorySegment> header, Consumer<FrameHeader> complete) {
        for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
            Held f = it.next();
            if (!f.complete || f.header.context != context) {
                continue;
            }
            MemorySegment target = header.apply(f.header);
            if (target == null) {
                continue;
            }
            MemorySegment.copy(f.payload, 0, target, f.header.landingOffset, f.header.fragLength);
            it.remove();
            heldBytes -= f.header.fragLength;
            complete.accept(f.header);
        }
        empty = held.isEmpty();
    }
}
