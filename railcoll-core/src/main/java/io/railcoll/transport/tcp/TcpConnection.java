package io.railcoll.transport.tcp;

import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.SendCompletion;
import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One TCP connection (a <em>lane</em>) to one peer on one rail: outgoing frames, the DATA frames written but not yet
 * acknowledged, and a receive state machine that streams payloads straight into the buffer the engine names.
 *
 * <p><b>Acknowledgement.</b> Both ends count the DATA frames on the lane (a frame's <em>position</em>). The
 * receiver writes an ACK carrying its count after every burst of reads that completed frames, and as a heartbeat
 * when the lane has been quiet; the sender keeps every written DATA frame until an ACK covers it, so a failed
 * rail's frames can be re-sent on another. A large frame refers to the caller's buffer and completes
 * ({@link io.railcoll.transport.SendCompletion}) only when acknowledged, so a collective does not return while its
 * buffer may still be needed; a small one ({@link LaneSet#eagerBytes}, at most {@link #MAX_EAGER_IN_FLIGHT}
 * outstanding per lane) is copied when queued and completes once written: the ACK's round trip, a wake-up of
 * the receiver and one of the sender, leaves the critical path of small collectives, and the copy is what a
 * re-send takes. ACKs jump the queue: they go out between two frames, not behind them, and an ACK owed when a DATA
 * frame is about to start goes out in the same write, in front of it ({@link #carryOwedAck}), so that an exchange
 * costs no write and no wake-up for ACKs alone.
 *
 * <p><b>Receive states.</b> Reading a header; reading a payload into its target; discarding the payload of a
 * duplicate; paused on a header whose collective is not posted yet (the frame stays unread, TCP flow control slows
 * the sender); waiting until the lanes a REPLAY names are closed on this side before judging the copy.
 *
 * <p>Threading: driven by exactly one thread at a time, that of its {@link LaneDriver}; {@link #isBroken} and
 * {@link #requestQuiesce} may be called from any thread.
 */
final class TcpConnection {
    private static final int IN_BUFFER_BYTES = 256 * 1024;
    /** Payload reads at least this large bypass the staging buffer and go straight into the target. */
    private static final int DIRECT_READ_BYTES = 64 * 1024;

    private enum State { HEADER, PAYLOAD, SPILL_PAYLOAD, DISCARD, ABORT_PAYLOAD, PAUSED, AWAIT_QUIESCE, STOPPED }

    /**
     * A frame of a collective not posted yet, read into memory of its own (see {@link #spillIfBlocking}). Reused
     * (see {@link #spares}): a loop of calls that spills a frame now and then allocates no new one.
     */
    private static final class Spilled {
        final FrameHeader header = new FrameHeader();
        ByteBuffer data = ByteBuffer.allocate(0);
        MemorySegment memory = MemorySegment.ofArray(new byte[0]);
        int length;

        /** Makes room for {@code bytes} and returns the buffer to read them into. */
        ByteBuffer ready(int bytes) {
            if (data.capacity() < bytes) {
                byte[] room = new byte[bytes];
                data = ByteBuffer.wrap(room);
                memory = MemorySegment.ofArray(room);
            }
            length = bytes;
            return data.clear().limit(bytes);
        }
    }

    /** Spilled frames delivered, kept for the next (a few, and small: held memory stays bounded). */
    private final ArrayDeque<Spilled> spares = new ArrayDeque<>();
    private static final int SPARES = 8;
    private static final int SPARE_BYTES = 1 << 20;
    /** The spilled frame being read (its payload is {@link #target}). */
    private Spilled spilling;

    final int peer;
    final int lane;
    final int rail;
    /** Which connection of this lane this is (see {@link PeerLanes}): {@code lane} at start-up, then growing. */
    final int generation;
    final SocketChannel channel;
    final DeliveryGate gate;
    LaneDriver driver;
    SelectionKey key;

    private final LaneSet lanes;
    private final PeerLanes peerLanes;
    private final ArrayDeque<OutFrame> queue = new ArrayDeque<>();
    private final ArrayDeque<OutFrame> unacked = new ArrayDeque<>();
    /**
     * REPLAYS_DONE frames written here (only after a fail-over, a few). Nothing acknowledges them, so if this
     * connection fails they go again, behind the copies that go again with them: the peer may not have read them.
     */
    private final List<OutFrame> replaysDoneWritten = new ArrayList<>(0);
    /** Frames in {@link #unacked} whose sender waits for their ACK (a completion not yet done: large frames). */
    private int awaitingAck;
    /**
     * Frames a receiver lets go unacknowledged before it acknowledges at once, whatever their size: half the sender's
     * eager window ({@link #MAX_EAGER_IN_FLIGHT}), so a sender never runs out of it for want of an ACK.
     */
    static final int ACK_WINDOW = 128;
    /**
     * How long a received frame may wait for its ACK when its sender does not wait for it (see readAvailable): 2 ms,
     * long enough that in an exchange the ACK usually rides in front of the next DATA frame back ({@link
     * #carryOwedAck}) instead of going out alone (decision 0130; it was 0.5 ms before). It bounds how long a small
     * frame's copy is held and how long a close waits for the last ACKs. {@code -Drailcoll.rail.ackDelayUs=N} for
     * A/B runs.
     */
    static final long ACK_DELAY_NS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("railcoll.rail.ackDelayUs", 2000));
    /** Whether an owed ACK rides in front of the next DATA frame (see {@link #carryOwedAck}); on unless turned off. */
    static final boolean CARRY_ACK = !"false".equals(System.getProperty("railcoll.rail.carryAck"));

    /**
     * Eager frames a lane may hold unacknowledged; past this, frames complete on acknowledgement again, so a root
     * that runs far ahead of a slow receiver is held back instead of copying without bound.
     */
    private static final int MAX_EAGER_IN_FLIGHT = 256;
    /** Eager frames of this lane not acknowledged yet. */
    private int eagerInFlight;
    private final ArrayDeque<OutFrame> pool = new ArrayDeque<>();
    private final FrameHeader control = new FrameHeader();
    private final OutFrame ackFrame = new OutFrame();
    private boolean ackQueued;
    private long ackEncoded;
    /** Since when frames received are not acknowledged yet (0: none owed); see {@link #readAvailable}. */
    private long ackOwedSinceNs;
    /** A frame received since the last ACK was one its sender waits for: acknowledge at once. */
    private boolean ackAwaited;
    private long nextPosition;

    private final ByteBuffer in = ByteBuffer.allocateDirect(IN_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN).flip();
    private final FrameHeader inHeader = new FrameHeader();
    /** Volatile only so that other drivers asking {@link #paused} see a recent value. */
    private volatile State state = State.HEADER;
    private ByteBuffer target;
    /** This connection's views of the memories frames land in (see {@link #landing}). */
    private final SegmentViews landingViews = new SegmentViews();
    private static final ByteBuffer NO_PAYLOAD = ByteBuffer.allocate(0);
    private long discardLeft;
    private long received;
    /** Origin of the DATA frame announced by the last REPLAY (position, or {@link OutFrame#NO_ORIGIN}), its lane and generation. */
    private long replayOrigin = OutFrame.NO_ORIGIN;
    private int replayOriginLane;
    private int replayOriginGeneration;
    /** The lanes the REPLAY's sender had given up, every connection of theirs up to generation {@link #replayThrough}. */
    private long replayMask;
    private int replayThrough;
    /** Frames read ahead of their collective to reach ACKs behind them; delivered, in order, when it is posted. */
    private final ArrayDeque<Spilled> spilled = new ArrayDeque<>();
    /** {@code spilled.size()}, readable by other drivers (for {@link #paused}). */
    private volatile int spilledCount;
    /**
     * The most payload bytes one connection holds in spilled frames ({@link #spillIfBlocking}): a frame's length is
     * the peer's word, so without a bound an authenticated peer could make this rank allocate up to 2 GiB per frame.
     */
    static final long MAX_SPILL_BYTES = 64L << 20;
    /** Payload bytes of the spilled frames held now, and of the one being read into memory. */
    private long spilledBytes;
    private boolean ackAgain;
    private boolean goodbyeReceived;
    private volatile boolean broken;
    /** Why the last write failed; the lane's fate is then decided by what its read side finds. */
    private String writeFailure;
    private volatile boolean quiesceRequested;
    /** This connection broke before its goodbye, and was counted so ({@link PeerLanes#laneLostWithoutGoodbye}). */
    private volatile boolean countedLost;

    /** ACKs written as frames of their own, and in front of a DATA frame ({@link #carryOwedAck}); driver thread. */
    long acksAlone;
    long acksCarried;

    long lastSentNs;
    /** Written by this lane's driver, read by others deciding whether the peer as a whole is silent. */
    volatile long lastHeardNs;

    TcpConnection(int peer, int lane, int rail, int generation, SocketChannel channel, LaneSet lanes, long nowNs) {
        this.peer = peer;
        this.lane = lane;
        this.rail = rail;
        this.generation = generation;
        this.channel = channel;
        this.lanes = lanes;
        this.peerLanes = lanes.peer(peer);
        this.gate = peerLanes.gate(generation);
        this.lastSentNs = nowNs;
        this.lastHeardNs = nowNs;
    }

    boolean isBroken() {
        return broken;
    }

    /** Holding frames back: paused on a header, waiting to judge a copy, or holding spilled frames. */
    boolean paused() {
        return state == State.PAUSED || state == State.AWAIT_QUIESCE || spilledCount > 0;
    }

    boolean awaitingQuiesce() {
        return state == State.AWAIT_QUIESCE;
    }

    boolean hasOutput() {
        return writeFailure == null && !queue.isEmpty();
    }

    boolean goodbyeReceived() {
        return goodbyeReceived;
    }

    /** Asks this lane's driver to close the lane because the peer stopped using it (any thread). */
    void requestQuiesce() {
        quiesceRequested = true;
    }

    boolean quiesceRequested() {
        return quiesceRequested;
    }

    boolean countedLost() {
        return countedLost;
    }

    // ---- sending ----

    /** Queues a new frame (ABORT or GOODBYE) built from {@code h} and tries to write it at once. */
    void enqueue(FrameHeader h, ByteBuffer payload, SendCompletion completion, long nowNs) {
        OutFrame f = pool.isEmpty() ? new OutFrame() : pool.poll();
        f.set(h, payload, completion);
        queueNew(f, h, completion, nowNs);
    }

    /** Queues a DATA frame built from {@code h}: {@code h.fragLength} bytes of {@code src} at {@code srcOffset}. */
    void enqueue(FrameHeader h, MemorySegment src, long srcOffset, SendCompletion completion, long nowNs) {
        OutFrame f = pool.isEmpty() ? new OutFrame() : pool.poll();
        f.set(h, src, srcOffset, completion);
        queueNew(f, h, completion, nowNs);
    }

    private void queueNew(OutFrame f, FrameHeader h, SendCompletion completion, long nowNs) {
        if (h.type == FrameHeader.DATA && completion != null && f.payloadBytes <= lanes.eagerBytes
                && eagerInFlight < MAX_EAGER_IN_FLIGHT) {
            f.detachPayload(lanes.eagerBytes);
            f.eager = true;
            eagerInFlight++;
            lanes.eagerSent();
        }
        f.rewind(null);
        append(f, nowNs);
    }

    /** Queues a DATA frame that moved here from a failed lane: as a REPLAY of its origin if it was ever fully written. */
    void enqueueMoved(OutFrame f, long nowNs) {
        if (f.eager) {
            eagerInFlight++;
        }
        if (f.origin == OutFrame.NO_ORIGIN) {
            f.rewind(null);
        } else {
            // The highest generation first, the dead lanes after: a lane taken back into use in between is then
            // either not in the mask or of a newer generation than the one named, so it is never closed by mistake.
            int through = peerLanes.highestAdopted();
            control.type = FrameHeader.REPLAY;
            control.sourceRank = lanes.rank;
            control.seq = f.origin;
            control.tag = f.originLane;
            control.root = f.originGeneration;
            control.blockBytes = peerLanes.deadMask();
            control.putLength = through;
            control.fragOffset = 0;
            control.fragLength = 0;
            f.rewind(control);
        }
        append(f, nowNs);
    }

    private void append(OutFrame f, long nowNs) {
        if (f.type == FrameHeader.DATA) {
            f.position = nextPosition++;
        }
        queue.add(f);
        if (queue.size() == 1) {
            writeQueued(nowNs);
        }
        if (f.type == FrameHeader.DATA && state == State.PAUSED) {
            spillIfBlocking(); // its ACK will come behind the frame this lane is paused on
        }
        updateInterest();
    }

    /** Queues an ACK with the current count, unless one not yet started will carry it anyway. */
    void queueAck(long nowNs) {
        if (broken) {
            return;
        }
        if (ackQueued) {
            if (!ackFrame.started() && ackEncoded != received) {
                encodeAck();
            }
            return;
        }
        encodeAck();
        ackQueued = true;
        OutFrame head = queue.peek();
        if (head != null && head.started()) {
            queue.poll();
            queue.addFirst(ackFrame);
            queue.addFirst(head);
        } else {
            queue.addFirst(ackFrame);
            writeQueued(nowNs);
        }
        updateInterest();
    }

    private void encodeAck() {
        encodeAckHeader();
        ackFrame.set(control, null, null);
        ackFrame.rewind(null);
    }

    /** Sets {@link #control} to an ACK of every frame received so far, which counts as sent from now on. */
    private void encodeAckHeader() {
        control.type = FrameHeader.ACK;
        control.sourceRank = lanes.rank;
        control.seq = received;
        control.tag = 0;
        control.blockBytes = 0;
        control.putLength = 0;
        control.fragOffset = 0;
        control.fragLength = 0;
        ackEncoded = received;
        ackOwedSinceNs = 0;
        ackAwaited = false;
    }

    /** Whether frames received more than {@code delayNs} ago still wait for their ACK. */
    boolean ackOwedLongerThan(long nowNs, long delayNs) {
        return ackOwedSinceNs != 0 && nowNs - ackOwedSinceNs >= delayNs;
    }

    /** When the frames received but not acknowledged yet are due for their ACK, or 0 when none is owed. */
    long ackDueNs() {
        return ackOwedSinceNs == 0 ? 0 : ackOwedSinceNs + ACK_DELAY_NS;
    }

    /** Writes as much queued output as the socket takes; returns frames that left (ABORT/GOODBYE completed). */
    int writeQueued(long nowNs) {
        if (writeFailure != null) {
            return 0;
        }
        int done = 0;
        try {
            while (!queue.isEmpty()) {
                OutFrame f = carryOwedAck(queue.peek());
                long n = channel.write(f.parts(), f.firstPart(), f.partCount());
                if (CallCounters.ON) {
                    CallCounters.add(Event.RAIL_WRITE_CALLS, rail, 1);
                    CallCounters.add(Event.RAIL_BYTES_SENT, rail, Math.max(0, n));
                }
                if (n > 0) {
                    lastSentNs = nowNs;
                }
                if (!f.written()) {
                    break;
                }
                queue.poll();
                done++;
                if (f == ackFrame) {
                    acksAlone++;
                    if (CallCounters.ON) {
                        CallCounters.add(Event.RAIL_ACK_SENT, rail, 1);
                    }
                    ackQueued = false;
                    // Frames completed while this ACK was on its way need one more.
                    ackAgain |= ackEncoded != received;
                    continue;
                }
                if (f.type == FrameHeader.DATA) {
                    if (f.carriesAck) {
                        acksCarried++;
                    }
                    if (CallCounters.ON) {
                        CallCounters.add(Event.RAIL_DATA_SENT, rail, 1);
                        if (f.carriesAck) {
                            CallCounters.add(Event.RAIL_ACK_PIGGYBACKED, rail, 1);
                        }
                    }
                    lanes.counters.sent(rail, f.payloadBytes);
                    f.written(lane, generation, f.position);
                    if (f.eager && f.completion != null) {
                        f.completion.done();
                        f.completion = null;
                    }
                    if (f.completion != null) {
                        awaitingAck++;
                    }
                    unacked.add(f);
                } else if (f.type == FrameHeader.REPLAYS_DONE) {
                    replaysDoneWritten.add(f); // not acknowledged: kept to go again if this connection fails
                } else {
                    if (f.completion != null) {
                        f.completion.done();
                    }
                    recycle(f);
                }
            }
        } catch (IOException e) {
            // The peer closed the connection. After a goodbye that this side has not read yet, that is a normal
            // departure (the keeper's heartbeat can hit the closed socket while the owner computes); otherwise a
            // failure. The read side tells which from what it finds before the end of the stream (or a reset),
            // right behind; until then this lane writes nothing more.
            writeFailure = "write failed: " + e.getMessage();
            updateInterest();
            return done;
        }
        if (ackAgain && !broken) {
            ackAgain = false;
            queueAck(nowNs);
        }
        return done;
    }

    /**
     * The frame to write next, {@code head} or the DATA frame behind a queued ACK: an ACK this side owes (queued and
     * not started, or due later, {@link #ACK_DELAY_NS}) goes out in front of a DATA frame that has not started, in the
     * same system call, instead of as a write of its own. In an exchange (every all-gather, a ping-pong) each side
     * acknowledges the other's last frames with its next one, so the peer reads both in one wake-up and no lone ACK
     * crosses the wire; the stream is the same frames in the same order as before, so the receiver and rail
     * fail-over see nothing new (decision 0130). Disabled by {@code -Drailcoll.rail.carryAck=false}, for A/B runs.
     */
    private OutFrame carryOwedAck(OutFrame head) {
        if (!CARRY_ACK || broken) {
            return head;
        }
        if (head == ackFrame) {
            if (ackFrame.started() || queue.size() < 2) {
                return head;
            }
            queue.poll();
            OutFrame next = queue.peek();
            if (!canCarryAck(next)) {
                queue.addFirst(ackFrame);
                return head;
            }
            ackQueued = false;
            carryAck(next);
            return next;
        }
        if (!ackQueued && received != ackEncoded && canCarryAck(head)) {
            carryAck(head);
        }
        return head;
    }

    private static boolean canCarryAck(OutFrame f) {
        return f.type == FrameHeader.DATA && !f.started() && f.firstPart() == 1;
    }

    private void carryAck(OutFrame f) {
        encodeAckHeader();
        f.carryAck(control);
    }

    private void recycle(OutFrame f) {
        f.clear();
        pool.add(f);
    }

    /** An ACK for {@code count} frames arrived: completes every DATA frame below that position. */
    private int acknowledged(long count) {
        if (count > nextPosition) {
            throw new RailcollException("rank " + peer + " acknowledged " + count + " frames on rail " + rail
                    + " but only " + nextPosition + " were sent (corrupt stream)");
        }
        int done = 0;
        while (!unacked.isEmpty() && unacked.peek().position < count) {
            OutFrame f = unacked.poll();
            if (f.eager) {
                eagerInFlight--;
                lanes.eagerAcknowledged();
            }
            if (f.completion != null) {
                awaitingAck--;
                f.completion.done();
            }
            recycle(f);
            done++;
        }
        return done;
    }

    // ---- receiving ----

    /** Reads and dispatches whatever has arrived; returns how many frames completed (data, acks, control). */
    int readAvailable(long nowNs) {
        int frames = 0;
        long before = received;
        try {
            frames = readLoop(nowNs);
        } catch (IOException e) {
            lanes.breakLane(this, e.getMessage() == null ? e.toString() : e.getMessage(), false, nowNs);
        }
        if (received != before && !broken) {
            // A sender waits for the ACK of a frame larger than the eager limit, and of a small one only when its
            // window of unacknowledged eager frames is full: acknowledge those at once. The rest can wait for the
            // housekeeping round (ACK_DELAY_NS): an ACK written right after each read cost the receiver a write,
            // on the path of its own reply, and the sender a wake-up, for every small message.
            if (ackAwaited || received - ackEncoded >= ACK_WINDOW) {
                queueAck(nowNs);
            } else if (ackOwedSinceNs == 0) {
                ackOwedSinceNs = nowNs;
                driver.housekeepBy(nowNs + ACK_DELAY_NS);
            }
        }
        return frames;
    }

    private int readLoop(long nowNs) throws IOException {
        int frames = 0;
        for (;;) {
            switch (state) {
                case PAUSED, AWAIT_QUIESCE, STOPPED:
                    return frames;
                case HEADER: {
                    if (in.remaining() < FrameHeader.BYTES && !fill(nowNs)) {
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
                    frames += dispatchHeader(nowNs);
                    break;
                }
                case DISCARD: {
                    int n = (int) Math.min(in.remaining(), discardLeft);
                    in.position(in.position() + n);
                    discardLeft -= n;
                    if (discardLeft > 0) {
                        if (!fill(nowNs)) {
                            return frames;
                        }
                        continue;
                    }
                    // A duplicate still takes its position: the sender counts it, and so must the ACK.
                    if (!gate.tryAdvance(received)) {
                        stop();
                        return frames;
                    }
                    countReceived();
                    replayOrigin = OutFrame.NO_ORIGIN;
                    state = State.HEADER;
                    frames++;
                    break;
                }
                case PAYLOAD, SPILL_PAYLOAD, ABORT_PAYLOAD: {
                    drainInto(target);
                    if (target.hasRemaining()) {
                        if (target.remaining() >= DIRECT_READ_BYTES) {
                            int n = channel.read(target);
                            if (CallCounters.ON) {
                                CallCounters.add(Event.RAIL_READ_CALLS, rail, 1);
                            }
                            if (n < 0) {
                                eof(nowNs);
                                return frames;
                            }
                            if (n == 0) {
                                return frames;
                            }
                            heard(n, nowNs);
                        } else if (!fill(nowNs)) {
                            return frames;
                        }
                        continue;
                    }
                    frames++;
                    if (state == State.PAYLOAD) {
                        state = State.HEADER;
                        target = null;
                        completeData();
                        if (state == State.STOPPED) {
                            return frames;
                        }
                    } else if (state == State.SPILL_PAYLOAD) {
                        state = State.HEADER;
                        completeSpill();
                        if (state == State.STOPPED) {
                            return frames;
                        }
                    } else {
                        target.flip();
                        String reason = StandardCharsets.UTF_8.decode(target).toString();
                        state = State.HEADER;
                        target = null;
                        lanes.sink.onAbort(peer, reason);
                    }
                    break;
                }
                default:
                    throw new IllegalStateException(state.toString());
            }
        }
    }

    /** Counts the DATA frame just read ({@link #inHeader}) for the next ACK, noting whether its sender awaits it. */
    private void countReceived() {
        if (CallCounters.ON) {
            CallCounters.add(Event.RAIL_DATA_RECEIVED, rail, 1);
        }
        received++;
        ackAwaited |= inHeader.fragLength > lanes.eagerBytes;
    }

    /** The payload of a DATA frame is in place: count it, then deliver it unless it turned out a duplicate. */
    private void completeData() {
        if (!gate.tryAdvance(received)) {
            // This lane was closed meanwhile by a REPLAY on another lane; that copy decides.
            stop();
            return;
        }
        countReceived();
        if (!claimIfReplayed()) {
            return;
        }
        lanes.sink.onDataComplete(rail, inHeader);
        driver.noteProgress();
    }

    /** Offers held-back frames again (spilled ones first); returns true if the connection is reading again. */
    boolean resume() {
        deliverSpilled();
        if (state == State.AWAIT_QUIESCE) {
            return judgeReplay();
        }
        if (state != State.PAUSED) {
            return false;
        }
        MemorySegment t = lanes.sink.onDataHeader(rail, inHeader);
        if (t == null) {
            spillIfBlocking(); // a fail-over since it paused may have put something it needs behind it
            return state == State.SPILL_PAYLOAD;
        }
        beginPayload(t);
        updateInterest();
        return true;
    }

    private int dispatchHeader(long nowNs) {
        switch (inHeader.type) {
            case FrameHeader.DATA -> {
                if (replayOrigin != OutFrame.NO_ORIGIN) {
                    state = State.AWAIT_QUIESCE;
                    judgeReplay();
                    return 0;
                }
                offerData();
                return 0;
            }
            case FrameHeader.ACK -> {
                if (CallCounters.ON) {
                    CallCounters.add(Event.RAIL_ACK_RECEIVED, rail, 1);
                }
                int done = acknowledged(inHeader.seq);
                if (done > 0) {
                    driver.noteProgress();
                }
                return 1;
            }
            case FrameHeader.REPLAY -> {
                if (replayOrigin != OutFrame.NO_ORIGIN) {
                    throw new RailcollException("two REPLAY frames in a row from rank " + peer + " on rail " + rail);
                }
                if (inHeader.root == generation || inHeader.putLength > Integer.MAX_VALUE) {
                    throw new RailcollException("rank " + peer + " sent a REPLAY on rail " + rail + " naming connection "
                            + inHeader.root + " (this one is " + generation + ") through " + inHeader.putLength
                            + " (corrupt stream)");
                }
                replayOrigin = inHeader.seq;
                replayOriginLane = inHeader.tag;
                replayOriginGeneration = inHeader.root;
                replayMask = inHeader.blockBytes;
                replayThrough = (int) inHeader.putLength;
                return 0;
            }
            case FrameHeader.REPLAYS_DONE -> {
                if (replayOrigin != OutFrame.NO_ORIGIN) {
                    throw new RailcollException("rank " + peer + " sent a REPLAY on rail " + rail
                            + " followed by a REPLAYS_DONE instead of the frame it announced (corrupt stream)");
                }
                if (!peerLanes.replaysDone(inHeader.root)) {
                    throw new RailcollException("rank " + peer + " said on rail " + rail + " it re-sent every frame of"
                            + " connection " + inHeader.root + ", which was never made (corrupt stream)");
                }
                return 1;
            }
            case FrameHeader.ABORT -> {
                if (inHeader.fragLength > (1 << 16)) {
                    throw new RailcollException("rank " + peer + " sent an abort reason of " + inHeader.fragLength + " bytes");
                }
                target = ByteBuffer.allocate(inHeader.fragLength);
                state = State.ABORT_PAYLOAD;
                return 0;
            }
            case FrameHeader.GOODBYE -> {
                goodbyeReceived = true;
                peerLanes.sawGoodbye();
                lanes.sink.onGoodbye(peer, rail);
                return 1;
            }
            default -> throw new RailcollException("unknown frame type " + inHeader.type + " from rank " + peer + " on rail " + rail);
        }
    }

    private void offerData() {
        // Spilled frames came first on this lane: those whose collective is posted go first. One still held is of a
        // later collective than this frame may be: a frame re-sent after a fail-over can come behind it.
        deliverSpilled();
        MemorySegment t = lanes.sink.onDataHeader(rail, inHeader);
        if (t == null) {
            state = State.PAUSED;
            spillIfBlocking();
            updateInterest();
            return;
        }
        beginPayload(t);
    }

    /**
     * Pausing leaves a frame unread until its collective is posted, and with it everything behind it on this lane.
     * Normally nothing this rank needs can be behind it: the peer finished sending this rank's current collective
     * on this lane, and acknowledged this rank's frames, before it moved on. After a fail-over two things can be:
     * <ul>
     *   <li>an ACK this rank waits for: the peer acknowledges a re-sent copy only when it arrives, possibly after
     *       it started sending the next collective's data, and this rank cannot finish its collective (and post the
     *       next) without the ACK; so while this lane has frames awaiting an ACK;</li>
     *   <li>a frame of this rank's current collective that the peer re-sent from a connection closed here, behind a
     *       frame of a later collective it had already written on this lane; so until the peer's REPLAYS_DONE for
     *       every such connection ({@link PeerLanes#replaysPending}, decision 0246);</li>
     * </ul>
     * a paused frame is read into memory of its own instead (bounded: {@link LaneSet#spillLimitBytes} per
     * connection, only after a fail-over), and reading goes on. Spilled frames are delivered, in order, when their
     * collective is posted.
     */
    void spillIfBlocking() {
        if (state != State.PAUSED) {
            return;
        }
        boolean ackBehind = !unacked.isEmpty() || hasQueuedData();
        if (!ackBehind && !peerLanes.replaysPending()) {
            return;
        }
        if (spilledBytes + inHeader.fragLength > lanes.spillLimitBytes) {
            if (!ackBehind) {
                // Perhaps nothing this rank needs is behind it: stay paused. If a re-sent copy is, the collective
                // waiting for it fails at its deadline, naming the bytes it waited for.
                return;
            }
            // Holding it would take more memory than one connection may; leaving it unread could leave this rank
            // waiting for the acknowledgement behind it until the deadline. Fail now, saying why.
            lanes.fail(new RailcollException("rank " + lanes.rank + ": rank " + peer + " sent a frame of "
                    + inHeader.fragLength + " bytes on rail " + rail + " for a collective this rank has not posted yet"
                    + " (#" + inHeader.seq + "), while it awaits an acknowledgement queued behind it after a rail"
                    + " fail-over; holding it would take more than the " + lanes.spillLimitBytes + " bytes a"
                    + " connection may hold (" + spilledBytes + " held already)"));
            haltReading();
            return;
        }
        spilledBytes += inHeader.fragLength;
        spilling = spares.isEmpty() ? new Spilled() : spares.poll();
        target = spilling.ready(inHeader.fragLength);
        state = State.SPILL_PAYLOAD;
        updateInterest();
    }

    /**
     * Whether a DATA frame waits in the queue. Asked whenever a frame pauses (often, in a loop of calls: a peer's next
     * call arrives before this rank posts it), so the common answers come from the queue's ends without an iterator;
     * only control frames (an ACK, an ABORT, a GOODBYE) at both ends make it look through the middle.
     */
    private boolean hasQueuedData() {
        OutFrame first = queue.peekFirst();
        if (first == null || first.type == FrameHeader.DATA || queue.peekLast().type == FrameHeader.DATA) {
            return first != null;
        }
        if (queue.size() <= 2) {
            return false;
        }
        for (OutFrame f : queue) {
            if (f.type == FrameHeader.DATA) {
                return true;
            }
        }
        return false;
    }

    /** A spilled frame is complete: counted (and acknowledged) now, delivered when its collective is posted. */
    private void completeSpill() {
        Spilled f = spilling;
        spilling = null;
        target = null;
        if (!gate.tryAdvance(received)) {
            stop();
            return;
        }
        countReceived();
        if (!claimIfReplayed()) {
            spilledBytes -= f.length;
            spare(f);
            return;
        }
        f.header.copyFrom(inHeader);
        spilled.add(f);
        spilledCount = spilled.size();
        // Its collective may have been posted while it was read.
        deliverSpilled();
    }

    /** For a frame just completed: false when it is a re-sent copy another copy already delivered (drop it). */
    private boolean claimIfReplayed() {
        long origin = replayOrigin;
        replayOrigin = OutFrame.NO_ORIGIN;
        return origin == OutFrame.NO_ORIGIN
                || peerLanes.claimReplay(new PeerLanes.Origin(replayOriginGeneration, origin));
    }

    /**
     * Delivers the spilled frames whose collective is posted, in the order they came, and keeps the others: frames
     * land at the offsets their headers name, so only a frame's own collective has to be posted for it, and a frame
     * re-sent after a fail-over may be of an earlier collective than one spilled before it.
     */
    private void deliverSpilled() {
        if (spilled.isEmpty()) {
            return;
        }
        for (java.util.Iterator<Spilled> it = spilled.iterator(); it.hasNext(); ) {
            Spilled f = it.next();
            MemorySegment t = lanes.sink.onDataHeader(rail, f.header);
            if (t == null) {
                continue;
            }
            MemorySegment.copy(f.memory, 0, t, f.header.landingOffset, f.length);
            spilledBytes -= f.length;
            it.remove();
            spilledCount = spilled.size();
            lanes.sink.onDataComplete(rail, f.header);
            driver.noteProgress();
            spare(f);
        }
    }

    /**
     * Takes over the spilled frames {@code old} still holds: {@code old} is this lane's previous connection, which
     * failed (or was replaced) after it read them. They were counted and acknowledged there, so the peer never sends
     * them again and a copy of one would be judged a duplicate: they are delivered from here, when their collective
     * is posted, as if this connection had read them first (decision 0247). Driver thread only (both connections
     * are this driver's).
     */
    void takeSpilledFrom(TcpConnection old) {
        if (old.spilled.isEmpty()) {
            return;
        }
        for (java.util.Iterator<Spilled> it = old.spilled.descendingIterator(); it.hasNext(); ) {
            Spilled f = it.next();
            spilled.addFirst(f);
            spilledBytes += f.length;
            old.spilledBytes -= f.length;
        }
        old.spilled.clear();
        old.spilledCount = 0;
        spilledCount = spilled.size();
    }

    /** Keeps a delivered spilled frame for the next, unless enough are kept or it is large. */
    private void spare(Spilled f) {
        if (spares.size() < SPARES && f.data.capacity() <= SPARE_BYTES) {
            spares.add(f);
        }
    }

    /**
     * A re-sent copy is judged only once every lane the sender gave up is closed on this side (so no original can
     * still arrive): a duplicate when its origin lane completed it or another copy was delivered. Returns true when
     * the connection reads on.
     */
    private boolean judgeReplay() {
        if (!lanes.quiesced(this, replayMask & ~(1L << lane), replayThrough, replayOriginLane, replayOriginGeneration)) {
            return false;
        }
        // The origin's gate is closed now (quiesced): its count is final.
        boolean duplicate = replayOrigin < peerLanes.gate(replayOriginGeneration).count()
                || peerLanes.replayDelivered(new PeerLanes.Origin(replayOriginGeneration, replayOrigin));
        if (duplicate) {
            discardLeft = inHeader.fragLength;
            state = State.DISCARD;
        } else {
            state = State.HEADER;
            offerData();
        }
        updateInterest();
        return state != State.PAUSED;
    }

    private void beginPayload(MemorySegment t) {
        target = landing(t, inHeader.landingOffset, inHeader.fragLength);
        state = State.PAYLOAD;
    }

    /**
     * A view of {@code length} bytes at {@code offset} of {@code memory} for the socket to read into: this connection's
     * view of that memory, made once and reused while frames land in it (a loop of calls on the same buffers allocates
     * none), positioned and limited to the fragment. One frame at a time arrives on a connection, so the view is never
     * shared. Memory a view cannot span (2 GiB or more) gets a view of the fragment alone.
     */
    private ByteBuffer landing(MemorySegment memory, long offset, int length) {
        if (length == 0) {
            return NO_PAYLOAD; // nothing lands: where does not matter
        }
        if (offset < 0 || offset > memory.byteSize() - length) {
            throw new IllegalStateException("sink returned " + memory.byteSize() + " bytes to land a " + length
                    + "-byte fragment at " + offset);
        }
        if (memory.byteSize() > Integer.MAX_VALUE) {
            return memory.asSlice(offset, length).asByteBuffer();
        }
        return landingViews.of(memory, offset, length);
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
    private boolean fill(long nowNs) throws IOException {
        in.compact();
        int n;
        try {
            n = channel.read(in);
            if (CallCounters.ON) {
                CallCounters.add(Event.RAIL_READ_CALLS, rail, 1);
            }
        } finally {
            in.flip();
        }
        if (n < 0) {
            eof(nowNs);
            return false;
        }
        if (n > 0) {
            heard(n, nowNs);
        }
        return n > 0;
    }

    private void heard(int bytes, long nowNs) {
        if (CallCounters.ON) {
            CallCounters.add(Event.RAIL_BYTES_RECEIVED, rail, bytes);
        }
        lanes.counters.received(rail, bytes);
        lastHeardNs = nowNs;
    }

    private void eof(long nowNs) {
        if (goodbyeReceived) {
            stop();
            return;
        }
        lanes.breakLane(this, "connection closed by the peer" + (writeFailure == null ? "" : " (" + writeFailure + ")"),
                false, nowNs);
    }

    // ---- failure ----

    /**
     * Closes this lane for good because it failed: no frame is read or counted on it any more. Returns what it
     * still held to send: DATA frames not acknowledged, then the REPLAYS_DONE frames written on it, then those DATA and
     * REPLAYS_DONE frames not written yet (ACK, GOODBYE and ABORT frames are dropped and completed). Driver thread
     * only.
     */
    List<OutFrame> breakAndTakeFrames() {
        return takeFrames(false);
    }

    /**
     * As {@link #breakAndTakeFrames}, for a connection a newer one of the same lane replaces: the lane stays live
     * (not marked dead) and owes no goodbye through this connection (the new one will say it).
     */
    List<OutFrame> replaceAndTakeFrames() {
        return takeFrames(true);
    }

    private List<OutFrame> takeFrames(boolean replaced) {
        if (!goodbyeReceived && !replaced) {
            peerLanes.laneLostWithoutGoodbye();
            countedLost = true;
        }
        List<OutFrame> moved = new ArrayList<>(unacked.size() + queue.size());
        moved.addAll(unacked);
        unacked.clear();
        moved.addAll(replaysDoneWritten);
        replaysDoneWritten.clear();
        awaitingAck = 0;
        for (OutFrame f : queue) {
            if (f == ackFrame) {
                continue;
            }
            if (f.type == FrameHeader.DATA || f.type == FrameHeader.REPLAYS_DONE) {
                moved.add(f); // a REPLAYS_DONE stays behind the re-sent frames it follows
            } else if (f.completion != null) {
                f.completion.done();
            }
        }
        queue.clear();
        ackQueued = false;
        close(!replaced);
        return moved;
    }

    /**
     * Stops reading this lane after the engine rejected one of its frames (the stream is mid-frame and the
     * communicator has failed), but keeps writing, so the ABORT that tells the peer why still goes out.
     */
    void haltReading() {
        state = State.STOPPED;
        target = null;
        updateInterest();
    }

    /**
     * Stops reading and writing this lane and closes its socket, without failing anything; the lane counts as dead
     * from now on (no put is striped onto it, no moved frame sent to it).
     */
    void stop() {
        close(true);
    }

    private void close(boolean laneDead) {
        gate.close();
        if (!broken && !goodbyeReceived && !peerLanes.goodbye() && !lanes.isClosing() && peerLanes.lane(lane) == this) {
            // The peer re-sends what it held of this connection, perhaps behind frames this side would pause on.
            peerLanes.closedAwaitingReplays(generation);
            lanes.wakeDrivers(); // lanes of the peer paused now read on (see spillIfBlocking)
        }
        broken = true;
        if (laneDead) {
            peerLanes.markDead(lane, lanes.clock.getAsLong());
        }
        state = State.STOPPED;
        target = null;
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // already broken; nothing more to release
        }
    }

    void updateInterest() {
        if (key == null || !key.isValid()) {
            return;
        }
        int ops = 0;
        if (state != State.PAUSED && state != State.AWAIT_QUIESCE && state != State.STOPPED) {
            ops |= SelectionKey.OP_READ;
        }
        if (!queue.isEmpty() && writeFailure == null) {
            ops |= SelectionKey.OP_WRITE;
        }
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /** DATA frames written and not acknowledged yet (tests). */
    /** Whether a sender waits for an ACK on this lane: a written frame whose completion comes with its ACK. */
    boolean awaitsAck() {
        return awaitingAck > 0;
    }

    int unackedCount() {
        return unacked.size();
    }

    /** What this lane still holds, for a rank that closes with data not acknowledged (null when nothing). */
    String pendingSummary() {
        long queuedData = queue.stream().filter(f -> f.type == FrameHeader.DATA).count();
        if (unacked.isEmpty() && queuedData == 0) {
            return null;
        }
        return describe() + ": " + unacked.size() + " frames written but not acknowledged (positions "
                + (unacked.isEmpty() ? "-" : unacked.peekFirst().position + ".." + unacked.peekLast().position)
                + " of " + nextPosition + "), " + queuedData + " queued; received " + received + ", state " + state;
    }

    private String describe() {
        return "rail " + rail + " (lane " + lane + ") to rank " + peer;
    }

    @Override
    public String toString() {
        return "lane " + lane + " (rail " + rail + ") to rank " + peer;
    }
}
