package io.railcoll.engine;

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
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.Blocker;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;
import io.railcoll.transport.Transport;

import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Runs one rank's side of collectives: binds a compiled program's buffers, issues its puts, waits for its
 * receives, and checks every incoming frame against the collective being run.
 *
 * <p>Every collective gets the next sequence number; ranks call collectives in the same order, so frames carry
 * the sequence number and the receiver knows which call they belong to. A frame of a later call pauses its
 * connection until that call is posted (nothing is buffered or dropped); a frame of an earlier call, another
 * collective, root, algorithm or block size is a mismatch that fails this rank and, through an ABORT frame,
 * every other rank. A wait of more than {@link #PROBE_AFTER_NS} sends the awaited peer a probe (this rank's call
 * without data), so that ranks that disagree but exchange no data still find out (decision 0041). A call fails at
 * its deadline, counted from when it was posted (decision 0040).
 *
 * <p>Waiting adapts, since ranks often outnumber cores: spin briefly, then yield, then block in the transport
 * (a selector) until I/O arrives. Every wait has a deadline.
 *
 * <p>Threading: one thread (the communicator's caller, the owner) runs collectives. Frame callbacks arrive on the
 * owner thread for transports it drives, and on progress threads for transports that have their own; the state they
 * read is published through the volatile {@code posting}, and receive counters are updated atomically.
 * Lifetime: owned and closed by the communicator.
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
     * A wait for a peer's data longer than this sends that peer a probe: a frame without payload carrying this rank's
     * call (sequence number, collective, root, block size, algorithm), checked by the peer against its own call of
     * that number like any data frame (decision 0041). Ranks that disagree on a call but exchange no data in it (a
     * leaf of a broadcast tree waiting for a root that runs an all-gather) find out within this much, not at their
     * deadline. Long enough that calls that merely wait (a slow peer, a large put) send at most one small frame.
     */
    static final long PROBE_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** The tag of a probe frame: no program uses a negative tag. */
    static final int PROBE_TAG = -1;
    /** How many finished calls are kept to check a late probe against (a power of two). */
    private static final int HISTORY = 64;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    /** What a finished call was, to check a probe that arrives after it (immutable; any thread reads it). */
    private record CallRecord(long seq, Collective collective, int operands, int root, long blockBytes, int algorithm,
                              String algorithmId) {
        /** The frame header's collective field for this call: the code, with the type and operator above it. */
        int wireCollective() {
            return collective.wireCode() | operands << 8;
        }
    }

    /** Everything a frame is checked against while a collective is posted; immutable, published through a volatile. */
    private record Posting(long seq, Collective collective, Shape shape, CompiledProgram program,
                           MemorySegment[] buffers, long[] slotBytes, int[] slotFrames, int operands,
                           long startNs) {
        /** The call's deadline: one per call, from when it was posted, whatever it waits for meanwhile (decision 0040). */
        long deadlineNs(long timeoutNs) {
            return startNs + timeoutNs;
        }
    }

    private final int rank;
    /** How failure messages name this rank and its communicator. */
    private final String who;
    private final Placement placement;
    private final int spinRounds;
    private final long yieldBudgetNs;
    private long idleSinceNs;
    private final long timeoutNs;
    private final ProgramCache cache;
    private final SendCompletion sends = new SendCompletion();
    private final FrameHeader meta = new FrameHeader();
    /** Probes' header and completion: never awaited, a probe only ever leads to a mismatch found by its receiver. */
    private final FrameHeader probeMeta = new FrameHeader();
    private final SendCompletion probes = new SendCompletion();
    /** Per peer, the sequence number of the last call in which it was probed. */
    private final long[] probedSeq;
    /** The last {@link #HISTORY} calls, by sequence number modulo HISTORY. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<CallRecord> history =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(HISTORY);
    /** Per peer, goodbyes received on the connections that carry its traffic; updated by any transport thread. */
    private final AtomicIntegerArray goodbyes;
    private final Arena tempArena = Arena.ofShared();
    private Transport[] route;
    private Transport[] transports;
    private Blocker blocker;
    private boolean anyOwnThreads;
    private boolean[] carriesTraffic;
    private MemorySegment temp = MemorySegment.NULL;
    private long[] slotBytes = new long[16];
    private int[] slotFrames = new int[16];

    /** What the owner currently waits for (read by the blocker's re-check): a slot of a posting, or sends when -1. */
    private Posting awaitedPosting;
    private int awaitedSlot;
    private final java.util.function.BooleanSupplier awaitedReady = this::awaitedReady;
    /** Work driven from every progress round (the multicast broadcast), or null; owner thread only. */
    private ProgressHook hook;
    /** What {@link #awaitHook} waits for, or null; read by the blocker's re-check. */
    private volatile java.util.function.BooleanSupplier awaitedExternal;

    private volatile Posting posting;
    /** The running call's element type and operator, for its Reduce steps; null between calls (owner thread only). */
    private Reduction reduction;
    private volatile long completedSeq;
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
        this.placement = placement;
        this.timeoutNs = timeoutNs;
        this.cache = new ProgramCache(rank);
        this.goodbyes = new AtomicIntegerArray(placement.size());
        this.probedSeq = new long[placement.size()];
        this.spinRounds = NodeCpus.outnumbered(placement.localSizeOf(rank)) ? 0 : SPIN_ROUNDS;
        // Measured on this 2-core machine, idle, 1-byte all-gather (smp-direct) with 4/8/16 ranks on one node:
        // yielding first 21/60/164 us, sleeping at once 80/200/455 us. (Under a foreign load, yielding loses.)
        this.yieldBudgetNs = YIELD_BUDGET_NS;
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
                            + seconds(System.nanoTime() - start));
                }
            }
        } catch (RailcollException e) {
            fail(e);
            failureThrown = true;
            throw e;
        } finally {
            awaitedExternal = null;
        }
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
        fail(e);
        failureThrown = true; // the caller throws it
    }

    /**
     * Fails this rank's communicator with {@code e} and tells every peer at once (an ABORT on every transport), as a
     * mismatch found in a frame does: for a disagreement found outside the engine, which peers waiting in the engine
     * would otherwise only notice at their deadline.
     */
    public void abortPeers(RailcollException e) {
        fail(e);
        failureThrown = true; // the caller throws it
        // A mismatch's reason is marked, so that the peers fail with a mismatch too.
        String reason = (e instanceof MismatchException ? MISMATCH_MARK : "") + e.getMessage();
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
     * which this rank's rails and multicast protocol must still be served, and what it queued must still leave: a
     * PULLED answer queued behind this rank's own frames on a full ring is what completes a node-mate's single-copy
     * put of the previous collective, and that node-mate waits for it before it joins the node step (without this,
     * a 2+1-rank job hung once in a full test run). Owner thread.
     *
     * @return how much work was done (0: nothing)
     */
    public int serviceOnce() {
        int work = 0;
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

    /** Runs {@code algorithm} for {@code shape}; SEND and RECV are the caller's buffers (RECV may be empty). */
    public void run(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv) {
        run(algorithm, shape, send, recv, null, null);
    }

    /**
     * Runs {@code algorithm} as {@link #run(Algorithm, Shape, MemorySegment, MemorySegment)} does, and calls
     * {@code atPoint} with i = 0, 1, ... once op {@code points[i]} of this rank's program has completed (-1: before
     * the first op; past the last op: at its end, before the puts are awaited), while everything posted before
     * stays in flight: data keeps landing whenever the callback's own waits serve the transports through
     * {@link #serviceOnce}. This lets a caller run work of its own at chosen places of the schedule (a node master
     * copying a block out while the next ones arrive) without the engine knowing what it is.
     *
     * @param points  op indices, non-decreasing; null for none
     * @param atPoint called with the point's index; exceptions it throws end the call and propagate
     */
    public void run(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv, int[] points,
                    IntConsumer atPoint) {
        run(algorithm, shape, send, recv, points, atPoint, null);
    }

    /**
     * Runs a schedule that combines data: as {@link #run(Algorithm, Shape, MemorySegment, MemorySegment)}, with
     * {@code reduction} applied by its {@code Reduce} steps.
     *
     * @throws IllegalArgumentException when the program has Reduce steps and {@code reduction} is null, before
     *                                  anything is sent
     */
    public void run(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction) {
        run(algorithm, shape, send, recv, null, null, reduction);
    }

    private void run(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv, int[] points,
                     IntConsumer atPoint, Reduction reduction) {
        checkUsable();
        CompiledProgram program = cache.get(algorithm, shape);
        if (program.combines && reduction == null) {
            throw new IllegalArgumentException(algorithm.id() + " combines data but the call passed no element type "
                    + "and operator");
        }
        if (program.combines && program.reduceGranule % reduction.type().sizeBytes() != 0) {
            throw new IllegalArgumentException(algorithm.id() + " for " + shape + " combines ranges that are not whole "
                    + reduction.type() + " elements (" + reduction.type().sizeBytes() + " bytes each)");
        }
        this.reduction = reduction;
        Posting p = post(program, shape, send, recv);
        try {
            execute(p, points, atPoint);
            awaitSends(p);
        } catch (RailcollException e) {
            fail(e);
            failureThrown = true;
            throw e;
        } finally {
            posting = null;
            this.reduction = null;
            completedSeq = p.seq;
        }
    }

    private Posting post(CompiledProgram program, Shape shape, MemorySegment send, MemorySegment recv) {
        long seq = completedSeq + 1;
        if (slotBytes.length < program.slots) {
            slotBytes = new long[Math.max(program.slots, slotBytes.length * 2)];
            slotFrames = new int[slotBytes.length];
        }
        Arrays.fill(slotBytes, 0, program.slots, 0L);
        Arrays.fill(slotFrames, 0, program.slots, 0);
        MemorySegment[] buffers = new MemorySegment[Buffer.values().length];
        buffers[Buffer.SEND.ordinal()] = send;
        buffers[Buffer.RECV.ordinal()] = recv;
        buffers[Buffer.TEMP.ordinal()] = temp(program.tempBytes);
        sends.reset();
        meta.seq = seq;
        // A reduction's type and operator ride above the collective's code, so that ranks disagreeing on them fail.
        int operands = reduction == null ? 0 : reduction.wireCode();
        meta.collective = shape.collective().wireCode() | operands << 8;
        meta.root = shape.root();
        meta.algorithm = program.algorithmCode;
        meta.blockBytes = shape.blockBytes();
        Posting p = new Posting(seq, shape.collective(), shape, program, buffers, slotBytes, slotFrames, operands,
                System.nanoTime());
        history.set((int) (seq & (HISTORY - 1)), new CallRecord(seq, shape.collective(), operands, shape.root(), shape.blockBytes(),
                program.algorithmCode, program.algorithmId));
        posting = p;
        for (Transport t : transports) {
            t.resume();
        }
        return p;
    }

    private void execute(Posting posting, int[] points, IntConsumer atPoint) {
        CompiledProgram p = posting.program;
        MemorySegment[] bound = posting.buffers;
        int point = 0;
        int lastPoint = points == null ? 0 : points.length;
        while (point < lastPoint && points[point] < 0) {
            atPoint.accept(point++);
        }
        for (int i = 0, n = p.ops(); i < n; i++) {
            switch (p.kind[i]) {
                case CompiledProgram.PUT -> {
                    meta.tag = p.tag[i];
                    int peer = p.peer[i];
                    route[peer].put(peer, meta, bound[p.srcBuf[i]], p.srcOff[i], p.length[i], sends);
                }
                case CompiledProgram.RECV -> awaitSlot(posting, p.slot[i]);
                case CompiledProgram.COPY -> MemorySegment.copy(bound[p.srcBuf[i]], p.srcOff[i],
                        bound[p.dstBuf[i]], p.dstOff[i], p.length[i]);
                case CompiledProgram.REDUCE -> combine(posting, i);
                default -> throw new IllegalStateException("unknown op kind " + p.kind[i]);
            }
            while (point < lastPoint && points[point] == i) {
                atPoint.accept(point++);
            }
        }
        while (point < lastPoint) {
            atPoint.accept(point++);
        }
    }

    /**
     * Runs Reduce op {@code i}. An exception from the operator (a user function) fails the call and aborts the
     * peers at once, so that they do not wait for this rank's next puts until their deadline.
     */
    private void combine(Posting posting, int i) {
        CompiledProgram p = posting.program;
        MemorySegment[] bound = posting.buffers;
        try {
            reduction.combineBytes(bound[p.srcBuf[i]], p.srcOff[i], bound[p.dstBuf[i]], p.dstOff[i], p.length[i]);
        } catch (RuntimeException e) {
            OperatorFailedException failed = new OperatorFailedException(describe(posting) + ": the operator "
                    + reduction + " threw " + e, e);
            abortPeers(failed);
            throw failed;
        }
    }

    private static boolean slotComplete(Posting posting, int s) {
        long len = posting.program.slotLen[s];
        return (long) LONGS.getAcquire(posting.slotBytes, s) == len
                && (len > 0 || (int) INTS.getAcquire(posting.slotFrames, s) > 0);
    }

    private void awaitSlot(Posting posting, int s) {
        if (slotComplete(posting, s)) {
            return;
        }
        CompiledProgram p = posting.program;
        int peer = p.slotPeer[s];
        long start = posting.startNs;
        long deadline = posting.deadlineNs(timeoutNs);
        int idle = 0;
        while (!slotComplete(posting, s)) {
            checkFailure();
            if (goodbyes.get(peer) >= route[peer].connectionsTo(peer)) {
                throw new PeerLostException(peer, describe(posting) + ": rank " + peer
                        + " closed its communicator while this rank awaited " + p.slotLen[s] + " bytes (tag "
                        + p.slotTag[s] + ") from it");
            }
            awaitedPosting = posting;
            awaitedSlot = s;
            if (probedSeq[peer] != posting.seq && System.nanoTime() - start > PROBE_AFTER_NS) {
                probe(posting, peer);
            }
            idle = progress(idle, route[peer], false);
            if (idle > 0 && System.nanoTime() - deadline > 0) {
                throw new CollectiveTimeoutException(describe(posting) + " timed out after " + seconds(System.nanoTime() - start)
                        + " waiting for " + p.slotLen[s] + " bytes (tag " + p.slotTag[s] + ") from rank " + peer
                        + " (node " + placement.nodeOf(peer) + ") on " + route[peer] + "; "
                        + (long) LONGS.getAcquire(posting.slotBytes, s) + " bytes of it had arrived" + silentPeers());
            }
        }
    }

    private void awaitSends(Posting posting) {
        if (sends.pending() == 0) {
            return;
        }
        long start = posting.startNs;
        long deadline = posting.deadlineNs(timeoutNs);
        int idle = 0;
        while (sends.pending() > 0) {
            checkFailure();
            awaitedPosting = posting;
            awaitedSlot = -1;
            idle = progress(idle, null, false);
            if (idle > 0 && System.nanoTime() - deadline > 0) {
                throw new CollectiveTimeoutException(describe(posting) + " timed out after " + seconds(System.nanoTime() - start)
                        + " waiting for " + sends.pending() + " outgoing frames to be delivered (copied out over shared memory,"
                        + " acknowledged by the receiver on the rails): receivers not reading?" + silentPeers());
            }
        }
    }

    /** Sends {@code peer} this rank's call, for it to check against its own (see {@link #PROBE_AFTER_NS}). */
    private void probe(Posting posting, int peer) {
        probedSeq[peer] = posting.seq;
        probeMeta.seq = posting.seq;
        probeMeta.collective = posting.collective.wireCode() | posting.operands << 8;
        probeMeta.root = posting.shape.root();
        probeMeta.algorithm = posting.program.algorithmCode;
        probeMeta.blockBytes = posting.shape.blockBytes();
        probeMeta.tag = PROBE_TAG;
        route[peer].put(peer, probeMeta, NO_BYTES, 0, 0, probes);
    }

    private static final MemorySegment NO_BYTES = MemorySegment.ofArray(new byte[0]);

    /**
     * A probe from {@code h.sourceRank}: its call {@code h.seq}. Checked against the posted call of that number, or
     * the record of a finished one; held (null) until this rank posts that call when it has not yet; a call too old
     * to be on record is not checked (the peer's data for it arrived and was checked then).
     */
    private ByteBuffer onProbe(FrameHeader h) {
        Posting posting = this.posting;
        if (posting != null && h.seq == posting.seq) {
            checkCall(posting, h);
            return EMPTY;
        }
        if (h.seq > completedSeq) {
            return null;
        }
        CallRecord r = history.get((int) (h.seq & (HISTORY - 1)));
        if (r != null && r.seq == h.seq) {
            if (h.collective != r.wireCollective() || h.root != r.root || h.blockBytes != r.blockBytes
                    || h.algorithm != r.algorithm) {
                throw mismatch(posting, "rank " + h.sourceRank + " is in " + safeName(h.collective & 0xff) + " #" + h.seq
                        + " (root " + h.root + ", " + h.blockBytes + "-byte blocks) where rank " + rank + " called "
                        + r.collective.id() + " (" + r.algorithmId + ", root " + r.root + ", " + r.blockBytes
                        + "-byte blocks)" + (h.collective >>> 8 != r.operands && (h.collective & 0xff) == r.collective.wireCode()
                        ? " with another type or operator" : "")
                        + (h.algorithm != r.algorithm && h.collective == r.wireCollective() ? " with another algorithm" : ""));
            }
        }
        return EMPTY;
    }

    /** Checks a frame's call against {@code posting}, the call of the same number on this rank. */
    private void checkCall(Posting posting, FrameHeader h) {
        Shape shape = posting.shape;
        if ((h.collective & 0xff) != posting.collective.wireCode()) {
            throw mismatch(posting, "rank " + h.sourceRank + " called " + safeName(h.collective & 0xff) + " as collective #"
                    + h.seq + " while rank " + rank + " called " + posting.collective.id());
        }
        if (h.collective >>> 8 != posting.operands) {
            throw mismatch(posting, "operator or type mismatch in " + posting.collective.id() + " #" + h.seq + ": rank "
                    + h.sourceRank + " combines with " + Reduction.describeWireCode(h.collective >>> 8) + ", rank " + rank
                    + " with " + Reduction.describeWireCode(posting.operands));
        }
        if (h.root != shape.root()) {
            throw mismatch(posting, "rank " + h.sourceRank + " runs " + posting.collective.id() + " #" + h.seq + " with root "
                    + h.root + ", rank " + rank + " with root " + shape.root());
        }
        if (h.blockBytes != shape.blockBytes()) {
            throw mismatch(posting, "size mismatch in " + posting.collective.id() + " #" + h.seq + ": rank " + h.sourceRank
                    + " passed " + h.blockBytes + "-byte blocks, rank " + rank + " " + shape.blockBytes() + "-byte blocks");
        }
        if (h.algorithm != posting.program.algorithmCode) {
            throw mismatch(posting, "rank " + h.sourceRank + " runs a different algorithm for " + posting.collective.id()
                    + " #" + h.seq + " than rank " + rank + " (" + posting.program.algorithmId + "): force the same algorithm on every rank");
        }
    }

    /**
     * For a time-out's message: the peers a transport has heard nothing from for longer than a live peer stays quiet
     * (alive but stopped or descheduled, or cut off), which are usually why the call could not finish, even when the
     * rank it waited for directly is another one waiting for them.
     */
    private String silentPeers() {
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
        int work = 0;
        ProgressHook h = hook;
        if (h != null) {
            work += h.doWork();
        }
        // The transport that carries what is awaited is polled every round; the others (a selector poll is a system
        // call) every eighth round, or every round while this rank's own puts are still leaving.
        boolean all = awaited == null || (idle & 7) == 0 || sends.pending() > 0;
        for (int i = 0; i < transports.length; i++) {
            Transport t = transports[i];
            // A transport no peer is routed through only carries goodbyes and aborts: look at it now and then.
            if (t == awaited || all && (carriesTraffic[i] || (idle & 255) == 0)) {
                work += t.poll();
            }
        }
        if (work > 0) {
            return 0;
        }
        if (idle == 0) {
            idleSinceNs = System.nanoTime();
        }
        if (idle < spinRounds) {
            Thread.onSpinWait();
        } else if (System.nanoTime() - idleSinceNs < yieldBudgetNs) {
            Thread.yield();
        } else {
            sleep(awaited, awaitingHook);
        }
        return idle + 1;
    }

    private void sleep(Transport awaited, boolean awaitingHook) {
        if (awaitingHook && !othersNeedDriving(null)) {
            // What is awaited comes through the hook's own socket, which wakes this sleep; 1 ms bounds its timers.
            hook.awaitInput(SHARED_SLICE_NS);
            return;
        }
        boolean hooked = hook != null;
        if (anyOwnThreads) {
            blocker.block(hooked || othersNeedDriving(null) ? SHARED_SLICE_NS : BLOCK_SLICE_NS, awaitedReady);
            return;
        }
        Transport target = awaited;
        if (target == null || othersNeedDriving(target)) {
            // Several transports need this thread: sleep briefly in one with pending output, else the first.
            target = transports[0];
            for (Transport t : transports) {
                if (t.hasPendingOutput()) {
                    target = t;
                    break;
                }
            }
            target.await(hooked || transports.length > 1 ? SHARED_SLICE_NS : BLOCK_SLICE_NS);
        } else {
            // Other transports (and the hook) cannot wake this one's sleep: keep slices short when there are several.
            target.await(hooked || transports.length > 1 ? SHARED_SLICE_NS : BLOCK_SLICE_NS);
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
        Posting p = awaitedPosting;
        return awaitedSlot < 0 ? sends.pending() == 0 : slotComplete(p, awaitedSlot);
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

    private MemorySegment temp(long bytes) {
        if (bytes == 0) {
            return MemorySegment.NULL;
        }
        if (temp.byteSize() < bytes) {
            temp = tempArena.allocate(Math.max(bytes, temp.byteSize() * 2), 64);
        }
        return temp.asSlice(0, bytes);
    }

    // ---- FrameSink: called by transports, on this thread or on their own progress threads ----

    @Override
    public ByteBuffer onDataHeader(int rail, FrameHeader h) {
        if (h.tag == PROBE_TAG) {
            return onProbe(h);
        }
        Posting posting = this.posting;
        if (posting == null || h.seq != posting.seq) {
            if (h.seq > completedSeq) {
                return null; // this call or a later one, not posted yet: hold the connection until it is
            }
            throw mismatch(posting, "rank " + h.sourceRank + " sent data for " + safeName(h.collective & 0xff)
                    + " #" + h.seq + ", a collective this rank has already finished: the ranks disagree on what was called");
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
            return EMPTY;
        }
        return posting.buffers[p.slotBuf[s]].asSlice(p.slotOff[s] + h.fragOffset, h.fragLength).asByteBuffer();
    }

    @Override
    public void onDataComplete(int rail, FrameHeader h) {
        if (h.tag == PROBE_TAG) {
            return; // a probe carries no data: it was checked in onDataHeader
        }
        Posting posting = this.posting;
        CompiledProgram p = posting.program;
        int s = p.slotOf(h.sourceRank, h.tag);
        INTS.getAndAdd(posting.slotFrames, s, 1);
        long now = (long) LONGS.getAndAdd(posting.slotBytes, s, (long) h.fragLength) + h.fragLength;
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
        Posting posting = this.posting;
        String why = who + ": rank " + peer + " aborted" + (posting != null ? " " + describe(posting) : "") + ": ";
        // A mismatch fails every rank as one, not only the rank whose frames showed it (decision 0051).
        RailcollException e = reason.startsWith(MISMATCH_MARK)
                ? new MismatchException(why + reason.substring(MISMATCH_MARK.length()))
                : new CollectiveAbortedException(peer, why + reason);
        fail(e);
        throw e;
    }

    /**
     * A peer has departed once every connection that carries its traffic to this rank said goodbye: the shared
     * memory link for a node-mate, every rail otherwise (a stripe may still travel on one rail after another
     * rail's goodbye).
     */
    @Override
    public void onGoodbye(int peer, int rail) {
        if (route == null) {
            return; // during start-up, before attach: the peer's loss shows when it is awaited
        }
        Transport t = route[peer];
        if (t != null && (rail >= 0) == t.railBased()) {
            goodbyes.incrementAndGet(peer);
        }
        if (blocker != null) {
            blocker.wake();
        }
    }

    @Override
    public void onPeerLost(int peer, int rail, String cause) {
        Posting posting = this.posting;
        RailcollException e = new PeerLostException(peer, who + ": lost rank " + peer + " (node "
                + placement.nodeOf(peer) + ") " + (rail < 0 ? "over shared memory" : "on rail " + rail)
                + (posting != null ? " during " + describe(posting) : "") + ": " + cause
                + (rail >= 0 && route != null && route[peer] != null ? route[peer].inFlightWith(peer) : "")
                + awaiting(posting));
        fail(e);
        throw e;
    }

    /** For failure messages: what the owner was waiting for in {@code posting}, or "" when not waiting in it. */
    private String awaiting(Posting posting) {
        Posting p = awaitedPosting;
        if (p == null || p != posting) {
            return "";
        }
        int s = awaitedSlot;
        if (s < 0) {
            return "; this rank awaited the delivery of " + sends.pending() + " outgoing frame(s)";
        }
        CompiledProgram prog = p.program;
        return "; this rank awaited " + prog.slotLen[s] + " bytes (tag " + prog.slotTag[s] + ") from rank "
                + prog.slotPeer[s] + ", " + (long) LONGS.getAcquire(p.slotBytes, s) + " of them had arrived";
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

    private String describe(Posting posting) {
        Collective c = posting.collective;
        return who + ": " + c.id() + " #" + posting.seq + " (" + posting.program.algorithmId + ", "
                + posting.shape.blockBytes() + "-byte blocks"
                + (c == Collective.BROADCAST || c == Collective.GATHER ? ", root " + posting.shape.root() : "") + ")";
    }

    private static String safeName(int code) {
        try {
            return Collective.fromWireCode(code).id();
        } catch (IllegalArgumentException e) {
            return "collective code " + code;
        }
    }

    private static String seconds(long ns) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ns / 1e9);
    }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** Starts the ABORT reason of a mismatch, so that the peers throw {@link MismatchException} as well. */
    private static final String MISMATCH_MARK = "mismatch: ";

    @Override
    public void close() {
        tempArena.close();
    }
}
