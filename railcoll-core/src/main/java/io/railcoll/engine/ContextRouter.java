package io.railcoll.engine;

import io.railcoll.CollectiveAbortedException;
import io.railcoll.MismatchException;
import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SharedDriver;
import io.railcoll.transport.Transport;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one {@link FrameSink} of a rank's transports: hands every incoming frame to the engine of the communicator its
 * {@code context} names, with the sender's job rank translated to its rank in that communicator (decision 0070).
 *
 * <ul>
 *   <li>A frame of a call this rank has not posted yet, or for a context it has not created yet (a faster peer
 *       already left the split that makes it): with one communicator open, it pauses its connection until the call
 *       is posted, as before (decision 0003). With several, a paused connection would hold back the frames of every
 *       other communicator behind it, and communicators driven by different threads would wait for each other in
 *       a cycle; so the frame is read into memory of the router's own ({@link EarlyFrames}) and handed to the
 *       engine when its call is posted ({@link #replay}). Past {@link EarlyFrames#LIMIT_BYTES} held, it pauses
 *       again. Nothing is dropped.</li>
 *   <li>A frame for a context this rank has closed is a mismatch, except a probe (no data), which a peer may send
 *       before it learns that this rank's call ended; a probe is dropped.</li>
 *   <li>A frame from a rank outside the context's communicator is a mismatch.</li>
 *   <li>A run-time failure is fatal to every communicator of the rank, as MPI's default error handler makes it: a
 *       failure an engine raised in a frame callback, an ABORT, a lost peer, fail every registered engine (the one
 *       concerned with its own message, the others with the same exception).</li>
 * </ul>
 *
 * <p>Threading: frame callbacks on whichever thread drives a transport; {@link #register} and {@link #unregister}
 * from any thread (copy-on-write). The lookup allocates nothing: a linear scan over the few open communicators.
 * Lifetime: one per rank, built before the transports and owned by the world communicator.
 */
public final class ContextRouter implements FrameSink {
    /**
     * One registered context: where its frames go ({@code sink}: the communicator's engine, or its point-to-point
     * messages), the communicator's engine, and the rank each job rank has in it (-1: not a member).
     */
    private record Member(long context, String name, CollectiveEngine engine, FrameSink sink, int[] rankOfJobRank) {
        /** Whether this is the communicator's own entry (its engine hears of aborts, goodbyes and lost peers). */
        boolean primary() {
            return sink == engine;
        }
    }

    private static final MemorySegment EMPTY = CollectiveEngine.EMPTY;

    private final int jobSize;
    private final SharedDriver driver;
    private final Object registration = new Object();
    private volatile Member[] members = new Member[0];
    /** How many communicators are registered (their point-to-point contexts not counted). */
    private volatile int communicators;
    /**
     * Whether this rank has made a point-to-point call: from then on a frame ahead of its call is always held, never
     * left to pause its connection, since a message behind it may be what this rank waits for (decision 0080).
     */
    private volatile boolean pointToPoint;
    /** Contexts closed on this rank: their late probes are dropped, their data refused. */
    private final Set<Long> closed = ConcurrentHashMap.newKeySet();
    /** The rank's transports, resumed when a context is registered; set once after they are built. */
    private volatile Transport[] transports = new Transport[0];
    /** Frames read ahead of their call while several communicators are open. */
    private final EarlyFrames early = new EarlyFrames();
    /** How replayed frames reach their communicator: made once, so a replay makes no lambda (decision 0089). */
    private final EarlyFrames.Target<Member> replayTo = new EarlyFrames.Target<>() {
        @Override
        public MemorySegment header(Member m, FrameHeader h) {
            return deliverHeader(m, -1, h);
        }

        @Override
        public void complete(Member m, FrameHeader h) {
            deliverComplete(m, -1, h);
        }
    };

    public ContextRouter(int jobSize, SharedDriver driver) {
        this.jobSize = jobSize;
        this.driver = driver;
    }

    /** The transports to resume when a communicator is registered (they pause on frames of unknown contexts). */
    public void setTransports(Transport... transports) {
        this.transports = transports.clone();
    }

    /**
     * Starts routing frames of {@code context} to {@code engine}, whose communicator's rank i is job rank
     * {@code jobRanks[i]}, and lets connections paused on such frames read on.
     *
     * @throws IllegalStateException when {@code context} is already open on this rank (two derived contexts
     *                               collided; see decision 0070)
     */
    public void register(long context, String name, CollectiveEngine engine, int[] jobRanks) {
        register(context, name, engine, engine, jobRanks);
    }

    /**
     * As {@link #register(long, String, CollectiveEngine, int[])}, for a second context of the same communicator
     * whose frames go to {@code sink} (its point-to-point messages); failures still go to {@code engine}.
     */
    public void register(long context, String name, CollectiveEngine engine, FrameSink sink, int[] jobRanks) {
        int[] rankOf = new int[jobSize];
        Arrays.fill(rankOf, -1);
        for (int i = 0; i < jobRanks.length; i++) {
            rankOf[jobRanks[i]] = i;
        }
        synchronized (registration) {
            for (Member m : members) {
                if (m.context == context) {
                    throw new IllegalStateException("communication context " + Long.toHexString(context) + " of " + name
                            + " is already used by " + m.name + " on this rank");
                }
            }
            Member[] next = Arrays.copyOf(members, members.length + 1);
            next[members.length] = new Member(context, name, engine, sink, rankOf);
            members = next;
            communicators = (int) Arrays.stream(next).filter(Member::primary).count();
            closed.remove(context);
        }
        resumeAll();
        replay(context);
    }

    /** Stops routing {@code context}: later frames of it are refused (data) or dropped (probes). */
    public void unregister(long context) {
        synchronized (registration) {
            closed.add(context);
            members = Arrays.stream(members).filter(m -> m.context != context).toArray(Member[]::new);
            communicators = (int) Arrays.stream(members).filter(Member::primary).count();
        }
    }

    /**
     * This rank makes point-to-point calls: frames ahead of their call are held from now on, and those paused until
     * now are offered again (decision 0080). Any thread; cheap after the first.
     */
    public void usePointToPoint() {
        if (!pointToPoint) {
            pointToPoint = true;
            resumeAll();
        }
    }

    private void resumeAll() {
        // Under the shared driver: another communicator's thread may be inside the same transport.
        driver.resumeAll(transports);
    }

    private Member member(long context) {
        for (Member m : members) {
            if (m.context == context) {
                return m;
            }
        }
        return null;
    }

    /**
     * Hands the frames of {@code context} read ahead of their call to its engine, those whose call is posted now.
     * Called after the engine posts a call (its transports' resume) and when a context is registered.
     */
    public void replay(long context) {
        if (early.isEmpty()) {
            return;
        }
        Member m = member(context);
        if (m != null) {
            early.replay(context, m, replayTo);
        }
    }

    @Override
    public MemorySegment onDataHeader(int rail, FrameHeader h) {
        Member m = member(h.context);
        if (m == null) {
            if (!closed.contains(h.context)) {
                // A communicator this rank has not created yet: hold the frame until it has.
                return holdEarly(h);
            }
            if (h.tag == CollectiveEngine.PROBE_TAG && h.fragLength == 0) {
                h.landingOffset = 0;
                return EMPTY; // a late probe of a call this rank finished before closing the communicator
            }
            throw failAll(null, new MismatchException("rank " + h.sourceRank + " sent data (" + h.putLength
                    + " bytes, call #" + h.seq + ") for communication context " + Long.toHexString(h.context)
                    + ", which this rank has closed: the ranks disagree on when it is freed"));
        }
        MemorySegment target = deliverHeader(m, rail, h);
        return target != null ? target : holdEarly(h);
    }

    /**
     * Where an early frame goes: memory of the router's while several communicators are open or this rank uses
     * point-to-point messages, else nowhere (pause).
     */
    private MemorySegment holdEarly(FrameHeader h) {
        return communicators > 1 || pointToPoint ? early.hold(h) : null;
    }

    private MemorySegment deliverHeader(Member m, int rail, FrameHeader h) {
        int job = h.sourceRank;
        int from = m.rankOfJobRank[job];
        if (from < 0) {
            throw failAll(null, new MismatchException(m.name + ": job rank " + job + " sent data for it but is not"
                    + " one of its ranks"));
        }
        h.sourceRank = from;
        try {
            return m.sink.onDataHeader(rail, h);
        } catch (RailcollException e) {
            throw failAll(m, e);
        } finally {
            h.sourceRank = job;
        }
    }

    @Override
    public void onDataComplete(int rail, FrameHeader h) {
        if (early.completeIfHeld(h)) {
            replay(h.context); // its call may have been posted while it arrived
            return;
        }
        Member m = member(h.context);
        if (m == null) {
            return; // a dropped probe
        }
        deliverComplete(m, rail, h);
    }

    private void deliverComplete(Member m, int rail, FrameHeader h) {
        int job = h.sourceRank;
        h.sourceRank = m.rankOfJobRank[job];
        try {
            m.sink.onDataComplete(rail, h);
        } catch (RailcollException e) {
            throw failAll(m, e);
        } finally {
            h.sourceRank = job;
        }
    }

    @Override
    public void onAbort(int peer, String reason) {
        RailcollException first = toMembersWith(peer, (engine, p) -> engine.onAbort(p, reason));
        throw failAll(null, first != null ? first
                : new CollectiveAbortedException(peer, "job rank " + peer + " aborted: " + reason));
    }

    @Override
    public void onGoodbye(int peer, int rail) {
        for (Member m : members) {
            int p = m.rankOfJobRank[peer];
            if (p >= 0 && m.primary()) {
                m.engine.onGoodbye(p, rail);
            }
        }
    }

    @Override
    public void progressed() {
        for (Member m : members) {
            if (m.primary()) {
                m.engine.progressed();
            }
        }
    }

    @Override
    public void onPeerLost(int peer, int rail, String cause) {
        RailcollException first = toMembersWith(peer, (engine, p) -> engine.onPeerLost(p, rail, cause));
        throw failAll(null, first != null ? first
                : new io.railcoll.PeerLostException(peer, "lost job rank " + peer + ": " + cause));
    }

    /**
     * Tells the engine of every communicator that has job rank {@code peer} (as its rank there) of a failure; each
     * fails and throws its own exception, so that its message names it. Returns the first, or null when none has
     * the peer.
     */
    private RailcollException toMembersWith(int peer, java.util.function.ObjIntConsumer<CollectiveEngine> tell) {
        RailcollException first = null;
        for (Member m : members) {
            int p = m.rankOfJobRank[peer];
            if (p < 0 || !m.primary()) {
                continue;
            }
            try {
                tell.accept(m.engine, p);
            } catch (RailcollException e) {
                first = first == null ? e : first;
            }
        }
        return first;
    }

    /** Fails every registered engine but {@code concerned} (which failed itself) with {@code e}; returns it. */
    private RailcollException failAll(Member concerned, RailcollException e) {
        for (Member m : members) {
            if (m != concerned && m.primary()) {
                m.engine.failWith(e);
            }
        }
        return e;
    }
}
