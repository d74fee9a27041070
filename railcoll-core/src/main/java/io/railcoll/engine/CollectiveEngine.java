package io.railcoll.engine;

import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;
import io.railcoll.trace.OpTrace;
import io.railcoll.memory.NodeCpus;
import io.railcoll.CollectiveAbortedException;
import io.railcoll.CollectiveTimeoutException;
import io.railcoll.MismatchException;
import io.railcoll.OperatorFailedException;
import io.railcoll.PeerLostException;
import io.railcoll.RailcollException;
import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.Blocker;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.MulticastStream;
import io.railcoll.transport.SendCompletion;
import io.railcoll.transport.NodeArea;
import io.railcoll.transport.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Runs one rank's side of collectives: holds up to {@link #WINDOW} of them in flight on one communicator, each a
 * resumable state machine over its compiled program ({@link Posting}), and checks every incoming frame against the
 * call it belongs to.
 *
 * <p>Every collective gets the next sequence number; ranks start collectives in the same order, so frames carry
 * the sequence number and the receiver knows which call they belong to. A frame of a call in flight lands in that
 * call's buffers; a frame of a later call pauses its connection until that call is posted (nothing is buffered or
 * dropped, decision 0003); a frame of a finished call, or of another collective, root, algorithm or block size, is a
 * mismatch that fails this rank and, through an ABORT frame, every other rank. A call does not put to a peer while
 * an earlier call in flight still has puts to that peer to make, so that its frames never overtake the earlier
 * call's on a connection (decision 0060). A wait of more than {@link #PROBE_AFTER_NS} sends the awaited peer a
 * probe (this rank's call without data), so that ranks that disagree but exchange no data still find out (decision
 * 0041). A call fails at its deadline, counted from its first wait (decisions 0040, 0205); any failure fails the
 * communicator and with it every call in flight (a call that had finished before stays finished).
 *
 * <p>Progress is made by whichever call waits or tests ({@link #await}, {@link #awaitAny}, {@link #test}, a blocking
 * {@link #run}): each round runs what every call in flight can run, oldest first, then serves the transports. No
 * helper thread is needed; transports with threads of their own (the threaded rail engine) land data meanwhile.
 * Waiting adapts, since ranks often outnumber cores: spin briefly (never when this node's ranks outnumber its
 * processors), then yield, then block in the transport (a selector) until I/O arrives. Every wait has a deadline.
 *
 * <p>Threading: one thread at a time drives the engine (the communicator's gate sees to it, decision 0042). Frame
 * callbacks arrive on the driving thread for transports it drives, and on progress threads for transports that have
 * their own; the state they read is published through each posting's volatile {@code activeSeq}, and receive
 * counters are updated atomically. Lifetime: owned and closed by the communicator.
 */
public final class CollectiveEngine implements FrameSink, AutoCloseable {
    /** Busy polls before yielding, when this node has a core per rank; none when ranks outnumber cores. */
    private static final int SPIN_ROUNDS = 64;
    /**
     * How long a wait yields before it sleeps. When ranks outnumber cores, yielding hands the core to the rank whose
     * data this one awaits, which usually answers within tens of microseconds; sleeping costs a futex wake and a
     * scheduler round trip. Past this budget the data is far away and sleeping costs nothing worth keeping a core
     * busy for (a rank blocked for a second uses well under 1% of a core).
     */
    private static final long YIELD_BUDGET_NS = TimeUnit.MICROSECONDS.toNanos(300);
    /** Longest single sleep: waits re-check their deadline at least this often. */
    private static final long BLOCK_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Sleep slice when another caller-driven transport may need attention meanwhile. */
    private static final long SHARED_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Sleep slice when news that ends the wait may come through a transport the sleep does not listen to (several
     * caller-driven transports carry what is awaited): what that news waits for is this slice at most (decision 0175).
     */
    private static final long ASTRAY_SLICE_NS = TimeUnit.MICROSECONDS.toNanos(200);
    /**
     * {@code -Drailcoll.engine.targetedSleep=false} restores the sleep of before decision 0175 (the first transport
     * with output pending, else the first, for a whole slice), for A/B runs: a diagnostic property, like
     * {@code -Drailcoll.counters}, not a setting.
     */
    private static final boolean TARGETED_SLEEP =
            Boolean.parseBoolean(System.getProperty("railcoll.engine.targetedSleep", "true"));
    /**
     * A wait for a peer's data longer than this sends that peer a probe: a frame without payload carrying this rank's
     * call (sequence number, collective, root, block size, algorithm), checked by the peer against its own call of
     * that number like any data frame (decision 0041). Ranks that disagree on a call but exchange no data in it (a
     * leaf of a broadcast tree waiting for a root that runs an all-gather) find out within this much, not at their
     * deadline. Long enough that calls that merely wait (a slow peer, a large put) send at most one small frame.
     */
    static final long PROBE_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** The tag of a probe frame: no program uses a negative tag. */
    static final int PROBE_TAG = -1;
    /**
     * How many collectives one communicator holds in flight (a power of two). Starting one more first drives the
     * oldest to completion. Sixteen covers the overlap a program gets from a handful of outstanding calls, and keeps
     * the scans of every progress round short.
     */
    public static final int WINDOW = 16;

    private final int rank;
    /** How failure messages name this rank and its communicator. */
    private final String who;
    private final Placement placement;
    private final int spinRounds;
    private final long yieldBudgetNs;
    private long idleSinceNs;
    private final long timeoutNs;
    private final ProgramCache cache;
    /** Probes' header and completion: never awaited, a probe only ever leads to a mismatch found by its receiver. */
    private final FrameHeader probeMeta = new FrameHeader();
    private final SendCompletion probes = new SendCompletion();
    /** Per peer, the sequence number of the last call in which it was probed. */
    private final long[] probedSeq;
    private final CallHistory history = new CallHistory();
    /** The calls in flight, call s in slot s mod WINDOW. */
    private final Posting[] table = new Posting[WINDOW];
    /** The number of the last call posted; frames of later ones pause their connection. */
    private volatile long postedSeq;
    private static final VarHandle POSTED_SEQ;

    static {
        try {
            POSTED_SEQ = MethodHandles.lookup().findVarHandle(CollectiveEngine.class, "postedSeq",
                    long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** The number of the oldest call that may be in flight (every earlier one has finished). Driving thread. */
    private long oldestSeq = 1;
    /** Calls posted and not finished. Driving thread. */
    private int inFlight;
    /** Whether some finished or failed call has a future to complete. Driving thread. */
    private boolean dueFutures;
    /** The one-call array of {@link #await}. Driving thread. */
    private final long[] awaitedSeqs = new long[1];
    /**
     * Per peer, goodbyes received over shared memory and over rails, counted apart from the start so that a goodbye
     * that arrives before {@link #attach} (a peer that closed while this rank was still starting) is not lost; only
     * those on the kind of connection that carries the peer's traffic count ({@link #goodbyes}). Any thread.
     */
    private final AtomicIntegerArray shmGoodbyes;
    private final AtomicIntegerArray railGoodbyes;
    private final Arena tempArena = Arena.ofShared();
    private Transport[] route;
    private Transport[] transports;
    private Blocker blocker;
    private boolean anyOwnThreads;
    private boolean[] carriesTraffic;
    private final java.util.function.BooleanSupplier awaitedReady = this::awaitedReady;
    /** Work driven from every progress round (the multicast broadcast), or null; owner thread only. */
    private ProgressHook hook;
    /**
     * The communicator's point-to-point messages, or null: every progress round sends the answers its receives owe to
     * synchronous senders, so that a send matched by a receive nobody waits for (freed in flight, or waited for only
     * after a collective) finishes while this rank is in any call (decision 0228). Owner thread only.
     */
    private PointToPoint pointToPoint;
    /** The multicast group's stream that MULTICAST ops use, or null while none is open (decision 0146). */
    private MulticastStream multicast;
    /** The call whose MULTICAST is posted on {@link #multicast} and not yet delivered, or null. */
    private Posting multicastOwner;
    /** What {@link #awaitHook} waits for, or null; read by the blocker's re-check. */
    private volatile java.util.function.BooleanSupplier awaitedExternal;

    /** The node steps of this engine's calls, over the node region once one is attached (decision 0206). */
    private final NodeSteps nodeSteps = new NodeSteps(table);
    /** How failures name the calls and what they waited for. */
    private final CallDescriptions calls;

    private volatile RailcollException failure;
    /**
     * Whether {@link #failure} has reached the owner as an exception. One that arrived between calls (an ABORT read by
     * a rail thread after this rank's call had returned) has not: the next call throws it itself, not an
     * IllegalStateException about an earlier failure (decision 0041). Owner thread only.
     */
    private boolean failureThrown;

    public CollectiveEngine(int rank, Placement placement, long timeoutNs) {
        this(rank, placement, timeoutNs, "rank " + rank);
    }

    /**
     * An engine whose failure messages name this rank as {@code who} (a sub-communicator's engine: "rank 1 of
     * world.split#0(color 1) (world rank 3)"); {@code rank} and {@code placement} are the communicator's own.
     */
    public CollectiveEngine(int rank, Placement placement, long timeoutNs, String who) {
        this.who = who;
        this.rank = rank;
        this.calls = new CallDescriptions(who, rank, placement, nodeSteps);
        this.placement = placement;
        this.timeoutNs = timeoutNs;
        this.cache = new ProgramCache(rank);
        this.shmGoodbyes = new AtomicIntegerArray(placement.size());
        this.railGoodbyes = new AtomicIntegerArray(placement.size());
        this.probedSeq = new long[placement.size()];
        this.spinRounds = NodeCpus.outnumbered(placement.localSizeOf(rank)) ? 0 : SPIN_ROUNDS;
        // Measured on this 2-core machine, idle, 1-byte all-gather (smp-direct) with 4/8/16 ranks on one node:
        // yielding first 21/60/164 us, sleeping at once 80/200/455 us. (Under a foreign load, yielding loses.)
        this.yieldBudgetNs = YIELD_BUDGET_NS;
        for (int i = 0; i < WINDOW; i++) {
            table[i] = new Posting(tempArena);
        }
    }

    /**
     * Connects the engine to its transports, once, before the first collective.
     *
     * @param route      for each peer, the transport that carries traffic to it (null for this rank)
     * @param transports every distinct transport, polled while waiting
     * @param blocker    where the owner sleeps while transports with threads of their own work
     */
    public void attach(Transport[] route, Transport[] transports, Blocker blocker) {
        if (this.route != null) {
            throw new IllegalStateException("transports already attached");
        }
        this.route = route.clone();
        calls.attach(this.route);
        this.transports = transports.clone();
        this.blocker = blocker;
        this.carriesTraffic = new boolean[transports.length];
        for (int i = 0; i < transports.length; i++) {
            anyOwnThreads |= !transports[i].drivenByCaller();
            for (Transport r : route) {
                carriesTraffic[i] |= r == transports[i];
            }
        }
    }

    /**
     * Lets programs with node steps run over {@code area}, the node region of this communicator's node (the world's
     * only: node steps address ranks by their local rank in this engine's placement). Before the first collective.
     */
    public void attachNodeArea(NodeArea area) {
        for (int half = 0; half < 2; half++) {
            if (area.buffer(half).byteSize() < NodeBuffer.BYTES) {
                throw new IllegalArgumentException("node buffer half " + half + " holds " + area.buffer(half).byteSize()
                        + " bytes; programs may address " + NodeBuffer.BYTES);
            }
        }
        if (NodeArea.PAYLOAD_BYTES < NodeBuffer.PAYLOAD_BYTES) {
            throw new IllegalArgumentException("a node flag carries " + NodeArea.PAYLOAD_BYTES + " bytes; programs may"
                    + " raise " + NodeBuffer.PAYLOAD_BYTES);
        }
        nodeSteps.attach(area, placement.localSizeOf(rank));
        cache.useLocalRanks(placement);
    }

    public RailcollException failure() {
        return failure;
    }

    /**
     * Installs {@code hook} (null removes it): from now on every progress round, in every collective, calls its
     * {@link ProgressHook#doWork}, and sleeps last at most a millisecond so its timers keep running. Owner thread.
     */
    public void setProgressHook(ProgressHook hook) {
        this.hook = hook;
    }

    /** The communicator's point-to-point messages, whose owed answers every progress round sends. Owner thread. */
    void attachPointToPoint(PointToPoint p2p) {
        this.pointToPoint = p2p;
    }

    /** Sends the answers owed to synchronous senders, if any: one volatile read when none is. Owner thread. */
    private int answerSynchronousSenders() {
        PointToPoint p = pointToPoint;
        return p != null && p.answersOwed() ? p.sendOwedAnswers() : 0;
    }

    /**
     * Installs the multicast stream that programs' Multicast ops run on (null removes it, as the group closes: a call
     * still parked on a delivery then fails when it next runs, naming the missing group). Owner thread.
     */
    public void setMulticast(MulticastStream stream) {
        if (multicastOwner != null) {
            multicastOwner.multicastPosted = false;
            multicastOwner = null;
        }
        this.multicast = stream;
    }

    /** Wakes the owner if it sleeps on the blocker (any thread); a sleep in a rail selector ends within 1 ms anyway. */
    public void wake() {
        Blocker b = blocker;
        if (b != null) {
            b.wake();
        }
    }

    /**
     * Runs the progress loop (rails, shared memory and the hook, if any) until {@code done} holds: the wait of an
     * operation outside the compiled programs (the hook's component, or a helper thread's set-up), so this rank keeps
     * serving its peers on every transport meanwhile. Sleeps in the hook's input when there is a hook. Fails after the engine's time-out with a {@link CollectiveTimeoutException} naming
     * {@code what}; a failure thrown by the hook fails the communicator like any other.
     */
    public void awaitHook(java.util.function.BooleanSupplier done, java.util.function.Supplier<String> what) {
        checkFailure();
        long start = System.nanoTime();
        long deadline = start + timeoutNs;
        int idle = 0;
        awaitedExternal = done;
        try {
            while (!done.getAsBoolean()) {
                checkFailure();
                idle = progress(idle, null, hook != null);
                if (idle > 0 && System.nanoTime() - deadline > 0) {
                    throw new CollectiveTimeoutException(who + ": " + what.get() + " not done after "
                            + CallDescriptions.seconds(System.nanoTime() - start));
                }
            }
        } catch (RailcollException e) {
            throw failed(e);
        } finally {
            awaitedExternal = null;
        }
    }

    /**
     * Runs the progress loop until {@code done} holds or {@code untilNs} has passed (false): the wait of a
     * point-to-point operation ({@link PointToPoint}). Unlike {@link #awaitHook} it also runs every collective in
     * flight, since a peer may need this rank's part of one before it sends what is awaited here. Fails, and with it
     * the communicator, {@code RAILCOLL_TIMEOUT_MS} after {@code startNs} with a {@link CollectiveTimeoutException}
     * naming {@code what}. {@code done} runs on this thread and may put. Owner thread.
     */
    public boolean awaitOutside(java.util.function.BooleanSupplier done, java.util.function.Supplier<String> what,
                                long startNs, long untilNs) {
        try {
            checkFailure();
            long deadline = startNs + timeoutNs;
            int idle = 0;
            awaitedExternal = done;
            while (!done.getAsBoolean()) {
                checkFailure();
                int work = inFlight > 0 ? advanceAll() : 0;
                if (work > 0) {
                    idle = 0;
                    continue;
                }
                if (idle > 0) {
                    checkLiveness();
                    long now = System.nanoTime();
                    if (now - deadline > 0) {
                        throw new CollectiveTimeoutException(who + ": " + what.get() + ": not done after "
                                + CallDescriptions.seconds(now - startNs) + silentPeers());
                    }
                    if (untilNs != Long.MAX_VALUE && now - untilNs > 0) {
                        return false;
                    }
                }
                idle = progress(idle, null, false);
            }
            return true;
        } catch (RailcollException e) {
            throw failed(e);
        } finally {
            awaitedExternal = null;
            completeFutures();
        }
    }

    /**
     * Whether {@code peer} has closed its communicator: every connection that carries its traffic to this rank said
     * goodbye, so nothing more will come from it. Any thread.
     */
    public boolean departed(int peer) {
        Transport t = route == null ? null : route[peer];
        return t != null && goodbyes(peer, t) >= t.connectionsTo(peer);
    }

    /**
     * Refuses to start a collective after an earlier failure. {@link #run} checks this itself; a collective carried
     * out outside the engine (by the node's shared memory) calls it first, and {@link #recordFailure} if it fails.
     */
    public void checkUsable() {
        RailcollException f = failure;
        if (f != null) {
            if (!failureThrown) {
                failureThrown = true;
                throw f;
            }
            throw new IllegalStateException("this communicator failed earlier and cannot run collectives: " + f.getMessage(), f);
        }
    }

    /**
     * Fails this engine with {@code e}, a failure another communicator of this rank met (any thread): a run-time
     * failure is fatal to every communicator of the rank (decision 0070). The next or current call throws it.
     */
    public void failWith(RailcollException e) {
        fail(e);
    }

    /** Fails this rank's communicator with {@code e}, raised by a collective carried out outside the engine. */
    public void recordFailure(RailcollException e) {
        failed(e); // the caller throws it; calls in flight fail with it
        completeFutures();
    }

    /**
     * Fails this rank's communicator with {@code e} and tells every peer at once (an ABORT on every transport), as a
     * mismatch found in a frame does: for a disagreement found outside the engine, which peers waiting in the engine
     * would otherwise only notice at their deadline.
     */
    public void abortPeers(RailcollException e) {
        failed(e); // the caller throws it; calls in flight fail with it
        completeFutures();
        sendAbort(e);
    }

    /**
     * The reason an ABORT carries for {@code e}: a mismatch's is marked, so that the peers fail with a mismatch too,
     * whether they hear it from the rank that found it or from one that relays it (decision 0051).
     */
    public static String abortReason(RailcollException e) {
        return (e instanceof MismatchException ? MISMATCH_MARK : "") + e.getMessage();
    }

    /** An ABORT with {@code e}'s reason on every transport, best effort. */
    private void sendAbort(RailcollException e) {
        String reason = abortReason(e);
        for (Transport t : transports) {
            try {
                t.abortAll(reason);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
    }

    /**
     * One round of progress outside any collective, without waiting: the progress hook, the rails, and any other
     * transport with frames still to write. For a wait outside the engine (a node step in shared memory) during
     * which this rank's rails and multicast protocol must still be served, and what it queued must still leave (a
     * node-mate may wait for those frames before it joins the node step). Owner thread.
     *
     * @return how much work was done (0: nothing)
     */
    public int serviceOnce() {
        int work = answerSynchronousSenders();
        ProgressHook h = hook;
        if (h != null) {
            work += h.doWork();
        }
        for (int i = 0; i < transports.length; i++) {
            Transport t = transports[i];
            // Rails no peer is routed through (a one-node job's) carry nothing to serve: a poll there is a wasted
            // system call in the middle of a node step's wait.
            if (t.railBased() && carriesTraffic[i] || t.hasPendingOutput()) {
                work += t.poll();
            }
        }
        return work;
    }

    /**
     * Reads what has arrived on every transport, shared memory included, without waiting, and returns the failure
     * an ABORT among it carried (this engine has failed with it), or the failure this engine already has (a rail
     * thread's ABORT), or null. For a rank about to report a node-mate lost, or a node step stalled: a rank that
     * fails sends its reason before it closes its end of the node region, but a wait on the region's flags reads no
     * ring ({@link #serviceOnce} serves the rails only), so the reason may still lie unread behind the loss it
     * explains (decision 0133). Owner thread.
     */
    public RailcollException readArrived() {
        try {
            pollEveryTransport();
        } catch (RailcollException told) {
            return told;
        }
        return failure; // an ABORT a rail thread read (the threaded engine) fails this engine from that thread
    }

    /** One poll of every transport; an ABORT read there throws the failure it carries ({@link #onAbort}). */
    private void pollEveryTransport() {
        for (Transport t : transports) {
            t.poll();
        }
    }

    /** Runs {@code algorithm} for {@code shape}; SEND and RECV are the caller's buffers (RECV may be empty). */
    public void run(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv) {
        await(post(algorithm, shape, send, recv, null, false), Long.MAX_VALUE);
    }

    /**
     * Runs a schedule that combines data: as {@link #run(Algorithm, Shape, MemorySegment, MemorySegment)}, with
     * {@code reduction} applied by its {@code Reduce} steps.
     *
     * @throws IllegalArgumentException when the program has Reduce steps and {@code reduction} is null, before
     *                                  anything is sent
     */
    public void run(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction) {
        await(post(algorithm, shape, send, recv, reduction, false), Long.MAX_VALUE);
    }

    /**
     * Starts {@code algorithm} for {@code shape} and returns its sequence number at once, for {@link #await},
     * {@link #test} and {@link #future}; the call then progresses whenever any call of this engine waits or tests.
     * When {@link #WINDOW} calls are in flight already, the oldest is driven to completion first. Nothing of the
     * program runs yet (its first puts go out at the next wait or test), so posting is cheap and never blocks on a
     * peer unless the window is full.
     *
     * @param reduction the type and operator of its Reduce steps, or null when it combines nothing
     * @param stageSend copy SEND into memory of the call's own first (a reduction in place, whose schedule must not
     *                  read what it writes); the caller's SEND is not read after this returns
     * @throws IllegalArgumentException before anything is sent, as {@link #run(Algorithm, Shape, MemorySegment,
     *                                  MemorySegment, Reduction)}
     */
    public long post(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction,
                     boolean stageSend) {
        checkUsable();
        CompiledProgram program = compile(algorithm, shape, reduction);
        long seq = postedSeq + 1;
        Posting p = freeSlot(seq);
        MemorySegment resultTo = null;
        if (program.peerBuffers && !recv.isNative()) {
            // Node-mates reach a buffer only by its address, which a heap array has not (decision 0143): RECV lives
            // in the slot's native memory and is copied out when the call finishes; a broadcast root's message in.
            resultTo = recv;
            recv = p.stageRecv(recv.byteSize());
            if (shape.collective() == Collective.BROADCAST && shape.root() == rank) {
                MemorySegment.copy(resultTo, 0, recv, 0, recv.byteSize());
            }
        }
        activate(p, seq, shape, program, send, recv, reduction, stageSend || program.peerBuffers && !send.isNative());
        // A rank whose RECV receives no result (an exscan's rank 0) keeps the caller's bytes: nothing is copied out.
        if (resultTo != null && shape.collective().writesRecv(rank)) {
            p.resultTo = resultTo;
        }
        POSTED_SEQ.setRelease(this, seq); // after the call's slot: see Posting#setActive
        if (inFlight++ == 0) {
            oldestSeq = seq;
        }
        resumeTransports();
        return seq;
    }

    /**
     * As {@link #post(Algorithm, Shape, MemorySegment, MemorySegment, Reduction, boolean)}, with RECV ({@code
     * recvBytes}) in memory of the call's own slot rather than the caller's: a non-blocking call whose buffers the
     * transports cannot reach (decision 0090). When every op has run, RECV is copied into {@code resultTo} (unless it
     * is null: a result the caller does not keep) before the call counts as finished; a call that fails copies
     * nothing. The slot's memory is kept and grown by doubling, so a loop of like calls allocates none.
     */
    public long postStaged(Algorithm algorithm, Shape shape, MemorySegment send, boolean stageSend, long recvBytes,
                           MemorySegment resultTo, Reduction reduction) {
        // The slot's memory belongs to the call in it until that one finishes.
        Posting p = freeSlot(postedSeq + 1);
        long seq = post(algorithm, shape, send, p.stageRecv(recvBytes), reduction, stageSend);
        p.resultTo = resultTo;
        return seq;
    }

    /**
     * Offers the frames held back for a call not posted yet again, now that one is. Only transports that carry this
     * communicator's traffic can hold such frames: a rail no peer is routed through (a one-node job's) carries only
     * goodbyes and aborts, and resuming it cost every call a lock, a selector poll (a system call) and its
     * housekeeping (decision 0128).
     */
    private void resumeTransports() {
        for (int i = 0; i < transports.length; i++) {
            if (carriesTraffic[i]) {
                transports[i].resume();
            }
        }
    }

    /** The slot of call {@code seq}, its previous call driven to completion first when it still holds it. */
    private Posting freeSlot(long seq) {
        Posting p = table[(int) (seq & (WINDOW - 1))];
        if (p.busy()) {
            // The window is full: the slot's call (the oldest in flight) finishes first, under its own deadline.
            await(p.heldSeq, Long.MAX_VALUE);
        }
        return p;
    }

    /**
     * A non-blocking v-variant (decision 0108): SEND is {@code call.send()} as it is, or, when {@code call.pack()} is
     * not null, {@code call.sendBytes()} of the slot's memory that {@code pack} fills now; RECV is {@code call.recv()},
     * or when that is null {@code call.recvBytes()} of the slot's memory, handed to {@code call.unpack()} (when not
     * null) once every op has run and before the call counts as finished. The caller's send may be reused as soon as
     * this returns only when it was packed.
     */
    public long postPacked(PackedCall call) {
        checkUsable();
        Posting p = freeSlot(postedSeq + 1);
        MemorySegment recv = call.recv() != null ? call.recv() : p.stageRecv(call.recvBytes());
        long seq = post(call.algorithm(), call.shape(), packedSend(p, call), recv, call.reduction(), false);
        p.onResult = call.recv() == null ? call.unpack() : null;
        return seq;
    }

    /**
     * Starts {@code first} (a call of known shape, typically a count exchange) and reserves the next sequence number
     * for a second call whose shape {@code then} builds from the first one's RECV when it finishes; returns the second
     * call's number, which finishes last (decision 0108). Nothing blocks on a peer here: frames for the second call
     * are held until it is bound, and later calls put to no peer before it. Both numbers are taken now, so every rank
     * numbers its later calls alike however its first call progresses. A {@code then} that throws fails the
     * communicator and aborts the peers.
     *
     * @param first its {@code recv} null: RECV is the slot's memory, given to {@code then}
     */
    public long postChained(PackedCall first, java.util.function.Function<MemorySegment, PackedCall> then,
                            String purpose) {
        checkUsable();
        long firstSeq = postedSeq + 1;
        long secondSeq = firstSeq + 1;
        Posting p1 = freeSlot(firstSeq);
        Posting p2 = freeSlot(secondSeq); // its wait only finishes calls: the first slot stays free
        long seq = postPacked(new PackedCall(first.algorithm(), first.shape(), first.send(), first.sendBytes(),
                first.pack(), null, first.recvBytes(), r -> bindReserved(secondSeq, then, r), first.reduction()));
        p1.purpose = purpose + " #" + secondSeq + "'s first part";
        p2.heldSeq = secondSeq;
        p2.done = false;
        p2.future = null;
        p2.reservedSeq = secondSeq; // before postedSeq: a transport thread that sees the number sees the reservation
        postedSeq = secondSeq;
        inFlight++;
        return seq + 1;
    }

    /** Binds the reserved call {@code seq} to what {@code then} makes of its first call's result, and starts it. */
    private void bindReserved(long seq, java.util.function.Function<MemorySegment, PackedCall> then,
                              MemorySegment firstResult) {
        Posting p = table[(int) (seq & (WINDOW - 1))];
        PackedCall call;
        CompiledProgram program;
        try {
            call = then.apply(firstResult);
            program = compile(call.algorithm(), call.shape(), call.reduction());
        } catch (RuntimeException e) {
            RailcollException failed = new RailcollException(who + ": collective #" + seq + " could not start after its"
                    + " first part: " + e.getMessage(), e);
            fail(failed); // the progress loop's catch fails the calls in flight
            sendAbort(failed);
            throw failed;
        }
        MemorySegment recv = call.recv() != null ? call.recv() : p.stageRecv(call.recvBytes());
        // The program may have asked for the reserved call's future already (its request is the chain's): activate
        // starts a slot without one, so it is carried over, else it would never complete (decision 0214).
        CompletableFuture<Void> future = p.future;
        activate(p, seq, call.shape(), program, packedSend(p, call), recv, call.reduction(), false);
        p.future = future;
        p.onResult = call.recv() == null ? call.unpack() : null;
        p.reservedSeq = Posting.NONE; // after activeSeq: see Posting#reservedSeq
        resumeTransports();
    }

    /**
     * A program's Copy, left out when source and destination are the same bytes: an all-gather in place binds SEND
     * to this rank's own block of RECV, and its copy of SEND to its place is then a copy onto itself, which the
     * checker's in-place run leaves out too (decision 0220; {@link io.railcoll.schedule.InPlace#aliased}).
     */
    private static void copyUnlessInPlace(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset,
                                          long length) {
        if (src.address() + srcOffset == dst.address() + dstOffset && src.isNative() == dst.isNative()
                && (src.isNative() || src.heapBase().orElse(null) == dst.heapBase().orElse(null))) {
            return;
        }
        MemorySegment.copy(src, srcOffset, dst, dstOffset, length);
    }

    private static MemorySegment packedSend(Posting p, PackedCall call) {
        if (call.pack() == null) {
            return call.send();
        }
        MemorySegment s = p.stageSend(call.sendBytes());
        call.pack().accept(s);
        return s;
    }

    /**
     * A call for {@link #postPacked} and {@link #postChained}.
     *
     * @param send   SEND as it is (ignored when {@code pack} is set)
     * @param pack   fills the slot's SEND memory ({@code sendBytes}) when the call starts; null: {@code send} is used
     * @param recv   RECV as it is, or null for {@code recvBytes} of the slot's memory
     * @param unpack given the slot's RECV when every op has run (only when {@code recv} is null); null: dropped
     */
    public record PackedCall(Algorithm algorithm, Shape shape, MemorySegment send, long sendBytes,
                             java.util.function.Consumer<MemorySegment> pack, MemorySegment recv, long recvBytes,
                             java.util.function.Consumer<MemorySegment> unpack, Reduction reduction) {
    }

    private CompiledProgram compile(Algorithm algorithm, Shape shape, Reduction reduction) {
        CompiledProgram program = cache.get(algorithm, shape);
        if (program.combines && reduction == null) {
            throw new IllegalArgumentException(algorithm.id() + " combines data but the call passed no element type "
                    + "and operator");
        }
        if (program.combines && program.reduceGranule % reduction.type().sizeBytes() != 0) {
            throw new IllegalArgumentException(algorithm.id() + " for " + shape + " combines ranges that are not whole "
                    + reduction.type() + " elements (" + reduction.type().sizeBytes() + " bytes each)");
        }
        if (program.nodeSteps && !nodeSteps.attached()) {
            throw new IllegalStateException(algorithm.id() + " has node steps, but " + who + " has no node region"
                    + " (shared memory off, alone on its node, or a sub-communicator)");
        }
        if (program.peerBuffers && !nodeSteps.peerAccess()) {
            throw new IllegalStateException(algorithm.id() + " copies straight between node-mates' buffers, but "
                    + who + "'s node did not agree at start-up that cross-memory attach works between its ranks"
                    + " (RAILCOLL_CMA=off, or the kernel refuses process_vm_readv; decision 0143)");
        }
        return program;
    }

    /** Fills slot {@code p} with call {@code seq} and publishes it to the transports' threads. */
    private void activate(Posting p, long seq, Shape shape, CompiledProgram program, MemorySegment send,
                          MemorySegment recv, Reduction reduction, boolean stageSend) {
        p.heldSeq = seq;
        p.done = false;
        p.collective = shape.collective();
        p.shape = shape;
        p.program = program;
        p.reduction = reduction;
        p.resetSlots(program);
        p.buffers[Buffer.SEND.ordinal()] = stageSend ? p.stage(send, send.byteSize()) : send;
        p.buffers[Buffer.RECV.ordinal()] = recv;
        p.buffers[Buffer.TEMP.ordinal()] = p.temp(program.tempBytes);
        p.sends.reset();
        p.nextOp = 0;
        if (program.nodeBuffer) {
            nodeSteps.bindBuffer(p, seq);
        } else {
            p.nodeGateSeq = 0;
            p.nodeGateOpen = true;
            p.nodeBuffer = null;
        }
        p.announced = false;
        p.future = null;
        // A reduction's type and operator ride above the collective's code, so that ranks disagreeing on them fail.
        p.operands = reduction == null ? 0 : reduction.wireCode();
        FrameHeader meta = p.meta;
        meta.seq = seq;
        meta.collective = shape.collective().wireCode() | p.operands << 8;
        meta.root = shape.root();
        meta.algorithm = program.algorithmCode;
        // A v-variant's per-rank counts travel as their digest (decision 0085).
        meta.blockBytes = shape.wireBlockBytes();
        p.digest = NodeSteps.callDigest(meta);
        if (nodeSteps.attached()) {
            // Every call, node steps or not, before any raise of it: a node-mate's wait that a later call's raise
            // satisfied compares against this note (NodeSteps#raisedByOtherCall, #notedOtherCall).
            nodeSteps.noteCall(seq, p.digest);
        }
        p.clockStarted = false; // the deadline's clock starts at the call's first idle look (checkLiveness)
        history.record(seq, shape.collective(), p.operands, shape.root(), shape.wireBlockBytes(), program.algorithmCode,
                program.algorithmId);
        p.setActive(seq); // publishes the call to the transports' threads
    }

    /** Calls started and not yet finished. */
    public int inFlight() {
        return inFlight;
    }

    /**
     * Drives every call in flight until call {@code seq} has finished (true) or {@code untilNs} (a
     * {@link System#nanoTime} value; {@link Long#MAX_VALUE} for none) has passed (false). The call's own deadline
     * ({@code RAILCOLL_TIMEOUT_MS} from its first wait) fails it, and the communicator, with a
     * {@link CollectiveTimeoutException}.
     *
     * @throws RailcollException the failure of this call or of the communicator, which fails every call in flight
     */
    public boolean await(long seq, long untilNs) {
        awaitedSeqs[0] = seq;
        return drive(awaitedSeqs, 1, false, untilNs) >= 0;
    }

    /**
     * Drives every call in flight until one of {@code seqs[0..count)} has finished, and returns its index; -1 when
     * {@code untilNs} passed first.
     */
    public int awaitAny(long[] seqs, int count, long untilNs) {
        return drive(seqs, count, true, untilNs);
    }

    /**
     * One round of progress without waiting: runs what every call in flight can run now and polls the transports;
     * returns whether call {@code seq} has finished.
     *
     * @throws RailcollException the failure of this call or of the communicator
     */
    public boolean test(long seq) {
        try {
            if (done(seq)) {
                // Finished, yet still one round of progress for the calls in flight, as Request#test promises: a
                // program may drive them (or a future) by testing a request that finished (decision 0214, bug 4).
                // A failure found meanwhile is theirs: noted here, thrown by their own waits and tests.
                try {
                    if (inFlight > 0 && failure == null) {
                        progressRound(advanceAll());
                    }
                } catch (RailcollException e) {
                    fail(e);
                }
                return true;
            }
            int work = advanceAll();
            if (done(seq)) {
                return true;
            }
            checkFailure();
            progressRound(work);
            return finished(seq);
        } catch (RailcollException e) {
            throw failed(e);
        } finally {
            completeFutures();
        }
    }

    /** The rest of a test's round after a first {@link #advanceAll} that did {@code work}: transports, then again. */
    private void progressRound(int work) {
        work += answerSynchronousSenders();
        ProgressHook h = hook;
        if (h != null) {
            work += h.doWork();
        }
        for (int i = 0; i < transports.length; i++) {
            if (carriesTraffic[i] || transports[i].hasPendingOutput()) {
                work += transports[i].poll();
            }
        }
        work += advanceAll();
        if (work == 0) {
            checkLiveness();
        }
    }

    /**
     * Completes every call in flight (a collective that runs outside the engine, in a node's shared memory or by
     * multicast, starts only when none is, so that its waits need not advance them).
     */
    public void awaitAllInFlight() {
        while (inFlight > 0) {
            await(oldestSeq, Long.MAX_VALUE);
        }
    }

    /**
     * A future completed when call {@code seq} finishes, exceptionally with the failure that ends it; one per call.
     * It completes only when some thread drives the engine (a wait or test of any call, or a later call):
     * nothing progresses behind the program's back.
     */
    public CompletableFuture<Void> future(long seq) {
        Posting p = table[(int) (seq & (WINDOW - 1))];
        if (p.heldSeq == seq && p.holds(seq)) {
            if (p.future == null) {
                p.future = new CompletableFuture<>();
            }
            return p.future;
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        try {
            if (finished(seq)) {
                f.complete(null);
            }
        } catch (RailcollException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    /**
     * Whether call {@code seq} has finished: true once done, and for a call whose slot a later call holds (a slot is
     * reused only after its call was done); throws the failure when it failed. No progress.
     */
    private boolean finished(long seq) {
        if (done(seq)) {
            return true;
        }
        RailcollException f = failure;
        if (f != null) {
            failureThrown = true;
            throw f;
        }
        return false;
    }

    /**
     * The progress loop of every wait: runs what each call in flight can run, serves the transports, and waits
     * (spin, yield, sleep) until one of {@code seqs} (all of them when not {@code any}) has finished.
     *
     * @return for {@code any}, the index of a finished call; otherwise 0 once all finished; -1 at {@code untilNs}
     */
    private int drive(long[] seqs, int count, boolean any, long untilNs) {
        try {
            int idle = 0;
            while (true) {
                // A call that finished before a failure stays finished: look before the failure is thrown.
                int found = any ? firstFinished(seqs, count) : (allFinished(seqs, count) ? 0 : -1);
                if (found >= 0) {
                    return found;
                }
                // What can run runs before a failure is looked at: a call whose data all landed before a peer left
                // finishes (as one call at a time always did).
                int work = advanceAll();
                found = any ? firstFinished(seqs, count) : (allFinished(seqs, count) ? 0 : -1);
                if (found >= 0) {
                    return found;
                }
                checkFailure();
                if (work > 0) {
                    idle = 0;
                    continue;
                }
                Posting awaited = oldestUnfinished(seqs, count);
                // A liveness look reads the clock and, at a node step, node-mates' words: every 16th round while
                // spinning (a spin round must stay short to see a raise at once), every round once yielding.
                if (idle > 0 && (idle >= spinRounds || (idle & 15) == 0)) {
                    checkLiveness();
                }
                nodeSteps.noteNodeWait(awaited, oldestSeq);
                // A call inside a multicast waits for the stream's socket, which wakes that sleep.
                idle = progress(idle, awaitedTransport(awaited), awaited != null && awaited == multicastOwner);
                if (idle > 0 && untilNs != Long.MAX_VALUE && System.nanoTime() - untilNs > 0) {
                    return -1;
                }
            }
        } catch (RailcollException e) {
            throw failed(e);
        } finally {
            completeFutures();
        }
    }

    /** Whether call {@code seq} finished (it did when a later call holds its slot: slots are reused only then). */
    private boolean done(long seq) {
        if (seq <= 0 || seq > postedSeq) {
            throw new IllegalArgumentException("no collective #" + seq + " was started on rank " + rank);
        }
        Posting p = table[(int) (seq & (WINDOW - 1))];
        return p.heldSeq != seq || p.done;
    }

    private int firstFinished(long[] seqs, int count) {
        for (int i = 0; i < count; i++) {
            if (done(seqs[i])) {
                return i;
            }
        }
        return -1;
    }

    private boolean allFinished(long[] seqs, int count) {
        for (int i = 0; i < count; i++) {
            if (!done(seqs[i])) {
                return false;
            }
        }
        return true;
    }

    private Posting oldestUnfinished(long[] seqs, int count) {
        Posting oldest = null;
        for (int i = 0; i < count; i++) {
            Posting p = table[(int) (seqs[i] & (WINDOW - 1))];
            if (p.activeSeq == seqs[i] && (oldest == null || p.heldSeq < oldest.heldSeq)) {
                oldest = p;
            }
        }
        return oldest;
    }

    /** The transport that carries what {@code p} waits for next, to sleep in; null when several may. */
    private Transport awaitedTransport(Posting p) {
        if (p == null || p.opsDone()) {
            return null;
        }
        CompiledProgram prog = p.program;
        return prog.kind[p.nextOp] == CompiledProgram.RECV ? route[prog.peer[p.nextOp]] : null;
    }

    /** Marks every call in flight failed (no frame is steered into its buffers from now on) and returns {@code e}. */
    private RailcollException failed(RailcollException e) {
        fail(e);
        failureThrown = true;
        for (Posting p : table) {
            if (p.busy()) {
                p.activeSeq = Posting.NONE;
                p.reservedSeq = Posting.NONE;
                retire(p);
            }
        }
        return e;
    }

    /**
     * Drops a call that finished or failed from the calls in flight, and its references to the caller's buffers:
     * railcoll touches them no more. Its future, if any, is completed after the progress loop.
     */
    private void retire(Posting p) {
        inFlight--;
        if (multicastOwner == p) {
            multicastOwner = null;
        }
        CompletableFuture<Void> f = p.future;
        p.release();
        if (f != null) {
            p.future = f;
            dueFutures = true;
        }
        while (oldestSeq <= postedSeq && !table[(int) (oldestSeq & (WINDOW - 1))].holds(oldestSeq)) {
            oldestSeq++;
        }
    }

    /** Completes the futures of calls that finished or failed; after the progress loop, never inside it. */
    private void completeFutures() {
        if (!dueFutures) {
            return;
        }
        dueFutures = false;
        for (Posting p : table) {
            CompletableFuture<Void> f = p.future;
            if (f != null && !p.busy()) {
                p.future = null;
                if (p.done) {
                    f.complete(null);
                } else {
                    f.completeExceptionally(failure);
                }
            }
        }
    }

    /** Runs what every call in flight can run now, oldest first; returns how many ops ran and calls finished. */
    private int advanceAll() {
        int work = 0;
        for (long seq = oldestSeq, last = postedSeq; seq <= last && inFlight > 0; seq++) {
            Posting p = table[(int) (seq & (WINDOW - 1))];
            if (p.activeSeq == seq) {
                work += advance(p);
            }
        }
        return work;
    }

    /**
     * Runs {@code p}'s program from its next op as far as it can without waiting: puts (unless an earlier call in
     * flight still has a put to the same peer), copies and combines, and receives whose data has landed. Finishes the
     * call when every op ran and every send was delivered.
     */
    private int advance(Posting p) {
        CompiledProgram prog = p.program;
        MemorySegment[] bound = p.buffers;
        int n = prog.ops();
        int i = p.nextOp;
        int start = i;
        if (i == 0) {
            if (CallCounters.ON) {
                OpTrace.op(p.heldSeq, OpTrace.START);
            }
        }
        ops:
        while (i < n) {
            switch (prog.kind[i]) {
                case CompiledProgram.PUT -> {
                    int peer = prog.peer[i];
                    if (earlierPutsTo(p, peer)) {
                        break ops;
                    }
                    p.meta.tag = prog.tag[i];
                    route[peer].put(peer, p.meta, bound[prog.srcBuf[i]], prog.srcOff[i], prog.length[i], p.sends);
                }
                case CompiledProgram.RECV -> {
                    if (!p.slotComplete(prog.slot[i])) {
                        break ops;
                    }
                }
                case CompiledProgram.COPY -> copyUnlessInPlace(bound[prog.srcBuf[i]], prog.srcOff[i],
                        bound[prog.dstBuf[i]], prog.dstOff[i], prog.length[i]);
                case CompiledProgram.REDUCE -> combine(p, i);
                case CompiledProgram.NODE_WRITE -> {
                    if (!nodeSteps.write(p, i, oldestSeq)) {
                        break ops;
                    }
                }
                case CompiledProgram.NODE_READ -> {
                    if (!nodeSteps.read(p, i, oldestSeq)) {
                        break ops;
                    }
                }
                case CompiledProgram.PUBLISH -> {
                    if (!nodeSteps.publish(p, i, oldestSeq)) {
                        break ops;
                    }
                }
                case CompiledProgram.AWAIT -> {
                    int other = nodeSteps.await(p, i, oldestSeq);
                    if (other == NodeSteps.WAITS) {
                        break ops;
                    }
                    if (other != NodeSteps.RAN) {
                        throw callMismatch(p, other);
                    }
                }
                case CompiledProgram.MULTICAST -> {
                    if (!multicastDelivered(p, i)) {
                        break ops;
                    }
                }
                case CompiledProgram.PEER_READ, CompiledProgram.PEER_WRITE -> {
                    try {
                        if (!nodeSteps.peerCopy(p, i, oldestSeq)) {
                            break ops;
                        }
                    } catch (RailcollException e) {
                        throw peerCopyFailed(p, i, e);
                    }
                }
                default -> throw new IllegalStateException("unknown op kind " + prog.kind[i]);
            }
            if (CallCounters.ON) {
                countOp(p, prog.kind[i]);
            }
            p.nextOp = ++i;
        }
        if (i < n) {
            return i - start;
        }
        if (prog.nodeBuffer && start < n) {
            nodeSteps.doneWithBuffer(p);
        }
        if (p.sends.pending() > 0) {
            return i - start;
        }
        if (CallCounters.ON) {
            OpTrace.op(p.heldSeq, OpTrace.FINISH);
        }
        finish(p);
        return i - start + 1;
    }

    /**
     * Runs {@code p}'s MULTICAST at op {@code i}: posts it once the stream is free and no earlier call in flight has a
     * multicast left (every rank then posts the deliveries in the same order), and returns whether it was delivered.
     */
    private boolean multicastDelivered(Posting p, int i) {
        if (!p.multicastPosted) {
            if (multicast == null) {
                throw new IllegalStateException(who + ": " + p.program.algorithmId + " multicasts but no multicast group"
                        + " is open on this communicator");
            }
            if (multicastOwner != null || earlierMulticasts(p)) {
                return false;
            }
            CompiledProgram prog = p.program;
            multicast.post(p.buffers[prog.dstBuf[i]], prog.dstOff[i], prog.length[i], prog.peer[i]);
            p.multicastPosted = true;
            multicastOwner = p;
        }
        if (!multicast.delivered()) {
            return false;
        }
        p.multicastPosted = false;
        multicastOwner = null;
        return true;
    }

    private boolean earlierMulticasts(Posting p) {
        for (long seq = oldestSeq; seq < p.heldSeq; seq++) {
            Posting q = table[(int) (seq & (WINDOW - 1))];
            if (q.activeSeq == seq && q.multicastsLeft()) {
                return true;
            }
        }
        return false;
    }

    /** Counts a node-step op and records the op's time on a traced call (counters on only). */
    private static void countOp(Posting p, int kind) {
        if (kind == CompiledProgram.NODE_WRITE || kind == CompiledProgram.NODE_READ || kind == CompiledProgram.PUBLISH
                || kind == CompiledProgram.AWAIT || kind == CompiledProgram.PEER_READ
                || kind == CompiledProgram.PEER_WRITE) {
            CallCounters.add(Event.NODE_STEP_OP);
        }
        OpTrace.op(p.heldSeq, kind);
    }

    private MismatchException callMismatch(Posting p, int local) {
        int peer = calls.nodeMate(local);
        return mismatch(p, "rank " + peer + " (node-mate) runs another collective, algorithm, size or root as call #"
                + p.heldSeq + " than this rank's " + calls.describe(p) + ", seen in node steps");
    }

    /**
     * The failure of {@code p}'s single-copy node step at op {@code i}, which the transport failed with {@code e}. A
     * node-mate that died is named as lost, with what this rank was copying, rather than as the failed system call
     * (process_vm_readv's ESRCH), and the reason a node-mate sent before it left wins over the loss, as at a node
     * step's wait.
     */
    private RailcollException peerCopyFailed(Posting p, int i, RailcollException e) {
        CompiledProgram prog = p.program;
        boolean read = prog.kind[i] == CompiledProgram.PEER_READ;
        int local = prog.peer[i];
        if (nodeSteps.alive(local)) {
            return e;
        }
        return nodeMateLost(p, local, (read ? "read " : "wrote ") + prog.length[i] + " bytes "
                + (read ? "from" : "into") + " its buffer by cross-memory attach: " + e.getMessage(), e);
    }

    /**
     * The failure of {@code p} when node-mate {@code local} is gone while this rank {@code doing}: the reason that
     * node-mate (or a rail thread) sent before it left, if one arrived, else a {@link PeerLostException} naming it.
     */
    private RailcollException nodeMateLost(Posting p, int local, String doing, Throwable cause) {
        pollEveryTransport();
        checkFailure();
        int peer = calls.nodeMate(local);
        return new PeerLostException(peer, who + ": lost rank " + peer + " (node " + placement.nodeOf(peer)
                + ") over shared memory during " + calls.describe(p) + " while this rank " + doing, cause);
    }

    /** A node step waits: the node-mate it waits for (every one, at the node-buffer gate) must be alive. */
    private void checkNodeMates(Posting p) {
        if (!nodeSteps.livenessLookDue()) {
            return;
        }
        CompiledProgram prog = p.program;
        boolean gate = NodeSteps.atGate(p);
        int lost = nodeSteps.lostMate(p);
        if (lost >= 0) {
            // A node-mate that failed sent its reason before it left: that reason, not the loss, is the news.
            throw nodeMateLost(p, lost, gate ? "waited to write the node buffer" : "awaited its node flag "
                    + prog.tag[p.nextOp], null);
        }
        // A node-mate that runs another call may never raise the flag awaited here (its program raises others):
        // what it noted for this call tells, well before the deadline.
        if (!gate && nodeSteps.notedOtherCall(p, prog.peer[p.nextOp])) {
            throw callMismatch(p, prog.peer[p.nextOp]);
        }
    }

    /**
     * Whether a call in flight before {@code p} has yet to put to {@code peer}. Frames of one connection arrive in
     * order, and a receiver pauses a connection at a frame of a call it has not posted: a later call's frame ahead
     * of an earlier call's would hold that one back, and a receiver that posts the later call only after the earlier
     * one finished would wait forever (decision 0060).
     */
    private boolean earlierPutsTo(Posting p, int peer) {
        for (long seq = oldestSeq; seq < p.heldSeq; seq++) {
            Posting q = table[(int) (seq & (WINDOW - 1))];
            // A reserved call puts to peers not known yet: nothing later overtakes it (decision 0108).
            if (q.activeSeq == seq && q.putsLeftTo(peer) || q.reservedSeq == seq) {
                return true;
            }
        }
        return false;
    }

    private void finish(Posting p) {
        if (p.resultTo != null) {
            MemorySegment recv = p.buffers[Buffer.RECV.ordinal()];
            MemorySegment.copy(recv, 0, p.resultTo, 0, recv.byteSize());
        }
        if (p.onResult != null) {
            p.onResult.accept(p.buffers[Buffer.RECV.ordinal()]);
        }
        p.done = true;
        p.setActive(Posting.NONE);
        retire(p);
    }

    /**
     * Runs Reduce op {@code i}. An exception from the operator (a user function) fails the call and aborts the
     * peers at once, so that they do not wait for this rank's next puts until their deadline.
     */
    private void combine(Posting posting, int i) {
        CompiledProgram p = posting.program;
        MemorySegment[] bound = posting.buffers;
        try {
            posting.reduction.combineBytes(bound[p.srcBuf[i]], p.srcOff[i], bound[p.dstBuf[i]], p.dstOff[i], p.length[i]);
        } catch (RuntimeException e) {
            OperatorFailedException failed = new OperatorFailedException(calls.describe(posting) + ": the operator "
                    + posting.reduction + " threw " + e, e);
            fail(failed); // the progress loop's catch fails the calls in flight
            sendAbort(failed);
            throw failed;
        }
    }

    /**
     * The checks of a wait that found nothing to do, for every call in flight: a peer it awaits that closed its
     * communicator, a probe to a peer awaited longer than {@link #PROBE_AFTER_NS}, the call's deadline.
     */
    private void checkLiveness() {
        if (inFlight == 0) {
            return;
        }
        long now = System.nanoTime();
        for (long seq = oldestSeq, last = postedSeq; seq <= last; seq++) {
            Posting p = table[(int) (seq & (WINDOW - 1))];
            if (p.activeSeq != seq) {
                continue;
            }
            if (!p.clockStarted) {
                p.startNs = now;
                p.clockStarted = true;
            }
            CompiledProgram prog = p.program;
            boolean receiving = !p.opsDone() && prog.kind[p.nextOp] == CompiledProgram.RECV;
            if (receiving) {
                int s = prog.slot[p.nextOp];
                int peer = prog.slotPeer[s];
                if (goodbyes(peer, route[peer]) >= route[peer].connectionsTo(peer)) {
                    throw new PeerLostException(peer, calls.describe(p) + ": rank " + peer
                            + " closed its communicator while this rank awaited " + prog.slotLen[s] + " bytes (tag "
                            + prog.slotTag[s] + ") from it");
                }
                if (probedSeq[peer] < seq && now - p.startNs > PROBE_AFTER_NS && !earlierPutsTo(p, peer)) {
                    probe(p, peer);
                }
            }
            if (!p.opsDone() && (prog.kind[p.nextOp] == CompiledProgram.AWAIT
                    || prog.gated(p.nextOp) && !p.nodeGateOpen)) {
                checkNodeMates(p);
            }
            if (now - (p.startNs + timeoutNs) > 0) {
                throw calls.timedOut(p, now, silentPeers());
            }
        }
    }

    /** Sends {@code peer} this rank's call, for it to check against its own (see {@link #PROBE_AFTER_NS}). */
    private void probe(Posting posting, int peer) {
        probedSeq[peer] = posting.heldSeq;
        probeMeta.seq = posting.heldSeq;
        probeMeta.collective = posting.collective.wireCode() | posting.operands << 8;
        probeMeta.root = posting.shape.root();
        probeMeta.algorithm = posting.program.algorithmCode;
        probeMeta.blockBytes = posting.shape.wireBlockBytes();
        probeMeta.tag = PROBE_TAG;
        route[peer].put(peer, probeMeta, NO_BYTES, 0, 0, probes);
    }

    private static final MemorySegment NO_BYTES = MemorySegment.ofArray(new byte[0]);

    /**
     * A probe from {@code h.sourceRank}: its call {@code h.seq}. Checked against the posted call of that number, or
     * the record of a finished one; held (null) until this rank posts that call when it has not yet; a call too old
     * to be on record is not checked (the peer's data for it arrived and was checked then).
     */
    private MemorySegment onProbe(FrameHeader h) {
        if (failure != null) {
            return null; // nothing is checked or delivered after a failure
        }
        h.landingOffset = 0;
        Posting posting = table[(int) (h.seq & (WINDOW - 1))];
        if (posting.activeSeq == h.seq) {
            checkCall(posting, h);
            return EMPTY;
        }
        if (h.seq > postedSeq || posting.reservedSeq == h.seq) {
            return null;
        }
        CallHistory.Call r = history.find(h.seq);
        String disagreement = r == null ? null : CallDisagreement.withRecord(r, h, rank);
        if (disagreement != null) {
            throw mismatch(oldestPosting(), disagreement);
        }
        return EMPTY;
    }

    /** Checks a frame's call against {@code posting}, the call of the same number on this rank. */
    private void checkCall(Posting posting, FrameHeader h) {
        String disagreement = CallDisagreement.withPosted(posting, h, rank);
        if (disagreement != null) {
            throw mismatch(posting, disagreement);
        }
    }

    /**
     * For a time-out's message: the peers a transport has heard nothing from for longer than a live peer stays quiet
     * (alive but stopped or descheduled, or cut off), which are usually why the call could not finish, even when the
     * rank it waited for directly is another one waiting for them.
     */
    String silentPeers() {
        StringBuilder sb = new StringBuilder();
        for (Transport t : transports) {
            String s = t.silentPeers();
            if (!s.isEmpty()) {
                sb.append(sb.isEmpty() ? "" : ", ").append(s);
            }
        }
        return sb.isEmpty() ? "" : "; not heard from: " + sb + " (alive but stopped or descheduled, or cut off)";
    }

    private void checkFailure() {
        RailcollException f = failure;
        if (f != null) {
            failureThrown = true;
            throw f;
        }
    }

    /**
     * One round of progress; returns the new idle count (0 when work was done). Spins, then yields, then sleeps:
     * in the transport that carries what is awaited when every transport is driven by this thread (it wakes on
     * that transport's I/O), otherwise on the blocker that progress threads and shared-memory peers wake.
     */
    private int progress(int idle, Transport awaited, boolean awaitingHook) {
        int work = answerSynchronousSenders();
        ProgressHook h = hook;
        if (h != null) {
            work += h.doWork();
        }
        // The transport that carries what is awaited is polled every round; the others (a selector poll is a system
        // call) every eighth round, or every round while this rank's own puts are still leaving. A lone call that
        // waits for a node-mate's raise awaits no transport: its spin reads that flag, not every ring (decision 0200).
        boolean nodeStepOnly = nodeSteps.waiting() && inFlight == 1;
        boolean all = awaited == null && !nodeStepOnly || (idle & 7) == 0 || sendsPending();
        for (int i = 0; i < transports.length; i++) {
            Transport t = transports[i];
            // A transport no peer is routed through only carries goodbyes and aborts: look at it now and then, not in
            // the first round of every wait (a system call per call on a one-node job, decision 0128).
            if (t == awaited || all && carriesTraffic[i] || (idle & 255) == 255) {
                work += t.poll();
            }
        }
        if (work > 0) {
            return 0;
        }
        // The yield budget counts from the end of the spin: a wait that ends while spinning, most waits of small
        // calls, reads no clock (a clock read costs about as much as a node-mate's raise takes to arrive, issue 21).
        if (idle == spinRounds) {
            idleSinceNs = System.nanoTime();
        }
        if (idle < spinRounds) {
            if (nodeStepOnly) {
                nodeSteps.spinOnAwaitedWord();
            } else {
                Thread.onSpinWait();
            }
        } else if (System.nanoTime() - idleSinceNs < yieldBudgetNs) {
            if (CallCounters.ON) {
                CallCounters.add(Event.ENGINE_YIELD);
            }
            Thread.yield();
        } else {
            if (CallCounters.ON) {
                CallCounters.add(Event.ENGINE_SLEEP);
                long t0 = System.nanoTime();
                boolean astray = !sleep(awaited, awaitingHook);
                long us = (System.nanoTime() - t0) / 1000;
                CallCounters.add(Event.ENGINE_SLEEP_US, 0, us);
                if (astray) {
                    // rail 0: a receive awaited in another transport; rail 1: only deliveries (or a node step) awaited
                    int kind = awaited != null ? 0 : 1;
                    CallCounters.add(Event.ENGINE_SLEEP_ASTRAY, kind, 1);
                    CallCounters.add(Event.ENGINE_SLEEP_ASTRAY_US, kind, us);
                }
            } else {
                sleep(awaited, awaitingHook);
            }
        }
        return idle + 1;
    }

    /**
     * Sleeps until something may have happened, at most a slice; returns whether what is awaited can end the sleep
     * (false: it slept where only its slice or unrelated news end it, see {@link Event#ENGINE_SLEEP_ASTRAY}).
     */
    private boolean sleep(Transport awaited, boolean awaitingHook) {
        if (nodeSteps.waiting()) {
            // A node-mate's raise rings this rank's doorbell, as do shared-memory senders and rail threads; a
            // transport this thread drives gets a short slice.
            nodeSteps.sleepOnAwaitedWord(hook != null || transports.length > 1 ? SHARED_SLICE_NS : BLOCK_SLICE_NS,
                    inFlight == 1);
            return true;
        }
        if (awaitingHook && hook != null && !othersNeedDriving(null)) {
            // What is awaited comes through the hook's own socket, which wakes this sleep; 1 ms bounds its timers.
            hook.awaitInput(SHARED_SLICE_NS);
            return true;
        }
        boolean hooked = hook != null;
        if (anyOwnThreads) {
            blocker.block(hooked || othersNeedDriving(null) ? SHARED_SLICE_NS : BLOCK_SLICE_NS, awaitedReady);
            return true;
        }
        Transport target = awaited;
        if (target == null || othersNeedDriving(target)) {
            // Several transports may need this thread: the one that carries the awaited receive, those with output
            // still to leave and, when the wait is only for deliveries, those whose acknowledgements are due. One
            // sleep can listen to one of them; with one candidate its news is what ends the wait, with several the
            // slice is short, since news on the others cannot wake it (an ACK on the rails does not ring the
            // shared-memory doorbell: a whole 1 ms slice was slept at the end of about one call in two, decision 0175).
            if (!TARGETED_SLEEP) {
                // Before decision 0175: the first transport with pending output, else the first, for a whole slice.
                target = transports[0];
                for (Transport t : transports) {
                    if (t.hasPendingOutput()) {
                        target = t;
                        break;
                    }
                }
                target.await(hooked || transports.length > 1 ? SHARED_SLICE_NS : BLOCK_SLICE_NS);
                return target == awaited || transports.length == 1;
            }
            // Output still to leave is listened to first (a rail socket that drains wakes it, and a rail left idle
            // is time the call cannot get back), then the awaited receive, then deliveries.
            Transport chosen = null;
            boolean chosenOutput = false;
            int candidates = 0;
            for (Transport t : transports) {
                if (!t.drivenByCaller()) {
                    continue;
                }
                boolean output = t.hasPendingOutput();
                if (output || t == awaited || awaited == null && t.awaitsDelivery()) {
                    candidates++;
                    if (chosen == null || output && !chosenOutput) {
                        chosen = t;
                        chosenOutput = output;
                    }
                }
            }
            if (chosen == null) {
                // Nothing to listen to that this thread drives (a node step or a multicast turn is awaited): the
                // first transport, a short-enough slice for the others' timers.
                transports[0].await(hooked || transports.length > 1 ? SHARED_SLICE_NS : BLOCK_SLICE_NS);
                return transports.length == 1;
            }
            boolean sure = candidates == 1;
            chosen.await(!sure ? ASTRAY_SLICE_NS : hooked || transports.length > 1 ? SHARED_SLICE_NS : BLOCK_SLICE_NS);
            return sure;
        } else {
            // Other transports (and the hook) cannot wake this one's sleep: keep slices short when there are several.
            target.await(hooked || transports.length > 1 ? SHARED_SLICE_NS : BLOCK_SLICE_NS);
            return true;
        }
    }

    /** The blocker's re-check: whatever the owner waits for is done, or something failed. */
    private boolean awaitedReady() {
        if (failure != null) {
            return true;
        }
        java.util.function.BooleanSupplier external = awaitedExternal;
        if (external != null) {
            return external.getAsBoolean();
        }
        return anyCanAdvance();
    }

    /**
     * Whether some call in flight can run its next op or finish: its receive's data landed, or its last sends were
     * delivered. A put held back behind an earlier call waits for that call, which is itself waiting for one of these.
     */
    private boolean anyCanAdvance() {
        for (long seq = oldestSeq, last = postedSeq; seq <= last; seq++) {
            Posting p = table[(int) (seq & (WINDOW - 1))];
            if (p.activeSeq != seq) {
                continue;
            }
            if (p.opsDone()) {
                if (p.sends.pending() == 0) {
                    return true;
                }
            } else if (p.program.kind[p.nextOp] == CompiledProgram.RECV && p.slotComplete(p.program.slot[p.nextOp])) {
                return true;
            }
        }
        return false;
    }

    /** Whether a call in flight has frames a transport may still read from its buffers. */
    private boolean sendsPending() {
        for (long seq = oldestSeq, last = postedSeq; seq <= last; seq++) {
            Posting p = table[(int) (seq & (WINDOW - 1))];
            if (p.activeSeq == seq && p.sends.pending() > 0) {
                return true;
            }
        }
        return false;
    }

    /** The oldest call in flight, for failure messages; null when none. Any thread (a best-effort read). */
    private Posting oldestPosting() {
        for (long seq = oldestSeq, last = postedSeq; seq <= last; seq++) {
            Posting p = table[(int) (seq & (WINDOW - 1))];
            if (p.activeSeq == seq) {
                return p;
            }
        }
        return null;
    }

    /** Whether a caller-driven transport other than {@code except} has output that only this thread can push. */
    private boolean othersNeedDriving(Transport except) {
        for (Transport t : transports) {
            if (t != except && t.drivenByCaller() && t.hasPendingOutput()) {
                return true;
            }
        }
        return false;
    }

    // ---- FrameSink: called by transports, on this thread or on their own progress threads ----

    @Override
    public MemorySegment onDataHeader(int rail, FrameHeader h) {
        if (h.tag == PROBE_TAG) {
            return onProbe(h);
        }
        if (failure != null) {
            return null; // after a failure no frame lands in a caller's buffer: the connection stays paused
        }
        Posting posting = table[(int) (h.seq & (WINDOW - 1))];
        if (posting.activeSeq != h.seq) {
            if (h.seq > postedSeq || posting.reservedSeq == h.seq) {
                return null; // a call not posted (or not bound) yet: hold the connection until it is
            }
        }
        if (posting.activeSeq != h.seq) { // read again: a reserved call is active before its reservation is cleared
            throw mismatch(oldestPosting(), CallDisagreement.dataForFinished(h));
        }
        CompiledProgram p = posting.program;
        checkCall(posting, h);
        int s = p.slotOf(h.sourceRank, h.tag);
        if (s < 0) {
            throw mismatch(posting, "rank " + h.sourceRank + " put " + h.putLength + " bytes (tag " + h.tag + ") that "
                    + p.algorithmId + " on rank " + rank + " does not expect");
        }
        if (h.putLength != p.slotLen[s]) {
            throw mismatch(posting, "size mismatch in " + posting.collective.id() + " #" + h.seq + ": rank " + h.sourceRank
                    + " put " + h.putLength + " bytes (tag " + h.tag + "), rank " + rank + " expects " + p.slotLen[s]);
        }
        if (h.fragLength == 0) {
            h.landingOffset = 0;
            return EMPTY;
        }
        // The bound buffer whole, the frame's place in it in the header: nothing is allocated per frame.
        h.landingOffset = p.slotOff[s] + h.fragOffset;
        return posting.buffers[p.slotBuf[s]];
    }

    @Override
    public void onDataComplete(int rail, FrameHeader h) {
        if (h.tag == PROBE_TAG) {
            return; // a probe carries no data: it was checked in onDataHeader
        }
        Posting posting = table[(int) (h.seq & (WINDOW - 1))];
        if (posting.activeSeq != h.seq) {
            return; // the call failed while the frame was read
        }
        CompiledProgram p = posting.program;
        int s = p.slotOf(h.sourceRank, h.tag);
        long now = posting.landed(s, h.fragLength);
        if (now > p.slotLen[s]) {
            throw mismatch(posting, "rank " + h.sourceRank + " sent more than the " + p.slotLen[s] + " bytes of tag " + h.tag);
        }
    }

    @Override
    public void progressed() {
        blocker.wake();
    }

    @Override
    public void onAbort(int peer, String reason) {
        Posting posting = oldestPosting();
        String why = who + ": rank " + peer + " aborted" + (posting != null ? " " + calls.describe(posting) : "") + ": ";
        // A mismatch fails every rank as one, not only the rank whose frames showed it (decision 0051).
        RailcollException e = reason.startsWith(MISMATCH_MARK)
                ? new MismatchException(why + reason.substring(MISMATCH_MARK.length()))
                : new CollectiveAbortedException(peer, why + reason);
        fail(e);
        throw e;
    }

    /** Goodbyes from {@code peer} on the kind of connection {@code t}, its route, carries its traffic over. */
    private int goodbyes(int peer, Transport t) {
        return (t.railBased() ? railGoodbyes : shmGoodbyes).get(peer);
    }

    /**
     * A peer has departed once every connection that carries its traffic to this rank said goodbye: the shared
     * memory link for a node-mate, every rail otherwise (a stripe may still travel on one rail after another
     * rail's goodbye).
     */
    @Override
    public void onGoodbye(int peer, int rail) {
        // Counted even before attach: a peer may close while this rank is still starting, and its loss must then
        // show as soon as it is awaited, not at the call's deadline.
        (rail >= 0 ? railGoodbyes : shmGoodbyes).incrementAndGet(peer);
        if (blocker != null) {
            blocker.wake();
        }
    }

    @Override
    public void onPeerLost(int peer, int rail, String cause) {
        Posting posting = oldestPosting();
        RailcollException e = new PeerLostException(peer, who + ": lost rank " + peer + " (node "
                + placement.nodeOf(peer) + ") " + (rail < 0 ? "over shared memory" : "on rail " + rail)
                + (posting != null ? " during " + calls.describe(posting) : "") + ": " + cause
                + (rail >= 0 && route != null && route[peer] != null ? route[peer].inFlightWith(peer) : "")
                + calls.awaiting(posting));
        fail(e);
        throw e;
    }

    private MismatchException mismatch(Posting posting, String message) {
        // "mismatch" in every message, and the ABORT's reason marked, so that every other rank fails with a mismatch too.
        MismatchException e = new MismatchException(who + ": mismatch: " + message);
        fail(e);
        for (Transport t : transports) {
            try {
                t.abortAll(MISMATCH_MARK + e.getMessage());
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
        return e;
    }

    private void fail(RailcollException e) {
        if (failure == null) {
            failure = e;
        }
        if (blocker != null) {
            blocker.wake();
        }
    }

    /** Where a frame without payload lands (a probe's, a zero-byte put's). */
    static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);
    /** Starts the ABORT reason of a mismatch, so that the peers throw {@link MismatchException} as well. */
    private static final String MISMATCH_MARK = "mismatch: ";

    @Override
    public void close() {
        tempArena.close();
    }
}
