package io.railcoll.transport.shm;

import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;
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
        final ByteBuffer headerBuffer;
        /** A PULL frame's 8-byte payload: the address of the put's bytes in this process. */
        final MemorySegment address;
        boolean pull;
        int tag;
        long pullLength;
        MemorySegment payload;
        long payloadOffset;
        long payloadLength;
        long headerDone;
        long payloadDone;
        SendCompletion completion;

        Out(Arena arena) {
            header = arena.allocate(FrameHeader.BYTES, 64);
            headerBuffer = header.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            address = arena.allocate(8, 8);
        }
    }

    private enum State { HEADER, PAYLOAD, ABORT_PAYLOAD, PULL_ADDRESS, PULLING, PAUSED }

    /** Largest piece pulled in one {@link #read} call, so the owner keeps serving its other links meanwhile. */
    static final long PULL_CHUNK = 256 * 1024;

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
    /** Where the current payload goes: {@link #targetLength} bytes at {@link #targetBase} of the sink's memory. */
    private MemorySegment target;
    private long targetBase;
    private long targetLength;
    private long targetDone;
    private boolean goodbye;

    // ---- single copy (PULL frames) ----
    private final long peerPid;
    private final Pulls pulls;
    /** PULL frames this rank sent whose bytes the peer has not finished pulling yet, oldest first. */
    private final ArrayDeque<Out> awaitingPulled = new ArrayDeque<>();
    /** This rank's PULL frames the peer has finished pulling, as far as this rank has completed them. */
    private long pullsAnswered;
    /** The peer's PULL frames this rank has finished pulling, published in the ring's control block. */
    private long pullsFinished;
    private final MemorySegment addressIn;
    /** Whether the peer said it may pull from this process (its PULL_OFFER arrived with root = 1). */
    private boolean peerPulls;
    private boolean offerReceived;
    /** Whether this rank told the peer it may pull from it (its PULL_OFFER said root = 1). */
    private boolean offered;
    private final int rank;
    private long pullAddress;
    private long pullDone;

    /**
     * @param peerPid the peer's process, pulled from by {@code process_vm_readv}
     * @param pulls   the transport's pull machinery (reader, bounce buffer, counters), shared by its links
     */
    ShmLink(int rank, int peer, long peerPid, ShmChannel out, ShmChannel in, FrameSink sink, Arena arena, Pulls pulls) {
        this.rank = rank;
        this.peer = peer;
        this.peerPid = peerPid;
        this.out = out;
        this.in = in;
        this.sink = sink;
        this.arena = arena;
        this.pulls = pulls;
        this.addressIn = arena.allocate(8, 8);
    }

    /** Whether the peer may pull from this process: puts to it may be sent as PULL frames. */
    boolean peerPulls() {
        return peerPulls;
    }

    /** Whether the peer's PULL_OFFER (its first frame) has arrived. */
    boolean offerReceived() {
        return offerReceived;
    }

    /** PULL frames sent whose bytes the peer has not finished pulling. */
    boolean awaitingPulls() {
        return !awaitingPulled.isEmpty();
    }

    /** Whether the peer has finished pulling a put of this rank's that {@link #completePulls} has not completed. */
    boolean pullsToComplete() {
        return !awaitingPulled.isEmpty() && out.pulled() > pullsAnswered;
    }

    /**
     * Completes this rank's single-copy puts that the peer has finished pulling, oldest first (the peer pulls them in
     * the order the ring carried their PULL frames); returns how many. Their buffers are this rank's again.
     */
    int completePulls() {
        if (awaitingPulled.isEmpty()) {
            return 0;
        }
        long finished = out.pulled();
        int done = 0;
        while (pullsAnswered < finished) {
            Out f = awaitingPulled.poll();
            if (f == null) {
                throw new RailcollException("rank " + peer + " says it has pulled " + finished + " single-copy puts of"
                        + " rank " + rank + ", which sent it only " + pullsAnswered);
            }
            pullsAnswered++;
            done++;
            f.completion.done();
            f.payload = null;
            f.completion = null;
            f.pull = false;
            pool.add(f);
        }
        return done;
    }

    /** Whether this rank is in the middle of pulling a put from the peer. */
    boolean pulling() {
        return state == State.PULLING;
    }

    /** For messages: what this link is in the middle of, single-copy-wise, or "" when nothing. */
    String pullActivity() {
        StringBuilder b = new StringBuilder();
        if (!awaitingPulled.isEmpty()) {
            Out f = awaitingPulled.peek();
            b.append(" while it pulled ").append(f.pullLength).append(" bytes (tag ").append(f.tag)
                    .append(") of this rank's put by cross-memory attach");
            if (awaitingPulled.size() > 1) {
                b.append(" (and ").append(awaitingPulled.size() - 1).append(" more puts)");
            }
        }
        if (state == State.PULLING) {
            b.append(b.isEmpty() ? "" : " and").append(" while this rank pulled its put of ").append(inHeader.fragLength)
                    .append(" bytes (tag ").append(inHeader.tag).append(") by cross-memory attach, ").append(pullDone)
                    .append(" bytes of it done");
        }
        return b.toString();
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
        return state == State.PULLING || state != State.PAUSED && in.readable() > 0;
    }

    void enqueue(FrameHeader meta, MemorySegment payload, long offset, long length, SendCompletion completion) {
        Out f = take(meta);
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

    /**
     * Queues a PULL frame: {@code meta} (a DATA frame's header with type PULL) and the address of the put's
     * {@code length} bytes in this process. {@code completion} completes when the peer counts the pull finished.
     */
    void enqueuePull(FrameHeader meta, long address, long length, SendCompletion completion) {
        Out f = take(meta);
        f.pull = true;
        f.tag = meta.tag;
        f.pullLength = length;
        f.address.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, address);
        f.payload = f.address;
        f.payloadOffset = 0;
        f.payloadLength = 8;
        f.headerDone = 0;
        f.payloadDone = 0;
        f.completion = completion;
        queue.add(f);
        if (queue.size() == 1) {
            write();
        }
    }

    /** Queues this rank's PULL_OFFER, the first frame on the ring: whether this rank may pull from the peer. */
    void offer(boolean thisRankPulls) {
        offered = thisRankPulls;
        FrameHeader h = new FrameHeader();
        h.type = FrameHeader.PULL_OFFER;
        h.sourceRank = rank;
        h.root = thisRankPulls ? 1 : 0;
        enqueue(h, MemorySegment.NULL, 0, 0, null);
    }

    private Out take(FrameHeader meta) {
        Out f = pool.isEmpty() ? new Out(arena) : pool.poll();
        f.headerBuffer.clear();
        meta.encode(f.headerBuffer);
        if (CallCounters.ON) {
            CallCounters.add(Event.SHM_FRAME_SENT);
        }
        f.pull = false;
        return f;
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
            done++;
            if (f.pull) {
                awaitingPulled.add(f); // the peer reads this rank's buffer until it counts the pull finished
                continue;
            }
            if (f.completion != null) {
                f.completion.done();
            }
            f.payload = null;
            f.completion = null;
            pool.add(f);
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
                    if (CallCounters.ON) {
                        CallCounters.add(Event.SHM_FRAME_RECEIVED);
                    }
                    if (bad != null) {
                        throw new RailcollException("corrupt shared-memory stream from rank " + peer + ": " + bad);
                    }
                    if (inHeader.sourceRank != peer) {
                        throw new RailcollException("frame in the ring of rank " + peer + " claims to come from rank "
                                + inHeader.sourceRank);
                    }
                    switch (inHeader.type) {
                        case FrameHeader.DATA -> {
                            MemorySegment t = sink.onDataHeader(-1, inHeader);
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
                            targetBase = 0;
                            targetLength = inHeader.fragLength;
                            targetDone = 0;
                            state = State.ABORT_PAYLOAD;
                        }
                        case FrameHeader.PULL -> {
                            if (!offered) {
                                throw new RailcollException("rank " + peer + " sent a single-copy (PULL) frame although"
                                        + " this rank told it not to");
                            }
                            headerRead = 0;
                            state = State.PULL_ADDRESS;
                        }
                        case FrameHeader.PULL_OFFER -> {
                            offerReceived = true;
                            peerPulls = inHeader.root == 1 && pulls.enabled();
                            frames++;
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
                    long want = targetLength - targetDone;
                    if (want > 0) {
                        targetDone += in.read(target, targetBase + targetDone, want);
                        if (targetDone < targetLength) {
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
                case PULL_ADDRESS: {
                    headerRead += in.read(addressIn, headerRead, 8 - headerRead);
                    if (headerRead < 8) {
                        return frames;
                    }
                    headerRead = 0;
                    pullAddress = addressIn.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
                    MemorySegment t = sink.onDataHeader(-1, inHeader);
                    if (t == null) {
                        state = State.PAUSED;
                        return frames;
                    }
                    begin(t);
                    break;
                }
                case PULLING: {
                    // One piece per call: the owner serves its other links between pieces.
                    long piece = Math.min(PULL_CHUNK, targetLength - pullDone);
                    if (piece > 0) {
                        pullPiece(piece);
                        pullDone += piece;
                        if (pullDone < targetLength) {
                            return frames + 1;
                        }
                    }
                    frames++;
                    target = null;
                    state = State.HEADER;
                    // The answer is a count in the ring's control block, not a frame behind this rank's own: those
                    // may be of a later call the peer cannot take while it waits for this answer (decision 0217).
                    in.publishPulled(++pullsFinished);
                    pulls.pulled(inHeader.fragLength);
                    sink.onDataComplete(-1, inHeader);
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
        MemorySegment t = sink.onDataHeader(-1, inHeader);
        if (t == null) {
            return false;
        }
        begin(t);
        return true;
    }

    private void begin(MemorySegment t) {
        long at = inHeader.fragLength == 0 ? 0 : inHeader.landingOffset; // nothing lands: where does not matter
        if (at < 0 || at > t.byteSize() - inHeader.fragLength) {
            throw new IllegalStateException("sink returned " + t.byteSize() + " bytes to land a " + inHeader.fragLength
                    + "-byte frame at " + at);
        }
        target = t;
        targetBase = at;
        targetLength = inHeader.fragLength;
        targetDone = 0;
        pullDone = 0;
        state = inHeader.type == FrameHeader.PULL ? State.PULLING : State.PAYLOAD;
    }

    /** Pulls {@code piece} bytes at {@link #pullDone} of the current PULL straight into its destination. */
    private void pullPiece(long piece) {
        long remote = pullAddress + pullDone;
        try {
            if (target.isNative()) {
                pulls.reader.read(peerPid, remote, target, targetBase + pullDone, piece);
            } else {
                // A heap destination (the user's byte[]) may move with the GC: pull into native memory, copy over.
                MemorySegment bounce = pulls.bounce();
                pulls.reader.read(peerPid, remote, bounce, 0, piece);
                MemorySegment.copy(bounce, 0, target, targetBase + pullDone, piece);
            }
        } catch (ShmException e) {
            String what = "pulling " + inHeader.fragLength + " bytes (tag " + inHeader.tag + ") of its put by"
                    + " cross-memory attach, " + pullDone + " bytes of it done: " + e.getMessage();
            if (e.reason() == ShmException.Reason.PEER_LOST) {
                sink.onPeerLost(peer, -1, "its process (pid " + peerPid + ") on this node has exited while this rank was "
                        + what);
            }
            throw new RailcollException("rank " + rank + ": failed " + what, e);
        }
    }
}
