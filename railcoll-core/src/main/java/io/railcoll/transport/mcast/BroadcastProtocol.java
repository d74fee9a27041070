package io.railcoll.transport.mcast;

import io.railcoll.CollectiveTimeoutException;
import io.railcoll.MismatchException;
import io.railcoll.RailcollException;
import io.railcoll.transport.mcast.MulticastCounters.Counter;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The reliable broadcast state machine of one member (paper 003, sec. 4 and 5.1/5.2), with time passed in, so it
 * runs the same over real sockets and over an in-memory network with a simulated clock.
 *
 * <h2>Flow</h2>
 * Every member calls the broadcasts of the communicator in the same order; the n-th is broadcast number
 * {@code seq = n} and binds to channel {@code seq mod C} (sec. 4.1/5.1 step 1). The root cuts it into datagrams
 * and multicasts them once (step 2); a small message (at most {@code bufferedLimitBytes}) is copied into the
 * channel first so the root returns at once, a larger one is sent from the caller's buffer and its broadcast
 * ends with a synchronization. A receiver reassembles in place (step 3): fragments land in the caller's buffer,
 * or in the channel's staging buffer if they arrive before the broadcast is posted.
 *
 * <h2>Delayed synchronization (sec. 4.3, step 4)</h2>
 * Only when a broadcast finds no free channel ({@code C} broadcasts since the last synchronization), after a large
 * broadcast, or on {@link #postFlush}, the members synchronize over a k-nomial tree rooted at the manager (member
 * 0): each sends its parent a final REPORT (an ACK) once it and its subtree delivered every broadcast since the
 * last synchronization; the manager then sends RELEASE down the tree and the channels are reused. A datagram of
 * the next epoch arriving before the RELEASE proves the manager released (its root was released), so a member
 * that already reported applies the release at once instead of dropping the datagram; so does a control message
 * naming a broadcast of the next epoch (by the end of its range: the join's range [0, 0) starts where the next
 * epoch does, decision 0204).
 *
 * <h2>Reliability (sec. 4.4, 5.2)</h2>
 * Every datagram carries a checksum; a corrupt one is dropped and counted. A receiver whose awaited broadcast made
 * no progress for {@code nackDelayNs} (with evidence of loss: a hole, a later broadcast, a corrupt datagram; 8x
 * longer without) sends a NACK up the tree (what it has, at fragment precision); the manager relays it to every
 * member as a RETRANSMIT, and each root re-sends what it sent since the last synchronization, up to the awaited
 * broadcast, that the NACK does not acknowledge (go-back, but only the missing fragments of messages the receiver
 * partly has). Receivers ignore duplicates by sequence number and fragment. A root waiting in a synchronization re-sends
 * all its unsynchronized messages after {@code syncTimeoutNs} (doubling), and a manager whose synchronization
 * stalls issues a RETRANSMIT of everything: the sender-side and manager-side time-outs.
 *
 * <h2>Fail-over (sec. 4.4)</h2>
 * When this member's multicast port could not be opened, the group cannot be reached (no route), or a receiver
 * sent {@code maxRetransmissions} NACKs for one broadcast without a single new fragment, a FAILOVER_REQUEST
 * goes to the manager, which decides once and sends FAILOVER down the tree. Each member then re-sends every
 * broadcast it rooted since the last synchronization through the point-to-point k-nomial tree over the control
 * links, and sends all later ones that way; the synchronization keeps running (it bounds what receivers buffer).
 * Duplicates (a broadcast that arrived by multicast and again by the tree) are ignored, so nothing is delivered
 * twice and nothing is lost.
 *
 * <p>Threading: one owner thread calls {@link #postBroadcast}, {@link #postFlush}, {@link #doWork} and
 * {@link #isDone}; at most one user operation is outstanding. {@link #doWork} must keep being called while other
 * members may need this one (to relay, re-send or release), not only while an operation of this member is
 * outstanding. Lifetime: the creator closes the {@link DatagramPort} and the {@link ControlLink}; this class owns
 * neither. After a failure every call rethrows it.
 */
public final class BroadcastProtocol {
    /** A receiver's NACK interval doubles after each NACK without progress, at most this many times. */
    private static final int MAX_NACK_BACKOFF = 3;
    private static final int SEND_BURST = 64;
    private static final int RECEIVE_BURST = 256;

    private enum Phase { IDLE, PRE_SYNC, TRANSFER, POST_SYNC }

    private final int[] members;
    private final int me;
    private final int manager = 0;
    private final MulticastSettings settings;
    private final long jobHash;
    private final int communicatorId;
    private final ControlLink link;
    private final MulticastCounters counters;
    private final Consumer<String> log;
    private final Fragmenter fragmenter;
    private final ChecksumKind.Checksummer checksummer;
    private final KnomialTree syncTree;
    private final int syncParent;
    private final int[] syncChildren;
    private final FailoverTree tree;
    /** Re-sends of one datagram that were asked for again, before fail-over: maxRetransmissions. */
    private final int retransmissionCap;
    /** Fail-over on re-send requests waits at least this long after the first request for the broadcast. */
    private final long failoverFloorNs;
    private final ChannelSlot[] slots;
    private final DatagramHeader txHeader = new DatagramHeader();
    private final DatagramHeader rxHeader = new DatagramHeader();
    private final ByteBuffer txDatagram;
    private final ByteBuffer rxDatagram;
    private final ControlLink.Handler controlHandler = this::onControl;
    private final MemorySegment rxSegment;
    private ByteBuffer control = ByteBuffer.allocate(4096);
    private volatile DatagramPort port;

    // Sequence and epoch state.
    private long nextSeq;
    private long epochStart;
    /** Bit i: broadcast epochStart+i is complete at this member. */
    private long ackMask;
    /** Highest seq seen in any datagram (what a NACK may claim to be missing). */
    private long highestSeen = -1;

    // The user's outstanding operation.
    private Phase phase = Phase.IDLE;
    private long opSeq;
    private int opRoot;
    private MemorySegment opBuffer;
    private long opStartNs;
    private boolean opLarge;
    private boolean joined;

    // Synchronization.
    private final SyncRound sync;

    // Receiver loss detection.
    private long lastProgressNs;
    private long lastNackNs;
    private int nacksWithoutProgress;
    /** A corrupt datagram arrived since the awaited broadcast last progressed: evidence of loss. */
    private boolean corruptSinceProgress;
    /** The time of the current doWork, for handlers that have no time argument. */
    private long now;

    // Fail-over.
    private boolean failedOver;
    private boolean failoverRequested;
    private String pendingFailoverReason;

    private RailcollException failure;

    /**
     * @param members        the job ranks of the group, in the order every member passes (any subset of the job,
     *                       contiguous or not)
     * @param myRank         this member's job rank
     * @param port           the multicast port, or null when it could not be opened (this member then asks for
     *                       fail-over at once; {@code unavailableReason} says why)
     * @param log            receives one line per notable event (fail-over); never on the hot path
     */
    public BroadcastProtocol(int[] members, int myRank, long jobHash, int communicatorId, MulticastSettings settings,
                             DatagramPort port, String unavailableReason, ControlLink link, MulticastCounters counters,
                             Consumer<String> log) {
        this.members = members.clone();
        int idx = -1;
        for (int i = 0; i < members.length; i++) {
            for (int j = 0; j < i; j++) {
                if (members[i] == members[j]) {
                    throw new IllegalArgumentException("rank " + members[i] + " is listed twice in " + Arrays.toString(members));
                }
            }
            if (members[i] == myRank) {
                idx = i;
            }
        }
        if (idx < 0) {
            throw new IllegalArgumentException("rank " + myRank + " is not a member of " + Arrays.toString(members));
        }
        this.me = idx;
        this.settings = settings;
        this.jobHash = jobHash;
        this.communicatorId = communicatorId;
        this.port = port;
        this.link = link;
        this.counters = counters;
        this.log = log;
        this.fragmenter = new Fragmenter(settings.payloadBytes());
        this.checksummer = new ChecksumKind.Checksummer(settings.checksum());
        this.syncTree = new KnomialTree(members.length, settings.treeRadix(), manager);
        this.syncParent = syncTree.parent(me);
        this.syncChildren = syncTree.children(me);
        int[] childRanks = new int[syncChildren.length];
        for (int i = 0; i < childRanks.length; i++) {
            childRanks[i] = this.members[syncChildren[i]];
        }
        this.sync = new SyncRound(myRank, childRanks);
        this.retransmissionCap = settings.maxRetransmissions();
        this.failoverFloorNs = settings.maxRetransmissions() * (settings.nackDelayNs() << MAX_NACK_BACKOFF);
        this.tree = new FailoverTree(this.members, idx, settings.treeRadix(), settings.treeChunkBytes(), link, counters);
        this.slots = new ChannelSlot[settings.channels()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new ChannelSlot();
        }
        int datagramBytes = DatagramHeader.BYTES + settings.payloadBytes();
        this.txDatagram = ByteBuffer.allocateDirect(datagramBytes);
        this.rxDatagram = ByteBuffer.allocateDirect(MulticastSettings.MAX_PAYLOAD_BYTES + DatagramHeader.BYTES + 64);
        this.rxSegment = MemorySegment.ofBuffer(rxDatagram);
        if (port == null) {
            pendingFailoverReason = "rank " + myRank + " cannot use multicast: " + unavailableReason;
        }
    }

    // ------------------------------------------------------------------ user operations

    /**
     * Starts this member's part of the next broadcast: {@code buffer} is sent from ({@code rootRank} is this
     * member) or received into (its length must equal the root's). The caller must not touch {@code buffer} until
     * {@link #isDone} returns true.
     */
    public void postBroadcast(MemorySegment buffer, int rootRank, long nowNs) {
        checkFailed();
        if (phase != Phase.IDLE) {
            throw new IllegalStateException("a broadcast or flush is still outstanding on this member");
        }
        int rootIndex = indexOf(rootRank);
        if (rootIndex < 0) {
            throw new IllegalArgumentException("root " + rootRank + " is not a member of " + Arrays.toString(members));
        }
        if (buffer.byteSize() > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("a multicast broadcast is limited to 2 GiB, got " + buffer.byteSize());
        }
        opSeq = nextSeq++;
        opRoot = rootIndex;
        opBuffer = buffer;
        opStartNs = nowNs;
        opLarge = buffer.byteSize() > settings.bufferedLimitBytes();
        if (opSeq - epochStart >= slots.length) {
            // Out of channels: the delayed synchronization happens now, before binding (sec. 4.3).
            enterSync(opSeq, nowNs);
            phase = Phase.PRE_SYNC;
        } else {
            bind(nowNs);
        }
        doWork(nowNs);
    }

    /**
     * Starts a synchronization of everything broadcast since the last one (a collective call: every member
     * flushes at the same point). Needed before the members stop calling {@link #doWork}, e.g. before closing.
     */
    public void postFlush(long nowNs) {
        checkFailed();
        if (phase != Phase.IDLE) {
            throw new IllegalStateException("a broadcast or flush is still outstanding on this member");
        }
        opStartNs = nowNs;
        opBuffer = null;
        if (nextSeq > epochStart) {
            enterSync(nextSeq, nowNs);
            phase = Phase.POST_SYNC;
            doWork(nowNs);
        }
    }

    /**
     * Starts the join synchronization (collective, once, before the first broadcast): a synchronization of
     * nothing that ends when every member has its socket open and joined, so the first datagrams of the first
     * broadcast do not go out before a slow member listens (IP multicast does not queue for late joiners).
     */
    public void postJoin(long nowNs) {
        checkFailed();
        if (phase != Phase.IDLE || nextSeq != 0 || joined) {
            throw new IllegalStateException("join must be the first operation, and only once");
        }
        joined = true;
        opStartNs = nowNs;
        opBuffer = null;
        enterSync(0, nowNs);
        phase = Phase.POST_SYNC;
        doWork(nowNs);
    }

    /** True when the outstanding operation finished (or there is none); rethrows a failure. */
    public boolean isDone() {
        checkFailed();
        return phase == Phase.IDLE;
    }

    public boolean failedOver() {
        return failedOver;
    }

    /** The next broadcast number this member will post. */
    public long nextSeq() {
        return nextSeq;
    }

    public RailcollException failure() {
        return failure;
    }

    /**
     * Blocks the owner thread up to {@code maxWaitNs} for a datagram (or until {@link #wakeup}); call it when
     * {@link #doWork} found nothing to do. Timers are checked by the next {@code doWork}, so keep waits short
     * (about a millisecond).
     */
    public void await(long maxWaitNs) {
        DatagramPort p = port;
        if (p != null) {
            p.await(maxWaitNs);
        } else {
            java.util.concurrent.locks.LockSupport.parkNanos(maxWaitNs);
        }
    }

    /** Ends an {@link #await} early from another thread (e.g. a control link's reader); the caller also unparks. */
    public void wakeup() {
        DatagramPort p = port;
        if (p != null) {
            p.wakeup();
        }
    }

    // ------------------------------------------------------------------ progress

    /** Receives, relays, sends and checks time-outs; returns the amount of work done (0 = idle). */
    public int doWork(long nowNs) {
        checkFailed();
        now = nowNs;
        try {
            int work = 0;
            if (pendingFailoverReason != null) {
                String r = pendingFailoverReason;
                pendingFailoverReason = null;
                requestFailover(r, nowNs);
                work++;
            }
            work += receiveDatagrams(nowNs);
            work += link.poll(controlHandler);
            checkFailed();
            work += sendPending(nowNs);
            work += advance(nowNs);
            checkTimers(nowNs);
            return work;
        } catch (RailcollException e) {
            failure = failure != null ? failure : e;
            throw failure;
        } catch (IOException e) {
            failure = new RailcollException("multicast broadcast I/O failed on " + describePort() + ": " + e, e);
            throw failure;
        }
    }

    private void checkFailed() {
        if (failure != null) {
            throw failure;
        }
    }

    /** Moves the user operation through its phases. */
    private int advance(long nowNs) {
        switch (phase) {
            case PRE_SYNC -> {
                if (!sync.active) {
                    bind(nowNs);
                    return 1 + advance(nowNs);
                }
            }
            case TRANSFER -> {
                ChannelSlot s = slot(opSeq);
                boolean transferred = opRoot == me ? s.sendCursor >= s.fragCount : s.complete;
                if (transferred) {
                    if (opRoot != me) {
                        s.dest = null;
                        counters.increment(Counter.BROADCASTS_DELIVERED);
                    }
                    if (opLarge) {
                        enterSync(opSeq + 1, nowNs);
                        phase = Phase.POST_SYNC;
                        return 1 + advance(nowNs);
                    }
                    finishOp();
                    return 1;
                }
            }
            case POST_SYNC -> {
                if (!sync.active) {
                    finishOp();
                    return 1;
                }
                return tryReport(nowNs);
            }
            case IDLE -> {
            }
        }
        return sync.active ? tryReport(nowNs) : 0;
    }

    private void finishOp() {
        phase = Phase.IDLE;
        opBuffer = null;
    }

    /** Binds the posted broadcast to its channel and starts sending (root) or receiving into the caller's buffer. */
    private void bind(long nowNs) {
        phase = Phase.TRANSFER;
        ChannelSlot s = slot(opSeq);
        int length = (int) opBuffer.byteSize();
        lastProgressNs = nowNs;
        lastNackNs = nowNs;
        nacksWithoutProgress = 0;
        if (opRoot == me) {
            s.bind(opSeq, me, length, fragmenter.fragmentCount(length));
            if (opLarge) {
                s.source = opBuffer;
            } else {
                MemorySegment copy = s.staging(length);
                MemorySegment.copy(opBuffer, 0, copy, 0, length);
                s.source = copy;
            }
            s.fragments.addAll();
            s.complete = true;
            setAck(opSeq);
            if (failedOver) {
                sendThroughTree(s);
            }
            return;
        }
        if (s.bound() && s.seq == opSeq) {
            if (s.totalLength != length || s.rootIndex != opRoot) {
                throw mismatch(s.rootIndex, s.totalLength, length);
            }
            if (s.dest != null && s.dest != opBuffer) {
                // Arrived early into staging: move what is there; later fragments land in place.
                MemorySegment.copy(s.dest, 0, opBuffer, 0, length);
            }
            s.dest = opBuffer;
        } else {
            s.bind(opSeq, opRoot, length, fragmenter.fragmentCount(length));
            s.dest = opBuffer;
        }
    }

    private MismatchException mismatch(int rootIndex, int rootLength, int myLength) {
        return new MismatchException("size mismatch in multicast broadcast #" + opSeq + ": root rank " + members[rootIndex]
                + " broadcasts " + rootLength + " bytes, rank " + members[me] + " posted " + myLength + " bytes with root "
                + members[opRoot]);
    }

    // ------------------------------------------------------------------ datagrams

    private int receiveDatagrams(long nowNs) throws IOException {
        if (port == null) {
            return 0;
        }
        int n = 0;
        while (n < RECEIVE_BURST && port.receive(rxDatagram)) {
            n++;
            counters.increment(Counter.DATAGRAMS_RECEIVED);
            onDatagram(nowNs);
        }
        return n;
    }

    private void onDatagram(long nowNs) {
        DatagramHeader h = rxHeader;
        switch (h.readFrom(rxDatagram, rxDatagram.limit(), jobHash, communicatorId, checksummer)) {
            case OK -> {
            }
            case CORRUPT, MALFORMED -> {
                // Dropped; the receiver's NACK on the stalled broadcast gets it re-sent (sooner, with this evidence).
                counters.increment(Counter.CHECKSUM_FAILURES);
                corruptSinceProgress = true;
                return;
            }
            case NOT_OURS -> {
                return;
            }
        }
        int rootIndex = indexOf(h.rootRank);
        if (rootIndex < 0 || rootIndex == me) {
            return; // our own datagram looped back, or a rank outside the group
        }
        if (h.channel != h.seq % slots.length) {
            throw new MismatchException("rank " + h.rootRank + " sent broadcast #" + h.seq + " on channel " + h.channel
                    + " but this rank has " + slots.length + " channels: RAILCOLL_MCAST_CHANNELS differs between ranks");
        }
        highestSeen = Math.max(highestSeen, h.seq);
        ChannelSlot s = accept(h.seq, rootIndex, h.totalLength, h.fragCount, nowNs);
        if (s == null || s.complete) {
            counters.increment(s == null ? Counter.UNEXPECTED : Counter.DUPLICATES);
            return;
        }
        if (s.fragCount != h.fragCount || h.fragOffset != fragmenter.offset(h.fragIndex)
                || h.fragLength != fragmenter.length(h.fragIndex, s.totalLength)) {
            throw new MismatchException("rank " + h.rootRank + " fragments broadcast #" + h.seq + " into " + h.fragCount
                    + " datagrams of " + h.fragLength + " bytes, this rank expects " + s.fragCount + " of at most "
                    + fragmenter.payloadBytes() + ": RAILCOLL_MCAST_PAYLOAD differs between ranks");
        }
        if (!s.fragments.add(h.fragIndex)) {
            counters.increment(Counter.DUPLICATES);
            return;
        }
        s.highestFragment = Math.max(s.highestFragment, h.fragIndex);
        MemorySegment.copy(rxSegment, DatagramHeader.BYTES, s.dest, h.fragOffset, h.fragLength);
        progress(s, nowNs);
    }

    /**
     * The channel for broadcast {@code seq} if data for it may be stored now (binding it to staging if needed),
     * or null if it must be dropped (already released, or from an epoch whose channel is still busy).
     */
    private ChannelSlot accept(long seq, int rootIndex, int totalLength, int fragCount, long nowNs) {
        if (seq < epochStart) {
            return null;
        }
        if (sync.provenReleasedBy(seq)) {
            // Its root was released, so the manager released: apply it before the RELEASE itself arrives.
            applyRelease(sync.end, nowNs);
        }
        if (seq >= epochStart + slots.length) {
            return null;
        }
        ChannelSlot s = slot(seq);
        if (s.bound() && s.seq != seq) {
            return null;
        }
        if (!s.bound()) {
            s.bind(seq, rootIndex, totalLength, fragCount);
            s.dest = s.staging(totalLength);
        } else if (s.totalLength != totalLength || s.rootIndex != rootIndex) {
            if (phase == Phase.TRANSFER && seq == opSeq) {
                throw mismatch(rootIndex, totalLength, s.totalLength);
            }
            throw new MismatchException("broadcast #" + seq + " arrives from rank " + members[rootIndex] + " with "
                    + totalLength + " bytes, but rank " + members[s.rootIndex] + " already sent it with " + s.totalLength
                    + " bytes: ranks disagree on the root or size");
        }
        return s;
    }

    private void progress(ChannelSlot s, long nowNs) {
        if (s.seq == opSeq && phase == Phase.TRANSFER) {
            lastProgressNs = nowNs;
            nacksWithoutProgress = 0;
            corruptSinceProgress = false;
        }
        if (!s.complete && s.fragments.complete()) {
            s.complete = true;
            setAck(s.seq);
        }
    }

    private void setAck(long seq) {
        ackMask |= 1L << (seq - epochStart);
    }

    /** First transmissions and retransmissions, a burst at a time so receiving and control stay responsive. */
    private int sendPending(long nowNs) throws IOException {
        if (failedOver || port == null) {
            return 0;
        }
        int budget = SEND_BURST;
        for (long seq = epochStart; seq < nextSeq && budget > 0; seq++) {
            ChannelSlot s = slot(seq);
            if (s.seq != seq || s.rootIndex != me || s.source == null) {
                continue;
            }
            while (budget > 0 && s.sendCursor < s.fragCount) {
                if (!sendFragment(s, s.sendCursor, false)) {
                    return SEND_BURST - budget;
                }
                s.sendCursor++;
                budget--;
            }
            while (budget > 0 && s.resendPending) {
                int f = s.resend.nextSet(0);
                if (f < 0) {
                    s.resendPending = false;
                    break;
                }
                if (!sendFragment(s, f, true)) {
                    return SEND_BURST - budget;
                }
                s.resend.remove(f);
                counters.increment(Counter.RETRANSMISSIONS);
                budget--;
            }
        }
        return SEND_BURST - budget;
    }

    private boolean sendFragment(ChannelSlot s, int fragment, boolean retransmission) throws IOException {
        DatagramHeader h = txHeader;
        h.flags = retransmission ? DatagramHeader.FLAG_RETRANSMISSION : 0;
        h.channel = (int) (s.seq % slots.length);
        h.jobHash = jobHash;
        h.communicatorId = communicatorId;
        h.rootRank = members[me];
        h.seq = s.seq;
        fragmenter.write(h, s.source, fragment, txDatagram, checksummer);
        boolean sent;
        try {
            sent = port.send(txDatagram);
        } catch (IOException e) {
            // No route to the group (or the socket broke): multicast is unavailable here, the tree takes over.
            String why = "rank " + members[me] + " cannot send to " + describePort() + ": " + e.getMessage();
            closePort();
            requestFailover(why, 0);
            return false;
        }
        if (sent) {
            counters.increment(Counter.DATAGRAMS_SENT);
            s.lastSentNs = now;
        }
        return sent;
    }

    // ------------------------------------------------------------------ timers

    private void checkTimers(long nowNs) {
        if (phase == Phase.TRANSFER && opRoot != me) {
            ChannelSlot s = slot(opSeq);
            long quiet = nowNs - Math.max(lastProgressNs, lastNackNs);
            // With evidence of loss (a hole below a fragment that arrived, a later broadcast, a corrupt datagram)
            // a short quiet period is enough; without, the root may simply be slow (ranks share cores), so wait
            // 8x longer. NACKs that bring nothing back back off further (up to 8x).
            boolean evidence = corruptSinceProgress || highestSeen > opSeq
                    || (s.seq == opSeq && s.fragments.received() < s.highestFragment + 1);
            long interval = (evidence ? settings.nackDelayNs() : 8 * settings.nackDelayNs()) << Math.min(nacksWithoutProgress, MAX_NACK_BACKOFF);
            if (!s.complete && settings.reliable() && !failedOver && port != null && quiet >= interval) {
                sendNack(nowNs);
            }
        }
        if (sync.active) {
            long waited = nowNs - sync.startNs;
            // Sender side: messages of ours since the last synchronization may be lost; re-send them all (doubling).
            if (settings.reliable() && !failedOver && waited >= settings.syncTimeoutNs() << Math.min(sync.senderTimeouts, 20)) {
                sync.senderTimeouts++;
                goBack(epochStart, sync.end, 0, null);
                // Not in the join (nothing to re-send): its RETRANSMIT of [0, 0) would only be noise on every link.
                if (me == manager && sync.end > epochStart && sync.managerTimeouts++ < settings.maxRetransmissions()) {
                    // Manager side: the synchronization makes no progress; ask every root to re-send everything.
                    putNack(ControlMessages.RETRANSMIT, sync.end, 0L, false);
                    sendDown(control.flip());
                }
            }
        }
        if (phase != Phase.IDLE && nowNs - opStartNs > settings.timeoutNs()) {
            throw new CollectiveTimeoutException(describeWait(nowNs));
        }
    }

    private void sendNack(long nowNs) {
        lastNackNs = nowNs;
        nacksWithoutProgress++;
        counters.increment(Counter.NACKS_SENT);
        // Claims up to the awaited broadcast only: everything before it was delivered here, and what came after it
        // may still be queued in this member's socket (it drains in order), so asking for it again would only
        // duplicate traffic, and count towards the fail-over cap, while this member is merely behind.
        long end = opSeq + 1;
        putNack(ControlMessages.REPORT, end, ackMask, true);
        ByteBuffer m = control.flip();
        if (me == manager) {
            onRetransmitRequest(m);
        } else {
            link.send(members[syncParent], m);
        }
    }

    /** Encodes a NACK (or a RETRANSMIT) into {@link #control} (position at its end). */
    private void putNack(byte type, long end, long mask, boolean details) {
        int need = ControlMessages.REPORT_HEADER;
        if (details) {
            for (long seq = epochStart; seq < end && seq < epochStart + slots.length; seq++) {
                ChannelSlot s = slot(seq);
                if (s.seq == seq && !s.complete) {
                    need += 12 + 8 * s.fragments.wordCount();
                }
            }
        }
        if (control.capacity() < need) {
            control = ByteBuffer.allocate(Math.max(need, control.capacity() * 2));
        }
        ControlMessages.putReportHeader(control, type, false, members[me], epochStart, end, mask);
        int count = 0;
        if (details) {
            for (long seq = epochStart; seq < end && seq < epochStart + slots.length; seq++) {
                ChannelSlot s = slot(seq);
                if (s.seq == seq && !s.complete) {
                    control.putLong(seq).putInt(s.fragCount);
                    s.fragments.writeWords(control);
                    count++;
                }
            }
        }
        control.putInt(32, count);
    }

    // ------------------------------------------------------------------ synchronization

    private void enterSync(long end, long nowNs) {
        sync.enter(end, nowNs);
    }

    /** Sends the final report (or, on the manager, the release) once this member and its subtree are done. */
    private int tryReport(long nowNs) {
        if (!sync.active || sync.reportedFinal) {
            return 0;
        }
        if (phase != Phase.PRE_SYNC && phase != Phase.POST_SYNC) {
            return 0; // this member itself has not reached the synchronization point yet
        }
        if (!sync.subtreeDone()) {
            return 0;
        }
        if (me == manager) {
            ControlMessages.putRelease(control, epochStart, sync.end);
            sendDown(control);
            applyRelease(sync.end, nowNs);
            return 1;
        }
        ControlMessages.putReportHeader(control, ControlMessages.REPORT, true, members[me], epochStart, sync.end, ackMask);
        link.send(members[syncParent], control.flip());
        sync.reportedFinal = true;
        return 1;
    }

    private void applyRelease(long end, long nowNs) {
        for (long seq = epochStart; seq < end; seq++) {
            ChannelSlot s = slot(seq);
            if (s.seq == seq) {
                s.release(settings.bufferedLimitBytes());
            }
        }
        int shift = (int) (end - epochStart);
        ackMask = shift >= 64 ? 0 : ackMask >>> shift;
        epochStart = end;
        sync.reset();
        counters.increment(Counter.SYNCS);
    }

    private void sendDown(ByteBuffer message) {
        for (int c : syncChildren) {
            link.send(members[c], message.duplicate());
        }
    }

    // ------------------------------------------------------------------ control messages

    private void onControl(int fromRank, ByteBuffer m) {
        ControlMessages.le(m);
        byte type = m.get(0);
        switch (type) {
            case ControlMessages.REPORT -> onReport(fromRank, m);
            case ControlMessages.RETRANSMIT -> {
                sendDown(m);
                onRetransmit(m);
            }
            case ControlMessages.RELEASE -> {
                sendDown(m);
                long start = m.getLong(8);
                long end = m.getLong(16);
                if (sync.active && start == epochStart && end == sync.end) {
                    applyRelease(end, 0);
                }
            }
            case ControlMessages.FAILOVER_REQUEST -> requestFailover(ControlMessages.reason(m), 0);
            case ControlMessages.FAILOVER -> {
                sendDown(m);
                applyFailover(ControlMessages.reason(m));
            }
            case ControlMessages.TREE_DATA -> onTreeData(m);
            default -> throw new RailcollException("unknown multicast control message type " + type + " from rank " + fromRank);
        }
    }

    private void onReport(int fromRank, ByteBuffer m) {
        boolean fin = m.get(1) != 0;
        long start = m.getLong(8);
        if (!fin) {
            // A NACK: passed up unchanged, the manager turns it into a RETRANSMIT for everyone.
            if (me == manager) {
                counters.increment(Counter.NACKS_RECEIVED);
                onRetransmitRequest(m);
            } else {
                link.send(members[syncParent], m);
            }
            return;
        }
        long end = m.getLong(16);
        if (sync.provenReleasedBy(end - 1)) {
            applyRelease(sync.end, 0); // the child was released before this member: the RELEASE is on its way
        }
        sync.childReported(fromRank, start, end, epochStart, nextSeq);
    }

    /** On the manager: a NACK arrived (or was made here); relay it to everyone as a RETRANSMIT. */
    private void onRetransmitRequest(ByteBuffer nack) {
        ByteBuffer copy = ByteBuffer.allocate(nack.remaining());
        copy.put(nack.duplicate()).flip();
        copy.put(0, ControlMessages.RETRANSMIT);
        sendDown(copy);
        onRetransmit(ControlMessages.le(copy));
    }

    /** Re-sends this member's part of what a (relayed) NACK says is missing. */
    private void onRetransmit(ByteBuffer m) {
        long start = m.getLong(8);
        long end = m.getLong(16);
        if (sync.provenReleasedBy(end - 1)) {
            applyRelease(sync.end, 0); // a NACK awaiting a broadcast of the next epoch proves the release, as a datagram would
        }
        if (start != epochStart || failedOver) {
            return; // stale: that epoch was released, or the tree carries everything now
        }
        long mask = m.getLong(24);
        goBack(start, end, mask, m);
    }

    /**
     * Queues for retransmission every fragment this member sent of broadcasts in [start, end) that {@code mask}
     * does not acknowledge; for a broadcast listed in the details of {@code nack}, only the fragments it lacks.
     */
    private void goBack(long start, long end, long mask, ByteBuffer nack) {
        int details = nack == null ? 0 : nack.getInt(32);
        for (long seq = start; seq < end && seq < epochStart + slots.length; seq++) {
            ChannelSlot s = slot(seq);
            if (s.seq != seq || s.rootIndex != me || s.source == null || (mask & (1L << (seq - start))) != 0) {
                continue;
            }
            if (nack != null && now - s.lastSentNs < settings.nackDelayNs() / 2) {
                continue; // (re)sent just now: probably still on its way, and the receiver will ask again if not
            }
            int pos = findDetail(nack, details, seq);
            if (nack != null && s.firstRequestNs == Long.MIN_VALUE) {
                s.firstRequestNs = now;
            }
            for (int f = 0; f < s.sendCursor; f++) {
                if (pos >= 0) {
                    long word = nack.getLong(pos + 12 + 8 * (f >>> 6));
                    if ((word & (1L << f)) != 0) {
                        continue;
                    }
                }
                // False when its last re-send has not gone out yet (first passes go before re-sends).
                boolean resentSinceAsked = s.resend.add(f);
                // What counts towards the cap is a request for a datagram that was re-sent since the last one: the
                // re-sends that did not arrive. Not our own time-outs (a slow member is no broken multicast), and not
                // requests for a re-send still waiting behind the first pass of a large broadcast: a root scheduled
                // every few tens of milliseconds (9 ranks on 2 processors) takes a second to send 4 MiB, receivers
                // ask again for their holes meanwhile, and counting those made the testbed's system test fail over
                // (2026-11-26). So the count is re-sends, whatever the number of receivers asking, and the cap is
                // maxRetransmissions. The time floor keeps a burst of stale NACKs (receivers descheduled on an
                // overloaded host) from tripping it: fail-over needs the requests to have gone on as long as one
                // receiver takes to ask maxRetransmissions times at its slowest pace.
                if (nack != null && resentSinceAsked && ++s.resendCounts[f] > retransmissionCap) {
                    s.resendCounts[f] = (short) (retransmissionCap + 1); // stays past the cap until the floor passes
                    if (now - s.firstRequestNs < failoverFloorNs) {
                        continue;
                    }
                    requestFailover("rank " + members[me] + " re-sent datagram " + f + " of broadcast #" + seq + " "
                            + retransmissionCap + " times and a receiver still lacks it on " + describePort(), 0);
                    return;
                }
            }
            s.resendPending = s.resend.received() > 0;
        }
    }

    private static int findDetail(ByteBuffer nack, int details, long seq) {
        int pos = ControlMessages.REPORT_HEADER;
        for (int i = 0; i < details; i++) {
            long dseq = nack.getLong(pos);
            int frags = nack.getInt(pos + 8);
            if (dseq == seq) {
                return pos;
            }
            pos += 12 + 8 * ((frags + 63) >>> 6);
        }
        return -1;
    }

    // ------------------------------------------------------------------ fail-over

    private void requestFailover(String reason, long nowNs) {
        if (failedOver) {
            return;
        }
        if (me == manager) {
            ByteBuffer m = ControlMessages.putReason(control, ControlMessages.FAILOVER, members[me], reason);
            control = m.capacity() > control.capacity() ? m : control;
            sendDown(m);
            applyFailover(reason);
        } else if (!failoverRequested) {
            failoverRequested = true;
            ByteBuffer m = ControlMessages.putReason(control, ControlMessages.FAILOVER_REQUEST, members[me], reason);
            control = m.capacity() > control.capacity() ? m : control;
            link.send(members[manager], m);
        }
    }

    private void applyFailover(String reason) {
        if (failedOver) {
            return;
        }
        failedOver = true;
        counters.increment(Counter.FAILOVERS);
        log.accept("multicast broadcast of communicator " + communicatorId + " (ranks " + Arrays.toString(members)
                + ") fails over to the point-to-point " + settings.treeRadix() + "-nomial tree: " + reason);
        closePort();
        // Outstanding broadcasts of ours since the last synchronization go again, now through the tree.
        for (long seq = epochStart; seq < nextSeq && seq < epochStart + slots.length; seq++) {
            ChannelSlot s = slot(seq);
            if (s.seq == seq && s.rootIndex == me && s.source != null) {
                s.sendCursor = s.fragCount;
                s.resendPending = false;
                sendThroughTree(s);
            }
        }
    }

    private void closePort() {
        if (port != null) {
            port.close();
            port = null;
        }
    }

    private void sendThroughTree(ChannelSlot s) {
        tree.send(s.seq, s.source);
        s.sendCursor = s.fragCount;
    }

    private void onTreeData(ByteBuffer m) {
        int rootRank = FailoverTree.rootRank(m);
        long seq = FailoverTree.seq(m);
        int total = FailoverTree.totalLength(m);
        int off = FailoverTree.offset(m);
        int len = FailoverTree.length(m);
        int rootIndex = indexOf(rootRank);
        if (rootIndex < 0) {
            throw new RailcollException("rank " + members[me] + " got fail-over data of broadcast #" + seq
                    + " from rank " + rootRank + ", which is not a member of " + Arrays.toString(members));
        }
        // Forward first: the subtree needs it whether or not this member already has the broadcast.
        tree.forward(m, rootIndex);
        ChannelSlot s = accept(seq, rootIndex, total, fragmenter.fragmentCount(total), 0);
        if (s == null) {
            if (seq < epochStart) {
                counters.increment(Counter.DUPLICATES);
                return;
            }
            throw new RailcollException("rank " + members[me] + " has no free channel for broadcast #" + seq
                    + " arriving through the fail-over tree from rank " + rootRank + " (epoch starts at #" + epochStart + ")");
        }
        if (s.complete) {
            counters.increment(Counter.DUPLICATES);
            return;
        }
        MemorySegment.copy(MemorySegment.ofBuffer(m), ControlMessages.TREE_HEADER, s.dest, off, len);
        s.treeBytes += len;
        if (s.seq == opSeq && phase == Phase.TRANSFER) {
            lastProgressNs = now;
            nacksWithoutProgress = 0;
        }
        if (s.treeBytes == s.totalLength) {
            s.complete = true;
            setAck(s.seq);
        }
    }

    // ------------------------------------------------------------------ helpers

    private ChannelSlot slot(long seq) {
        return slots[(int) (seq % slots.length)];
    }

    private int indexOf(int rank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == rank) {
                return i;
            }
        }
        return -1;
    }

    private String describePort() {
        return port != null ? port.describe() : "(no multicast port)";
    }

    /** What this member is waiting for, from whom and since when: the message of a time-out. */
    String describeWait(long nowNs) {
        long ms = (nowNs - opStartNs) / 1_000_000;
        String mode = failedOver ? "through the fail-over tree" : "by multicast on " + describePort();
        if (phase == Phase.TRANSFER && opRoot != me) {
            ChannelSlot s = slot(opSeq);
            return "rank " + members[me] + ": broadcast #" + opSeq + " from rank " + members[opRoot] + " ("
                    + opBuffer.byteSize() + " bytes) incomplete after " + ms + " ms " + mode + ": "
                    + (s.seq == opSeq ? s.fragments.received() + " of " + s.fragCount + " datagrams" : "no datagram")
                    + " arrived, " + nacksWithoutProgress + " NACKs since the last progress"
                    + (settings.reliable() ? "" : " (reliability off: lost datagrams are not re-sent)");
        }
        if (sync.active) {
            List<Integer> missing = sync.missingChildren();
            String what = "rank " + members[me] + ": " + (sync.end == epochStart ? "join synchronization"
                    : "synchronization of broadcasts #" + epochStart + "..#" + (sync.end - 1)) + " not done after " + ms + " ms: ";
            if (!missing.isEmpty()) {
                return what + "no report yet from ranks " + missing + " (they or their subtrees have not delivered every broadcast)";
            }
            return what + "no release yet from the manager (rank " + members[manager] + ") through rank "
                    + (syncParent >= 0 ? members[syncParent] : members[me]);
        }
        return "rank " + members[me] + ": broadcast #" + opSeq + " not done after " + ms + " ms " + mode;
    }
}
