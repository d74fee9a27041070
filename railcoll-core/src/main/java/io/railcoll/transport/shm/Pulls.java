package io.railcoll.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What the single-copy path of one {@link ShmTransport} shares between its links: whether it is on, the size from
 * which puts go as PULL frames, the {@link Cma.Copier} (allocated once), a bounce buffer for heap destinations
 * (allocated on first use) and counters.
 *
 * <p>Threading: owner thread only, except the counters, which are read for reports. Lifetime: the transport's.
 */
final class Pulls {
    final Cma.Copier reader;
    private final Arena arena;
    private final boolean enabled;
    private final long threshold;
    private MemorySegment bounce;
    private volatile long putsSent;
    private volatile long bytesSent;
    private volatile long putsPulled;
    private volatile long bytesPulled;

    /**
     * @param enabled   whether this rank sends PULL frames at all (RAILCOLL_CMA, probe results decide per peer)
     * @param threshold smallest put, in bytes, sent as a PULL frame
     */
    Pulls(Arena arena, boolean enabled, long threshold) {
        this.arena = arena;
        this.enabled = enabled;
        this.threshold = threshold;
        this.reader = new Cma.Copier(arena);
    }

    boolean enabled() {
        return enabled;
    }

    /** Whether a put of {@code length} bytes from {@code src} may go as a PULL frame (to a peer that pulls). */
    boolean eligible(MemorySegment src, long length) {
        return enabled && length >= threshold && src.isNative();
    }

    long threshold() {
        return threshold;
    }

    MemorySegment bounce() {
        if (bounce == null) {
            bounce = arena.allocate(ShmLink.PULL_CHUNK, 64);
        }
        return bounce;
    }

    @SuppressWarnings("NonAtomicOperationOnVolatileField") // one writer, the owner thread
    void sent(long bytes) {
        putsSent++;
        bytesSent += bytes;
    }

    @SuppressWarnings("NonAtomicOperationOnVolatileField") // one writer, the owner thread
    void pulled(long bytes) {
        putsPulled++;
        bytesPulled += bytes;
    }

    long putsSent() {
        return putsSent;
    }

    long bytesSent() {
        return bytesSent;
    }

    long putsPulled() {
        return putsPulled;
    }

    long bytesPulled() {
        return bytesPulled;
    }
}
