package io.railcoll.transport;

import java.lang.foreign.MemorySegment;

/**
 * Moves puts to peers it can reach. A put is one logical write of {@code length} bytes that the transport may
 * split into several frames (over several rails); every frame copies the collective fields of {@code meta}.
 *
 * <p>Threading: {@link #put}, {@link #poll}, {@link #resume} and {@link #await} are called by the thread that owns
 * the communicator. A transport with progress threads of its own does its I/O there and makes these calls cheap.
 */
public interface Transport extends AutoCloseable {

    /** Whether this transport carries traffic to {@code peer}. */
    boolean reaches(int peer);

    /**
     * Starts sending {@code src[offset, offset+length)} to {@code peer}. Never blocks (beyond a bounded hand-off);
     * {@code completion} is incremented by the number of frames and decremented as each stops needing {@code src}
     * (see {@link SendCompletion}).
     */
    void put(int peer, FrameHeader meta, MemorySegment src, long offset, long length, SendCompletion completion);

    /** Makes progress without blocking; returns how much work was done (0 = nothing to do). */
    int poll();

    /**
     * Blocks up to {@code maxWaitNs} for I/O to become possible (or returns at once if it already is). Only called
     * on transports that are {@link #drivenByCaller() driven by the caller}.
     */
    void await(long maxWaitNs);

    /**
     * True when the owner's calls to {@link #poll} do the I/O; false when the transport has progress threads of its
     * own, which then call {@link FrameSink#progressed()} whenever the owner may have something new to see.
     */
    default boolean drivenByCaller() {
        return true;
    }

    /** Whether this transport's connections are rails (numbered from 0); false for shared memory. */
    default boolean railBased() {
        return true;
    }

    /** How many connections carry traffic to {@code peer} (each says goodbye when the peer closes). */
    default int connectionsTo(int peer) {
        return 1;
    }

    /**
     * For failure messages: what is in flight with {@code peer} on this transport that a message should name (for
     * example a single-copy put it is pulling), or "" when nothing. Best effort from any thread; never throws.
     */
    default String inFlightWith(int peer) {
        return "";
    }

    /**
     * For time-out messages: the peers this transport has heard nothing from on any connection for longer than it
     * takes a live peer to show life (its heartbeats), named as "rank P (...)" and comma-separated; "" when none or
     * when the transport cannot tell. Best effort from any thread; never throws.
     */
    default String silentPeers() {
        return "";
    }

    /** Whether frames are queued that have not left yet (the owner must keep driving a caller-driven transport). */
    boolean hasPendingOutput();

    /**
     * Whether a send has left but is not yet delivered, and its completion comes through this transport (an
     * acknowledgement the peer sends back): where an owner waiting only for deliveries should sleep, since news on
     * this transport is what ends its wait. A hint for the wait, never for correctness; false when it cannot tell.
     */
    default boolean awaitsDelivery() {
        return false;
    }

    /** Re-offers frames held back by connections that paused because their collective was not posted yet. */
    void resume();

    /** Sends an ABORT frame with {@code reason} to every peer, best effort. */
    void abortAll(String reason);

    /** Per-rail counters of bytes and frames sent, for the user to see every rail work. */
    RailCounters counters();

    /** Says goodbye to every peer and releases sockets; failures become suppressed exceptions. */
    @Override
    void close();
}
