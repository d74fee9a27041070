package io.railcoll.transport.tcp;

import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.SendCompletion;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One frame waiting to be written or, for DATA, waiting to be acknowledged: its encoded header, its payload view
 * and, for a re-sent DATA frame, the REPLAY header written just before it (for a new one, possibly an ACK of the
 * connection's receive side written with it, {@link #carriesAck}). Pooled per connection; a DATA frame
 * moves to another connection when its own fails, and is recycled into that one's pool.
 *
 * <p>Identity of a DATA frame for duplicate detection: its <em>origin</em>, the connection (lane and generation,
 * see {@link PeerLanes}) and the position (count of DATA frames before it on that connection) where it was first
 * written completely. A frame never written completely has no origin yet and is simply sent again as a new frame.
 *
 * <p>Threading: touched by one driver thread at a time; handed between drivers through a concurrent queue.
 */
final class OutFrame {
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);
    static final long NO_ORIGIN = -1;

    final ByteBuffer replay = ByteBuffer.allocateDirect(FrameHeader.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    final ByteBuffer header = ByteBuffer.allocateDirect(FrameHeader.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer[] parts = new ByteBuffer[3];
    private int firstPart;
    ByteBuffer payload;
    SendCompletion completion;
    long payloadBytes;
    byte type;
    /** Position of this DATA frame on the connection it is queued on. */
    long position;
    /** Position of the first complete write on its connection, or {@link #NO_ORIGIN}. */
    long origin = NO_ORIGIN;
    /** Lane and generation of the connection of the first complete write (when {@link #origin} is set). */
    int originLane;
    int originGeneration;
    /** Completed once written, its payload a copy: see {@link #detachPayload}. */
    boolean eager;
    /**
     * Its prefix (where a REPLAY would be) is an ACK of this connection's receive side, written in the same system
     * call as the frame: see {@link TcpConnection#writeQueued}.
     */
    boolean carriesAck;
    /** Peer and lane a frame handed between drivers is meant for. */
    int handoffPeer;
    int handoffLane;
    /** Holds the payload of an eagerly completed frame; allocated on first use, reused by the pool after. */
    private ByteBuffer copy;
    /** Where the payload starts in {@link #payload} (a view of the caller's whole buffer starts elsewhere than 0). */
    private int payloadStart;
    /**
     * The caller's memory this frame last sent from and this frame's view of all of it, reused while the caller sends
     * from the same memory: a loop of calls on the same buffers makes no view per frame (decision 0127). Held weakly
     * (decision 0221): a frame waiting in its connection's pool must not keep a buffer the program dropped alive (a
     * view of a {@code byte[]} holds the array); while it is written, {@link #payload} holds the view.
     */
    private WeakReference<MemorySegment> viewed = new WeakReference<>(null);
    private WeakReference<ByteBuffer> view = new WeakReference<>(null);

    /** Records the first complete write of this frame: on {@code lane}'s connection {@code generation}, at {@code position}. */
    void written(int lane, int generation, long position) {
        if (origin == NO_ORIGIN) {
            origin = position;
            originLane = lane;
            originGeneration = generation;
        }
    }

    /** Fills this DATA frame from {@code h} (encoded now) and {@code h.fragLength} bytes of {@code src} at {@code offset}. */
    void set(FrameHeader h, MemorySegment src, long offset, SendCompletion completion) {
        set(h, h.fragLength == 0 ? null : view(src, offset, h.fragLength), completion);
    }

    /** {@code length} bytes of {@code src} at {@code offset}, through this frame's view of {@code src} when it can have one. */
    private ByteBuffer view(MemorySegment src, long offset, int length) {
        if (src.byteSize() > Integer.MAX_VALUE) {
            return src.asSlice(offset, length).asByteBuffer(); // no view spans it: one of the fragment alone
        }
        ByteBuffer v = viewed.get() == src ? view.get() : null;
        if (v == null) {
            v = src.asByteBuffer();
            viewed = new WeakReference<>(src);
            view = new WeakReference<>(v);
        }
        v.limit((int) (offset + length)).position((int) offset);
        return v;
    }

    /** Fills this frame from {@code h} (encoded now) and its payload. */
    void set(FrameHeader h, ByteBuffer payload, SendCompletion completion) {
        this.type = h.type;
        this.payload = payload;
        this.payloadStart = payload == null ? 0 : payload.position();
        this.completion = completion;
        this.payloadBytes = payload == null ? 0 : payload.remaining();
        this.origin = NO_ORIGIN;
        header.clear();
        h.encode(header);
        header.flip();
        parts[0] = replay;
        parts[1] = header;
        parts[2] = payload == null ? EMPTY : payload;
        firstPart = 1;
    }

    /**
     * Replaces the payload view by a copy of its bytes, so the frame no longer refers to the caller's buffer and
     * its completion need not wait for the acknowledgement.
     */
    void detachPayload(int capacity) {
        if (copy == null || copy.capacity() < capacity) {
            copy = ByteBuffer.allocateDirect(capacity);
        }
        copy.clear();
        if (payload != null) {
            int n = payload.remaining();
            copy.put(0, payload, payload.position(), n); // absolute: neither buffer moves, nothing is duplicated
            copy.limit(n);
        } else {
            copy.limit(0);
        }
        payload = copy;
        payloadStart = 0;
        parts[2] = copy;
    }

    /** Rewinds this frame for sending again; with {@code replayHeader} it goes out as a REPLAY of its origin. */
    void rewind(FrameHeader replayHeader) {
        carriesAck = false;
        header.rewind();
        if (payload != null) {
            payload.position(payloadStart);
        }
        if (replayHeader == null) {
            firstPart = 1;
        } else {
            replay.clear();
            replayHeader.encode(replay);
            replay.flip();
            firstPart = 0;
        }
    }

    ByteBuffer[] parts() {
        return parts;
    }

    int firstPart() {
        return firstPart;
    }

    int partCount() {
        return 3 - firstPart;
    }

    boolean started() {
        return firstPart == 0 ? replay.position() > 0 : header.position() > 0;
    }

    boolean written() {
        return !header.hasRemaining() && (payload == null || !payload.hasRemaining())
                && (firstPart == 1 || !replay.hasRemaining());
    }

    /** Puts the ACK {@code ack} (encoded now) in front of this frame, which has not started: see {@link #carriesAck}. */
    void carryAck(FrameHeader ack) {
        rewind(ack);
        carriesAck = true;
    }

    void clear() {
        eager = false;
        carriesAck = false;
        payload = null;
        completion = null;
        parts[2] = null;
        origin = NO_ORIGIN;
        header.clear();
    }
}
