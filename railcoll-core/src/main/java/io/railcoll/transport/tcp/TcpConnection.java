package io.railcoll.transport.tcp;

import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.RailCounters;
import io.railcoll.transport.SendCompletion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * One TCP connection to one peer on one rail: a queue of outgoing frames and a receive state machine that
 * streams payloads straight into the buffer the {@link FrameSink} names. Driven by exactly one thread at a time
 * (the rail's progress thread, or the caller's in the single-threaded engine).
 *
 * <p>Receive states: reading a header; reading a payload into its target; paused on a header whose collective
 * is not posted yet (the frame stays unread, the kernel's socket buffer holds what follows and TCP flow control
 * slows the sender: nothing is dropped and memory stays bounded).
 */
final class TcpConnection {
    private static final int IN_BUFFER_BYTES = 256 * 1024;
    /** Payload reads at least this large bypass the staging buffer and go straight into the target. */
    private static final int DIRECT_READ_BYTES = 64 * 1024;

    private enum State { HEADER, PAYLOAD, ABORT_PAYLOAD, PAUSED }

    final int peer;
    final int rail;
    final SocketChannel channel;
    SelectionKey key;

    private final FrameSink sink;
    private final RailCounters counters;
    private final ArrayDeque<OutFrame> queue = new ArrayDeque<>();
    private final ArrayDeque<OutFrame> pool = new ArrayDeque<>();
    private final ByteBuffer in = ByteBuffer.allocateDirect(IN_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN).flip();
    private final FrameHeader inHeader = new FrameHeader();
    private State state = State.HEADER;
    private ByteBuffer target;
    private boolean goodbyeReceived;
    private boolean closed;

    TcpConnection(int peer, int rail, SocketChannel channel, FrameSink sink, RailCounters counters) {
        this.peer = peer;
        this.rail = rail;
        this.channel = channel;
        this.sink = sink;
        this.counters = counters;
    }

    boolean isClosed() {
        return closed;
    }

    boolean paused() {
        return state == State.PAUSED;
    }

    boolean hasOutput() {
        return !queue.isEmpty();
    }

    /** Queues a frame and tries to write it at once. */
    void enqueue(FrameHeader meta, ByteBuffer payload, SendCompletion completion) {
        OutFrame f = pool.isEmpty() ? new OutFrame() : pool.poll();
        f.set(payload, completion);
        meta.encode(f.header);
        f.header.flip();
        queue.add(f);
        if (queue.size() == 1) {
            writeQueued();
        }
        updateInterest();
    }

    /** Writes as much queued output as the socket takes; returns frames completed. */
    int writeQueued() {
        int done = 0;
        try {
            while (!queue.isEmpty()) {
                OutFrame f = queue.peek();
                channel.write(f.pair);
                if (!f.written()) {
                    break;
                }
                queue.poll();
                counters.sent(rail, f.payloadBytes);
                if (f.completion != null) {
                    f.completion.done();
                }
                f.clear();
                pool.add(f);
                done++;
            }
        } catch (IOException e) {
            lost("write failed: " + e.getMessage());
        }
        return done;
    }

    /** Reads and dispatches whatever has arrived; returns how many frames completed. */
    int readAvailable() {
        int frames = 0;
        try {
            for (;;) {
                switch (state) {
                    case PAUSED:
                        return frames;
                    case HEADER: {
                        if (in.remaining() < FrameHeader.BYTES && !fill()) {
                            return frames;
                        }
                        if (in.remaining() < FrameHeader.BYTES) {
                            continue;
                        }
                        String bad = inHeader.decode(in);
                        if (bad != null) {
                            throw new RailcollException("corrupt stream from rank " + peer + " on rail " + rail + ": " + bad);
                        }
                        if (inHeader.sourceRank != peer) {
                            throw new RailcollException("frame on the connection of rank " + peer + " (rail " + rail
                                    + ") claims to come from rank " + inHeader.sourceRank);
                        }
                        frames += dispatchHeader();
                        break;
                    }
                    case PAYLOAD:
                    case ABORT_PAYLOAD: {
                        drainInto(target);
                        if (target.hasRemaining()) {
                            if (target.remaining() >= DIRECT_READ_BYTES) {
                                int n = channel.read(target);
                                if (n < 0) {
                                    eof();
                                    return frames;
                                }
                                counters.received(rail, n);
                                if (n == 0) {
                                    return frames;
                                }
                            } else if (!fill()) {
                                return frames;
                            }
                            continue;
                        }
                        frames++;
                        if (state == State.PAYLOAD) {
                            state = State.HEADER;
                            target = null;
                            sink.onDataComplete(rail, inHeader);
                        } else {
                            target.flip();
                            String reason = StandardCharsets.UTF_8.decode(target).toString();
                            state = State.HEADER;
                            target = null;
                            sink.onAbort(peer, reason);
                        }
                        break;
                    }
                    default:
                        throw new IllegalStateException(state.toString());
                }
            }
        } catch (IOException e) {
            lost(e.getMessage());
            return frames;
        }
    }

    /** Offers a held-back frame again; returns true if the connection is reading again. */
    boolean resume() {
        if (state != State.PAUSED) {
            return false;
        }
        ByteBuffer t = sink.onDataHeader(rail, inHeader);
        if (t == null) {
            return false;
        }
        beginPayload(t);
        updateInterest();
        return true;
    }

    private int dispatchHeader() {
        switch (inHeader.type) {
            case FrameHeader.DATA -> {
                ByteBuffer t = sink.onDataHeader(rail, inHeader);
                if (t == null) {
                    state = State.PAUSED;
                    updateInterest();
                    return 0;
                }
                beginPayload(t);
                return 0;
            }
            case FrameHeader.ABORT -> {
                target = ByteBuffer.allocate(Math.min(inHeader.fragLength, 1 << 16));
                if (inHeader.fragLength > target.capacity()) {
                    throw new RailcollException("rank " + peer + " sent an abort reason of " + inHeader.fragLength + " bytes");
                }
                state = State.ABORT_PAYLOAD;
                return 0;
            }
            case FrameHeader.GOODBYE -> {
                goodbyeReceived = true;
                sink.onGoodbye(peer, rail);
                return 1;
            }
            default -> throw new RailcollException("unknown frame type " + inHeader.type + " from rank " + peer + " on rail " + rail);
        }
    }

    private void beginPayload(ByteBuffer t) {
        if (t.remaining() != inHeader.fragLength) {
            throw new IllegalStateException("sink returned " + t.remaining() + " bytes for a " + inHeader.fragLength + "-byte fragment");
        }
        target = t;
        state = State.PAYLOAD;
    }

    private void drainInto(ByteBuffer dst) {
        int n = Math.min(in.remaining(), dst.remaining());
        if (n == 0) {
            return;
        }
        int limit = in.limit();
        in.limit(in.position() + n);
        dst.put(in);
        in.limit(limit);
    }

    /** Reads more into the staging buffer; false when nothing new arrived. */
    private boolean fill() throws IOException {
        in.compact();
        int n;
        try {
            n = channel.read(in);
        } finally {
            in.flip();
        }
        if (n < 0) {
            eof();
            return false;
        }
        if (n > 0) {
            counters.received(rail, n);
        }
        return n > 0;
    }

    private void eof() {
        if (goodbyeReceived) {
            closeQuietly();
            return;
        }
        lost("connection closed by the peer");
    }

    private void lost(String cause) {
        boolean wasGoodbye = goodbyeReceived;
        closeQuietly();
        if (!wasGoodbye) {
            sink.onPeerLost(peer, rail, cause);
        }
    }

    void updateInterest() {
        if (key == null || !key.isValid()) {
            return;
        }
        int ops = 0;
        if (state != State.PAUSED) {
            ops |= SelectionKey.OP_READ;
        }
        if (!queue.isEmpty()) {
            ops |= SelectionKey.OP_WRITE;
        }
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    boolean goodbyeReceived() {
        return goodbyeReceived;
    }

    void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // already broken; nothing more to release
        }
    }
}
