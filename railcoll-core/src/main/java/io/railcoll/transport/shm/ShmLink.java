package io.railcoll.transport.shm;

import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * Frames to and from one other rank of the node, over the pair of {@link ShmChannel} rings between them: the same
 * frames as the rails carry, so the engine cannot tell the transports apart. Outgoing frames are queued and copied
 * into the ring as space frees; incoming payloads are copied from the ring straight into the buffer the sink names.
 * A frame of a collective not yet posted pauses the incoming side, as on the rails.
 *
 * <p>Threading: driven by the owner thread only. Lifetime: owned by its {@link ShmTransport}.
 */
final class ShmLink {
    private static final class Out {
        final MemorySegment header;
        MemorySegment payload;
        long payloadOffset;
        long payloadLength;
        long headerDone;
        long payloadDone;
        SendCompletion completion;

        Out(Arena arena) {
            header = arena.allocate(FrameHeader.BYTES, 64);
        }
    }

    private enum State { HEADER, PAYLOAD, ABORT_PAYLOAD, PAUSED }

    final int peer;
    private final ShmChannel out;
    private final ShmChannel in;
    private final FrameSink sink;
    private final Arena arena;
    private final ArrayDeque<Out> queue = new ArrayDeque<>();
    private final ArrayDeque<Out> pool = new ArrayDeque<>();
    private final ByteBuffer headerBytes = ByteBuffer.allocateDirect(FrameHeader.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment headerIn = MemorySegment.ofBuffer(headerBytes);
    private final FrameHeader inHeader = new FrameHeader();
    private State state = State.HEADER;
    private long headerRead;
    private MemorySegment target;
    private long targetDone;
    private boolean goodbye;

    ShmLink(int peer, ShmChannel out, ShmChannel in, FrameSink sink, Arena arena) {
        this.peer = peer;
        this.out = out;
        this.in = in;
        this.sink = sink;
        this.arena = arena;
    }

    boolean hasOutput() {
        return !queue.isEmpty();
    }

    boolean goodbyeReceived() {
        return goodbye;
    }

    boolean paused() {
        return state == State.PAUSED;
    }

    boolean hasInput() {
        return state != State.PAUSED && in.readable() > 0;
    }

    void enqueue(FrameHeader meta, MemorySegment payload, long offset, long length, SendCompletion completion) {
        Out f = pool.isEmpty() ? new Out(arena) : pool.poll();
        ByteBuffer hb = f.header.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        meta.encode(hb);
        f.payload = payload;
        f.payloadOffset = offset;
        f.payloadLength = length;
        f.headerDone = 0;
        f.payloadDone = 0;
        f.completion = completion;
        queue.add(f);
        if (queue.size() == 1) {
            write();
        }
    }

    /** Copies queued frames into the ring as far as it has room; returns frames completed. */
    int write() {
        int done = 0;
        while (!queue.isEmpty()) {
            Out f = queue.peek();
            if (f.headerDone < FrameHeader.BYTES) {
                f.headerDone += out.write(f.header, f.headerDone, FrameHeader.BYTES - f.headerDone);
                if (f.headerDone < FrameHeader.BYTES) {
                    return done;
                }
            }
            if (f.payloadDone < f.payloadLength) {
                f.payloadDone += out.write(f.payload, f.payloadOffset + f.payloadDone, f.payloadLength - f.payloadDone);
                if (f.payloadDone < f.payloadLength) {
                    return done;
                }
            }
            queue.poll();
            if (f.completion != null) {
                f.completion.done();
            }
            f.payload = null;
            f.completion = null;
            pool.add(f);
            done++;
        }
        return done;
    }

    /** Reads and dispatches what the ring holds; returns frames completed. */
    int read() {
        int frames = 0;
        for (;;) {
            switch (state) {
                case PAUSED:
                    return frames;
                case HEADER: {
                    headerRead += in.read(headerIn, headerRead, FrameHeader.BYTES - headerRead);
                    if (headerRead < FrameHeader.BYTES) {
                        return frames;
                    }
                    headerRead = 0;
                    headerBytes.clear();
                    String bad = inHeader.decode(headerBytes);
                    if (bad != null) {
                        throw new RailcollException("corrupt shared-memory stream from rank " + peer + ": " + bad);
                    }
                    if (inHeader.sourceRank != peer) {
                        throw new RailcollException("frame in the ring of rank " + peer + " claims to come from rank "
                                + inHeader.sourceRank);
                    }
                    switch (inHeader.type) {
                        case FrameHeader.DATA -> {
                            ByteBuffer t = sink.onDataHeader(-1, inHeader);
                            if (t == null) {
                                state = State.PAUSED;
                                return frames;
                            }
                            begin(t);
                        }
                        case FrameHeader.ABORT -> {
                            if (inHeader.fragLength > 1 << 16) {
                                throw new RailcollException("rank " + peer + " sent an abort reason of " + inHeader.fragLength + " bytes");
                            }
                            target = MemorySegment.ofArray(new byte[inHeader.fragLength]);
                            targetDone = 0;
                            state = State.ABORT_PAYLOAD;
                        }
                        case FrameHeader.GOODBYE -> {
                            goodbye = true;
                            frames++;
                            sink.onGoodbye(peer, -1);
                        }
                        default -> throw new RailcollException("unknown frame type " + inHeader.type + " from rank " + peer);
                    }
                    break;
                }
                case PAYLOAD:
                case ABORT_PAYLOAD: {
                    long want = target.byteSize() - targetDone;
                    if (want > 0) {
                        targetDone += in.read(target, targetDone, want);
                        if (targetDone < target.byteSize()) {
                            return frames;
                        }
                    }
                    frames++;
                    MemorySegment t = target;
                    target = null;
                    if (state == State.PAYLOAD) {
                        state = State.HEADER;
                        sink.onDataComplete(-1, inHeader);
                    } else {
                        state = State.HEADER;
                        sink.onAbort(peer, new String(t.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
                    }
                    break;
                }
                default:
                    throw new IllegalStateException(state.toString());
            }
        }
    }

    /** Offers a held-back frame again; true when the link reads again. */
    boolean resume() {
        if (state != State.PAUSED) {
            return false;
        }
        ByteBuffer t = sink.onDataHeader(-1, inHeader);
        if (t == null) {
            return false;
        }
        begin(t);
        return true;
    }

    private void begin(ByteBuffer t) {
        if (t.remaining() != inHeader.fragLength) {
            throw new IllegalStateException("sink returned " + t.remaining() + " bytes for a " + inHeader.fragLength + "-byte frame");
        }
        target = MemorySegment.ofBuffer(t);
        targetDone = 0;
        state = State.PAYLOAD;
    }
}
