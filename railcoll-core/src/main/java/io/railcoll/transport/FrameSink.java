package io.railcoll.transport;

import java.lang.foreign.MemorySegment;

/**
 * Where a transport delivers incoming frames: implemented by the engine. Called on whichever thread drives
 * the transport's progress (the owner's, or a transport's own progress thread); never concurrently for one
 * connection, but possibly concurrently for different connections: implementations are thread-safe.
 */
public interface FrameSink {

    /**
     * A DATA frame's header arrived. Returns the memory its {@code fragLength} payload bytes go to, at
     * {@code header.landingOffset} (which the sink sets), or null when the frame belongs to a collective this rank has
     * not posted yet. The memory is returned whole, not as a slice of the frame's range, so that a sink hands out
     * nothing new per frame; a transport that needs a {@code ByteBuffer} keeps a view of it per connection and reuses it
     * while frames land in the same memory (decision 0127). On null the transport pauses this connection, leaving the
     * frame unread, until {@link Transport#resume} (the TCP rails may instead read such a frame into memory of their own after a rail fail-over, when an
     * acknowledgement this rank waits for is queued behind it; they offer it again the same way).
     * Throws a {@link io.railcoll.RailcollException} when the frame contradicts this rank's collective.
     */
    MemorySegment onDataHeader(int rail, FrameHeader header);

    /** The payload of the frame whose header was last accepted on this connection has fully arrived. */
    void onDataComplete(int rail, FrameHeader header);

    /** A peer aborted: every collective in progress fails with its reason. */
    void onAbort(int peer, String reason);

    /**
     * A peer closed its communicator: it will send nothing more on this connection ({@code rail}, or -1 for shared
     * memory). Frames it sent earlier on other connections may still be on their way.
     */
    void onGoodbye(int peer, int rail);

    /**
     * Called by transports that progress on threads of their own after they delivered frames or finished sends,
     * so an owner blocked waiting can look again. Cheap when nobody waits.
     */
    default void progressed() {
    }

    /** A peer's connection broke without a goodbye. */
    void onPeerLost(int peer, int rail, String cause);
}
