package io.railcoll.engine;

import io.railcoll.MismatchException;
import io.railcoll.PeerLostException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;
import io.railcoll.transport.Transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The point-to-point messages of one communicator, with MPI's matching (decision 0080): a receive takes the earliest
 * message from its source (or any source) with its tag (or any tag); receives are matched in the order they were
 * posted; two messages from one sender that both match one receive are received in the order they were sent.
 *
 * <p><b>Wire.</b> Messages travel under a context of the communicator's own, so they never meet a collective's frames
 * (the router hands them here). A message is one put: its frames carry the sender's message number to this receiver
 * in {@code seq}, the user's tag in {@code tag}, the length in {@code putLength}, and 1 in {@code root} for a
 * synchronous send, whose receiver answers with a frame of tag {@link #MATCHED_TAG} and the same number once the
 * receive completed. The transports split and stripe it as any put, so frames of several messages may arrive out of
 * order over several rails; the receiver matches a message only when every earlier-numbered message from its sender
 * has been matched or stored, which is what keeps MPI's non-overtaking order.
 *
 * <p><b>Eager, never refused.</b> Every message is sent at once, whatever its size, and the receiver always takes
 * it: straight into the buffer of a posted receive that matches it, else into memory of its own (the unexpected
 * store) until a receive takes it. A connection is never paused for a message, so a rank blocked in a send keeps
 * reading every peer's frames (and their acknowledgements), and ranks that send to each other before receiving
 * never wait for each other. The store is not bounded: a program that sends far more than it receives holds it in
 * memory, as MPI's eager protocols do.
 *
 * <p>Threading: {@link #isend}, {@link #irecv}, {@link #iprobe}, {@link #improbe}, {@link #mrecv}, {@link #cancel} and
 * the waits on the communicator's calling thread; frame callbacks on whichever thread reads a connection. The
 * matching state is guarded by this object; an operation's completion is published through its volatile {@code done}. Lifetime: the communicator's.
 */
public final class PointToPoint implements FrameSink {
    /** A source or tag that matches any. */
    public static final int ANY = -1;
    /** The tag of a synchronous send's answer: no message has a negative tag. */
    static final int MATCHED_TAG = -2;
    private static final MemorySegment NO_BYTES = MemorySegment.ofArray(new byte[0]);
    private static final MemorySegment EMPTY = CollectiveEngine.EMPTY;

    /** One send or receive in progress; done once its buffer is railcoll's no more. */
    public abstract static sealed class Op permits SendOp, RecvOp {
        /** When it (or a persistent request's current round) started: its deadline counts from here. Owner thread. */
        long startNs = System.nanoTime();
        final int peer;
        final int tag;
        volatile boolean done;

        Op(int peer, int tag) {
            this.peer = peer;
            this.tag = tag;
        }

        public boolean isDone() {
            return done;
        }

        /** The tag it was started with ({@link #ANY} for a receive of any tag). */
        public int startTag() {
            return tag;
        }
    }

    /** A send: done when its frames no longer need its buffer and, synchronous, once the receiver matched it. */
    public static final class SendOp extends Op {
        final SendCompletion frames = new SendCompletion();
        final long bytes;
        final boolean synchronous;
        volatile boolean matched;

        SendOp(int dest, int tag, long bytes, boolean synchronous) {
            super(dest, tag);
            this.bytes = bytes;
            this.synchronous = synchronous;
        }

        public int dest() {
            return peer;
        }

        public long bytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return (synchronous ? "ssend" : "send") + " of " + bytes + " bytes to rank " + peer + " (tag " + tag + ")";
        }
    }

    /** A receive: done with the sender, tag and length of the message it got, or {@code truncatedBytes} > 0. */
    public static final class RecvOp extends Op {
        final MemorySegment into;
        volatile int source = ANY;
        volatile int gotTag = ANY;
        volatile long count;
        /** The length of a message longer than the buffer (its first bytes were received), else 0. */
        volatile long truncatedBytes;
        /** Cancelled before any message matched it. */
        volatile boolean cancelled;

        RecvOp(MemorySegment into, int source, int tag) {
            super(source, tag);
            this.into = into;
        }

        public int source() {
            return source;
        }

        public int tag() {
            return gotTag;
        }

        public long count() {
            return count;
        }

        public long truncatedBytes() {
            return truncatedBytes;
        }

        public boolean cancelled() {
            return cancelled;
        }

        @Override
        public String toString() {
            return "receive from " + sourceName(peer) + " (" + tagName(tag) + ")";
        }
    }

    /** A message whose first frame arrived: where its bytes land and which receive, if any, took it. */
    private static final class Incoming {
        final int source;
        final long seq;
        final int tag;
        final long length;
        final boolean synchronous;
        /** Its bytes while no receive took it at its first frame (or the receive's buffer is too small). */
        byte[] stored;
        RecvOp op;
        long arrived;
        boolean complete;

        Incoming(FrameHeader h, int source) {
            this.source = source;
            this.seq = h.seq;
            this.tag = h.tag;
            this.length = h.putLength;
            this.synchronous = h.root == 1;
        }

        /** Landing straight in the receive's buffer (taken at the first frame, and it fits). */
        boolean direct() {
            return stored == null;
        }
    }

    /** Per sender: the messages whose frames are arriving, by number; and which number is matched next. */
    private static final class FromSource {
        /**
         * The messages whose frames are arriving: few at once (those of one sender in flight to this rank), so a list
         * searched by number, which boxes no number per frame as a map keyed by it did (issue 21).
         */
        final List<Incoming> arriving = new ArrayList<>();
        /** Messages whose first frame came before an earlier-numbered one's: matched once the gap closes. */
        final TreeMap<Long, Incoming> ahead = new TreeMap<>();
        long nextSeq;

        /** The arriving message numbered {@code seq}, or null. */
        Incoming arriving(long seq) {
            for (int i = 0; i < arriving.size(); i++) {
                Incoming m = arriving.get(i);
                if (m.seq == seq) {
                    return m;
                }
            }
            return null;
        }

        /** Message {@code seq} has arrived whole (or never was in the list: one to this rank itself). */
        void arrived(long seq) {
            for (int i = 0; i < arriving.size(); i++) {
                if (arriving.get(i).seq == seq) {
                    arriving.remove(i);
                    return;
                }
            }
        }
    }

    private final int rank;
    /** How messages name this rank and communicator: "rank 2 of world". */
    private final String who;
    private final CollectiveEngine engine;
    private final Transport[] route;
    private final FrameHeader meta = new FrameHeader();
    private final SendCompletion controls = new SendCompletion();
    /** The wait in progress on the owner thread (one at a time under the communicator's gate). */
    private final Awaited awaited = new Awaited();
    /** Per destination, the number of the next message sent to it. Owner thread. */
    private final long[] sentTo;
    private final FromSource[] from;
    /** Receives posted and not matched yet, in the order posted. */
    private final List<RecvOp> posted = new ArrayList<>();
    /** Messages matched by no receive yet, in arrival order (so in sending order per sender). */
    private final List<Incoming> unexpected = new ArrayList<>();
    /** Synchronous sends awaiting their receiver's answer, per destination by message number. */
    private final Map<Long, SendOp>[] awaitingMatch;
    /** Answers owed to synchronous senders: {source, seq} pairs, sent by the owner thread. */
    private final ArrayDeque<long[]> answers = new ArrayDeque<>();
    /** Whether {@link #answers} may hold one: set with each (under this object's lock), cleared once it is empty. */
    private volatile boolean answersOwed;
    private long storedBytes;

    /**
     * @param rank   this rank in the communicator
     * @param name   the communicator's name, for messages
     * @param engine the communicator's engine: its progress loop, deadline, failure state and departed peers
     * @param route  per rank of the communicator, the transport view (of the point-to-point context) to it; null for
     *               this rank
     */
    @SuppressWarnings("unchecked")
    public PointToPoint(int rank, String name, CollectiveEngine engine, Transport[] route) {
        this.rank = rank;
        this.who = "rank " + rank + " of " + name;
        this.engine = engine;
        this.route = route.clone();
        this.sentTo = new long[route.length];
        this.from = new FromSource[route.length];
        this.awaitingMatch = new Map[route.length];
        for (int i = 0; i < from.length; i++) {
            from[i] = new FromSource();
            awaitingMatch[i] = new HashMap<>();
        }
        engine.attachPointToPoint(this);
    }

    /**
     * Whether a receive owes a synchronous sender its answer: the engine's progress rounds then send it
     * ({@link #sendOwedAnswers}), in whatever call this rank is, since no wait may ever come for that receive (one
     * freed in flight) or only after a call that needs the sender (decision 0228). Any thread.
     */
    boolean answersOwed() {
        return answersOwed;
    }

    /** Sends the answers owed to synchronous senders; how many. Owner thread. */
    int sendOwedAnswers() {
        return sendAnswers();
    }

    // ---- operations (owner thread) ----

    /**
     * A send of {@code bytes} to {@code dest} with {@code tag}, not started and counted done: the first operation of a
     * persistent request, which its first start restarts (decision 0088).
     */
    public static SendOp unstartedSend(long bytes, int dest, int tag, boolean synchronous) {
        SendOp op = new SendOp(dest, tag, bytes, synchronous);
        op.matched = true;
        op.done = true;
        return op;
    }

    /** A receive into {@code into}, not posted and counted done: as {@link #unstartedSend}. */
    public static RecvOp unstartedRecv(MemorySegment into, int source, int tag) {
        RecvOp op = new RecvOp(into, source, tag);
        op.done = true;
        return op;
    }

    /** Starts sending {@code data} to {@code dest} with {@code tag}; synchronous: done once the receiver matched it. */
    public SendOp isend(MemorySegment data, int dest, int tag, boolean synchronous) {
        engine.checkUsable();
        return send(new SendOp(dest, tag, data.byteSize(), synchronous), data);
    }

    /**
     * Starts {@code op} again, a standard send of a persistent request whose last round is done (decision 0088), with
     * the same {@code data} (its current bytes). Nothing else reaches a done standard send: its frames have all been
     * let go by the transports (their last act on it), and no synchronous answer refers to it. A synchronous send is
     * never restarted (a late answer's reader thread may still be completing its previous round): its request makes a
     * new one each round.
     *
     * @throws IllegalArgumentException for a synchronous send, or one not done
     */
    public SendOp restart(SendOp op, MemorySegment data) {
        if (op.synchronous || !op.done || data.byteSize() != op.bytes) {
            throw new IllegalArgumentException(who + ": " + op + " cannot be restarted (synchronous, not done, or its"
                    + " data changed size)");
        }
        engine.checkUsable();
        op.frames.reset();
        op.matched = false;
        op.startNs = System.nanoTime();
        op.done = false;
        return send(op, data);
    }

    private SendOp send(SendOp op, MemorySegment data) {
        int dest = op.peer;
        int tag = op.tag;
        boolean synchronous = op.synchronous;
        if (dest == rank) {
            if (!intoPostedReceive(data, tag)) {
                toItselfUnexpected(data, tag);
            }
            op.matched = true;
            op.done = true;
            return op;
        }
        if (engine.departed(dest)) {
            throw new PeerLostException(dest, who + ": send of " + data.byteSize() + " bytes (tag " + tag
                    + ") to rank " + dest + ", which has closed its communicator");
        }
        long seq = sentTo[dest]++;
        if (synchronous) {
            synchronized (this) {
                awaitingMatch[dest].put(seq, op);
            }
        }
        meta.type = FrameHeader.DATA;
        meta.seq = seq;
        meta.tag = tag;
        meta.root = synchronous ? 1 : 0;
        meta.collective = 0;
        meta.algorithm = 0;
        meta.blockBytes = data.byteSize();
        route[dest].put(dest, meta, data, 0, data.byteSize(), op.frames);
        updateDone(op);
        return op;
    }

    /**
     * A message to this rank itself that a posted receive takes at once (every earlier message to itself was matched,
     * as one thread numbers and matches them): copied straight into that receive's buffer, with no header, store or
     * copy of its own (issue 21: a hot path allocates nothing per call). False, with nothing done, when no posted
     * receive matches it.
     */
    private boolean intoPostedReceive(MemorySegment data, int tag) {
        synchronized (this) {
            FromSource f = from[rank];
            if (sentTo[rank] != f.nextSeq || !f.ahead.isEmpty()) {
                return false;
            }
            for (int i = 0; i < posted.size(); i++) {
                RecvOp op = posted.get(i);
                if ((op.peer == ANY || op.peer == rank) && (op.tag == ANY || op.tag == tag)) {
                    posted.remove(i);
                    sentTo[rank]++;
                    f.nextSeq++;
                    long length = data.byteSize();
                    long room = op.into.byteSize();
                    long got = Math.min(room, length);
                    MemorySegment.copy(data, 0, op.into, 0, got);
                    op.source = rank;
                    op.gotTag = tag;
                    op.count = got;
                    if (length > room) {
                        op.truncatedBytes = length;
                    }
                    op.done = true;
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * A message to this rank itself that no receive takes yet: as if it had arrived, copied now (the caller may reuse
     * data at once).
     */
    private void toItselfUnexpected(MemorySegment data, int tag) {
        FrameHeader h = new FrameHeader();
        h.seq = sentTo[rank]++;
        h.tag = tag;
        h.putLength = data.byteSize();
        byte[] copy = data.toArray(ValueLayout.JAVA_BYTE);
        synchronized (this) {
            Incoming m = new Incoming(h, rank);
            sequence(m, from[rank]);
            MemorySegment.copy(MemorySegment.ofArray(copy), 0, land(m, h, 0, copy.length), h.landingOffset,
                    copy.length);
            m.arrived = copy.length;
            completed(m);
        }
    }

    /** Posts a receive into {@code into} from {@code source} ({@link #ANY}) with {@code tag} ({@link #ANY}). */
    public RecvOp irecv(MemorySegment into, int source, int tag) {
        engine.checkUsable();
        return post(new RecvOp(into, source, tag));
    }

    /**
     * Posts {@code op} again, the receive of a persistent request whose last round is done (decision 0088): a done
     * receive is in no list and no message refers to it any more (its last frame's completion, under this object's
     * lock, was the last touch), so its results are cleared and it is matched as a new one.
     *
     * @throws IllegalArgumentException when it is not done
     */
    public RecvOp restart(RecvOp op) {
        if (!op.done) {
            throw new IllegalArgumentException(who + ": " + op + " cannot be restarted before it is done");
        }
        engine.checkUsable();
        op.source = ANY;
        op.gotTag = ANY;
        op.count = 0;
        op.truncatedBytes = 0;
        op.cancelled = false;
        op.startNs = System.nanoTime();
        op.done = false;
        return post(op);
    }

    private RecvOp post(RecvOp op) {
        synchronized (this) {
            for (int i = 0; i < unexpected.size(); i++) {
                Incoming m = unexpected.get(i);
                if (matches(op, m)) {
                    unexpected.remove(i);
                    take(op, m);
                    return op;
                }
            }
            posted.add(op);
        }
        return op;
    }

    /** The earliest unmatched message a receive from {@code source} with {@code tag} would take, or null. */
    public synchronized Probed iprobe(int source, int tag) {
        for (Incoming m : unexpected) {
            if ((source == ANY || source == m.source) && (tag == ANY || tag == m.tag)) {
                return new Probed(m.source, m.tag, m.length);
            }
        }
        return null;
    }

    /** {@link #iprobe} after one round of progress on every transport (shared memory included) and collective. */
    public Probed iprobeAfterProgress(int source, int tag) {
        return afterProgress("iprobe", () -> iprobe(source, tag));
    }

    /** What {@code look} finds after one round of progress; {@code what} names the round. */
    private <T> T afterProgress(String what, java.util.function.Supplier<T> look) {
        List<T> found = new ArrayList<>(1);
        long now = System.nanoTime();
        engine.awaitOutside(() -> {
            sendAnswers();
            T t = look.get();
            return t != null && found.add(t);
        }, () -> who + ": " + what, now, now);
        return found.isEmpty() ? null : found.getFirst();
    }

    /** What a probe found: the message a receive would take. */
    public record Probed(int source, int tag, long count) {
    }

    /**
     * A message a matched probe took out of matching (MPI_Mprobe): no receive or probe sees it any more; only
     * {@link #mrecv} with this handle receives it, once.
     */
    public static final class Matched {
        private final Incoming message;
        /** Set by the one {@link #mrecv} that receives it. Guarded by the {@code PointToPoint}. */
        private boolean received;

        private Matched(Incoming message) {
            this.message = message;
        }

        public int source() {
            return message.source;
        }

        public int tag() {
            return message.tag;
        }

        /** Its length in bytes. */
        public long count() {
            return message.length;
        }

        @Override
        public String toString() {
            return "message of " + message.length + " bytes from rank " + message.source + " (tag " + message.tag + ")";
        }
    }

    /**
     * Takes the earliest unmatched message a receive from {@code source} ({@link #ANY}) with {@code tag} ({@link #ANY})
     * would take out of matching, and returns it; null when there is none. Finding and taking are one step under this
     * object's lock, so two threads probing at once never get the same message (what a probe then a receive cannot
     * promise).
     */
    public synchronized Matched improbe(int source, int tag) {
        for (Iterator<Incoming> it = unexpected.iterator(); it.hasNext(); ) {
            Incoming m = it.next();
            if ((source == ANY || source == m.source) && (tag == ANY || tag == m.tag)) {
                it.remove();
                return new Matched(m);
            }
        }
        return null;
    }

    /** {@link #improbe} after one round of progress on every transport and collective. */
    public Matched improbeAfterProgress(int source, int tag) {
        return afterProgress("improbe", () -> improbe(source, tag));
    }

    /** Waits until {@link #improbe} takes a message, as {@link #probe} waits; fails at the deadline, naming it. */
    public Matched mprobe(int source, int tag) {
        return awaitMessage("matched probe", source, tag, () -> improbe(source, tag), System.nanoTime(), Long.MAX_VALUE);
    }

    /**
     * One round of a matched probe that started at {@code startNs}: a round of progress, then {@link #improbe}; null
     * when nothing was taken. Fails as {@link #mprobe} does: at the deadline counted from {@code startNs}, naming the
     * wait, or when {@code source} has closed its communicator. For a caller that waits between rounds without
     * holding the communicator (decision 0134).
     */
    public Matched mprobeRound(int source, int tag, long startNs) {
        return awaitMessage("matched probe", source, tag, () -> improbe(source, tag), startNs, System.nanoTime());
    }

    /**
     * Receives matched message {@code h} into {@code into}: the receive is done at once if all its bytes are here,
     * else when they are. A message longer than {@code into} truncates, as {@link #irecv}.
     *
     * @throws IllegalStateException {@code h} was received already
     */
    public RecvOp mrecv(Matched h, MemorySegment into) {
        engine.checkUsable();
        RecvOp op = new RecvOp(into, h.message.source, h.message.tag);
        synchronized (this) {
            if (h.received) {
                throw new IllegalStateException(who + ": the matched " + h + " was received already");
            }
            h.received = true;
            take(op, h.message);
        }
        return op;
    }

    /**
     * Cancels a receive that no message has matched yet (true); false when one has, and it completes as usual.
     */
    public synchronized boolean cancel(RecvOp op) {
        if (posted.remove(op)) {
            op.cancelled = true;
            op.done = true;
            return true;
        }
        return false;
    }

    /**
     * Whether {@code op} is done, after sending any answers owed to synchronous senders; throws the failure of the
     * communicator or of the peer the operation depends on. No waiting. Owner thread.
     */
    public boolean poll(Op op) {
        sendAnswers();
        if (op instanceof SendOp s) {
            updateDone(s);
        }
        if (op.done) {
            return true;
        }
        checkPeer(op);
        return false;
    }

    /**
     * Waits until {@code op} is done or {@code untilNs} passed (false), making progress on every transport and every
     * collective in flight meanwhile; fails at the communicator's deadline counted from when the operation started,
     * with a message naming it.
     */
    public boolean await(Op op, long untilNs) {
        Awaited a = awaited.op == null ? awaited : new Awaited(); // a wait inside a wait (none today) gets its own
        a.op = op;
        try {
            return engine.awaitOutside(a, a, op.startNs, untilNs);
        } finally {
            a.op = null;
        }
    }

    /**
     * The operation a wait is for, as the engine's done-check and deadline message: one kept per communicator, so a
     * wait makes no lambda (issue 21). The engine's blocker may test it from another thread after the wait ended: it
     * then reads no operation and answers done.
     */
    private final class Awaited implements java.util.function.BooleanSupplier, java.util.function.Supplier<String> {
        volatile Op op;

        @Override
        public boolean getAsBoolean() {
            Op o = op;
            return o == null || poll(o);
        }

        @Override
        public String get() {
            Op o = op;
            return o == null ? who + ": a finished wait" : describe(o);
        }
    }

    /** Waits until a message that {@code source} and {@code tag} match has arrived (its first frame). */
    public Probed probe(int source, int tag) {
        return awaitMessage("probe", source, tag, () -> iprobe(source, tag), System.nanoTime(), Long.MAX_VALUE);
    }

    /**
     * Waits until {@code look} finds a message from {@code source} with {@code tag}, or until {@code untilNs} (then
     * null); {@code what} names the wait, whose deadline counts from {@code start}.
     */
    private <T> T awaitMessage(String what, int source, int tag, java.util.function.Supplier<T> look, long start,
                               long untilNs) {
        List<T> found = new ArrayList<>(1);
        engine.awaitOutside(() -> {
            sendAnswers();
            T t = look.get();
            if (t != null) {
                found.add(t);
                return true;
            }
            if (source != ANY && source != rank && engine.departed(source)) {
                throw new PeerLostException(source, who + ": " + what + " for a message from rank " + source
                        + " (" + tagName(tag) + "), which has closed its communicator");
            }
            return false;
        }, () -> who + ": " + what + " for a message from " + sourceName(source) + " (" + tagName(tag) + "); "
                + held(), start, untilNs);
        return found.isEmpty() ? null : found.getFirst();
    }

    private void updateDone(SendOp op) {
        if (!op.done && op.frames.pending() == 0 && (!op.synchronous || op.matched)) {
            op.done = true;
        }
    }

    /** Fails a receive from a specific peer that has departed with nothing for it; a send to one likewise. */
    private void checkPeer(Op op) {
        if (op.peer == ANY || op.peer == rank || !engine.departed(op.peer)) {
            return;
        }
        if (op instanceof RecvOp r) {
            synchronized (this) {
                if (r.done || !posted.contains(r)) {
                    return; // a message matched it: its frames all came before the goodbyes
                }
            }
        }
        throw new PeerLostException(op.peer, describe(op) + ": rank " + op.peer + " closed its communicator first");
    }

    /** For deadlines and failures: the operation, its peer, tag and communicator's rank, and what is held here. */
    public String describe(Op op) {
        if (op instanceof SendOp s) {
            return who + ": " + (s.synchronous ? "synchronous " : "") + "send of " + s.bytes
                    + " bytes to rank " + s.peer + " (tag " + s.tag + "), " + s.frames.pending()
                    + " frame(s) not yet delivered" + (s.synchronous && !s.matched ? ", not yet matched by a receive"
                    : "");
        }
        RecvOp r = (RecvOp) op;
        return who + ": receive of up to " + r.into.byteSize() + " bytes from " + sourceName(r.peer) + " ("
                + tagName(r.tag) + "); " + held();
    }

    private static String sourceName(int source) {
        return source == ANY ? "any rank" : "rank " + source;
    }

    private static String tagName(int tag) {
        return tag == ANY ? "any tag" : "tag " + tag;
    }

    private synchronized String held() {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (Incoming m : unexpected) {
            if (shown++ == 4) {
                sb.append(", ...");
                break;
            }
            sb.append(sb.isEmpty() ? "" : ", ").append("rank ").append(m.source).append(" tag ").append(m.tag)
                    .append(" (").append(m.length).append(" bytes)");
        }
        for (int src = 0; src < from.length; src++) {
            FromSource f = from[src];
            if (!f.ahead.isEmpty()) {
                // Frames of later messages came, the first frame of message #nextSeq did not: it is still on its way.
                sb.append(sb.isEmpty() ? "" : "; ").append(f.ahead.size()).append(" from rank ").append(src)
                        .append(" wait for its message #").append(f.nextSeq).append(" to arrive first");
            }
        }
        return unexpected.size() + " unreceived message(s) here" + (sb.isEmpty() ? "" : ": " + sb) + ", "
                + storedBytes + " bytes held";
    }

    /** Answers the synchronous senders whose messages a receive completed; how many. Owner thread. */
    private int sendAnswers() {
        if (!answersOwed) {
            return 0;
        }
        int sent = 0;
        while (true) {
            long[] a;
            synchronized (this) {
                a = answers.poll();
                if (a == null) {
                    answersOwed = false;
                }
            }
            if (a == null) {
                return sent;
            }
            sent++;
            int to = (int) a[0];
            meta.type = FrameHeader.DATA;
            meta.seq = a[1];
            meta.tag = MATCHED_TAG;
            meta.root = 0;
            meta.collective = 0;
            meta.algorithm = 0;
            meta.blockBytes = 0;
            route[to].put(to, meta, NO_BYTES, 0, 0, controls);
        }
    }

    // ---- matching (under this object's lock) ----

    private static boolean matches(RecvOp op, Incoming m) {
        return (op.peer == ANY || op.peer == m.source) && (op.tag == ANY || op.tag == m.tag);
    }

    /**
     * A message's first frame arrived: matched now if every earlier message from its sender was, else held until
     * they are.
     */
    private void sequence(Incoming m, FromSource f) {
        if (m.seq != f.nextSeq) {
            f.ahead.put(m.seq, m);
            return;
        }
        match(m);
        f.nextSeq++;
        for (Incoming next; (next = f.ahead.remove(f.nextSeq)) != null; f.nextSeq++) {
            match(next);
        }
    }

    /** Gives {@code m} to the earliest posted receive that matches it, or keeps it unexpected. */
    private void match(Incoming m) {
        for (int i = 0; i < posted.size(); i++) {
            RecvOp op = posted.get(i);
            if (matches(op, m)) {
                posted.remove(i);
                take(op, m);
                return;
            }
        }
        unexpected.add(m);
    }

    /** {@code op} takes {@code m}: its bytes land in op's buffer from now on, or are copied there once complete. */
    private void take(RecvOp op, Incoming m) {
        m.op = op;
        op.source = m.source;
        op.gotTag = m.tag;
        if (m.complete) {
            finish(m);
        }
    }

    /** Where bytes {@code [offset, offset+length)} of {@code m} land: the memory, the offset into {@code h}. */
    private MemorySegment land(Incoming m, FrameHeader h, long offset, int length) {
        if (m.stored == null && m.arrived == 0 && (m.op == null || m.length > m.op.into.byteSize())) {
            if (m.length > Integer.MAX_VALUE - 16) {
                throw new MismatchException(who + ": rank " + m.source + " sent a message of " + m.length
                        + " bytes, more than a send may (2 GiB)");
            }
            m.stored = new byte[(int) m.length];
            storedBytes += m.length;
        }
        h.landingOffset = length == 0 ? 0 : offset;
        if (length == 0) {
            return EMPTY;
        }
        return m.direct() ? m.op.into : MemorySegment.ofArray(m.stored);
    }

    /** Every byte of {@code m} arrived. */
    private void completed(Incoming m) {
        m.complete = true;
        from[m.source].arrived(m.seq);
        if (m.op != null) {
            finish(m);
        }
    }

    /** Completes the receive that took complete message {@code m}. */
    private void finish(Incoming m) {
        RecvOp op = m.op;
        long room = op.into.byteSize();
        if (!m.direct()) {
            MemorySegment.copy(MemorySegment.ofArray(m.stored), 0, op.into, 0, Math.min(room, m.length));
            storedBytes -= m.length;
            m.stored = null;
        }
        op.count = Math.min(room, m.length);
        if (m.length > room) {
            op.truncatedBytes = m.length;
        }
        if (m.synchronous) {
            answers.add(new long[] {m.source, m.seq});
            answersOwed = true;
        }
        op.done = true;
    }

    // ---- FrameSink: the point-to-point context's frames, the sender numbered in this communicator ----

    @Override
    public MemorySegment onDataHeader(int rail, FrameHeader h) {
        int source = h.sourceRank;
        if (h.tag == MATCHED_TAG) {
            h.landingOffset = 0;
            return EMPTY; // handled when complete
        }
        if (h.tag < 0) {
            throw new MismatchException(who + ": rank " + source + " sent a point-to-point frame with tag "
                    + h.tag + ", which no send makes");
        }
        synchronized (this) {
            FromSource f = from[source];
            Incoming m = f.arriving(h.seq);
            if (m == null) {
                // (ahead is looked in only when it holds something: its key is boxed, and it is empty but for gaps)
                if (h.seq < f.nextSeq || !f.ahead.isEmpty() && f.ahead.containsKey(h.seq)) {
                    // A frame of a message already complete: the transports deliver each frame once.
                    throw new MismatchException(who + ": rank " + source + " sent more of message #" + h.seq
                            + " (tag " + h.tag + ") after all " + h.putLength + " bytes of it had arrived");
                }
                m = new Incoming(h, source);
                f.arriving.add(m);
                sequence(m, f);
            }
            return land(m, h, h.fragOffset, h.fragLength);
        }
    }

    @Override
    public void onDataComplete(int rail, FrameHeader h) {
        if (h.tag == MATCHED_TAG) {
            SendOp op;
            synchronized (this) {
                op = awaitingMatch[h.sourceRank].remove(h.seq);
            }
            if (op != null) {
                op.matched = true;
                updateDone(op);
            }
            engine.progressed();
            return;
        }
        synchronized (this) {
            Incoming m = from[h.sourceRank].arriving(h.seq);
            if (m == null) {
                return;
            }
            m.arrived += h.fragLength;
            if (m.arrived == m.length) {
                completed(m);
            }
        }
        engine.progressed();
    }

    @Override
    public void onAbort(int peer, String reason) {
        engine.onAbort(peer, reason);
    }

    @Override
    public void onGoodbye(int peer, int rail) {
        // The communicator's engine hears of it (the router tells it).
    }

    @Override
    public void onPeerLost(int peer, int rail, String cause) {
        engine.onPeerLost(peer, rail, cause);
    }
}
