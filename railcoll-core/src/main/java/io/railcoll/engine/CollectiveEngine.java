package io.railcoll.engine;

import io.railcoll.CollectiveAbortedException;
import io.railcoll.CollectiveTimeoutException;
import io.railcoll.MismatchException;
import io.railcoll.PeerLostException;
import io.railcoll.RailcollException;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;
import io.railcoll.transport.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Runs one rank's side of collectives: binds a compiled program's buffers, issues its puts, waits for its
 * receives, and checks every incoming frame against the collective being run.
 *
 * <p>Every collective gets the next sequence number; ranks call collectives in the same order, so frames carry
 * the sequence number and the receiver knows which call they belong to. A frame of a later call pauses its
 * connection until that call is posted (nothing is buffered or dropped); a frame of an earlier call, another
 * collective, root, algorithm or block size is a mismatch that fails this rank and, through an ABORT frame,
 * every other rank.
 *
 * <p>Waiting adapts, since ranks often outnumber cores: spin briefly, then yield, then block in the transport
 * (a selector) until I/O arrives. Every wait has a deadline.
 *
 * <p>Threading: one thread (the communicator's caller) runs collectives; in this engine it also drives the
 * transports, so frame callbacks arrive on that same thread. Lifetime: owned and closed by the communicator.
 */
public final class CollectiveEngine implements FrameSink, AutoCloseable {
    private static final int SPIN_ROUNDS = 64;
    private static final int YIELD_ROUNDS = 16;
    private static final long BLOCK_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private final int rank;
    private final Placement placement;
    private Transport[] route;
    private Transport[] transports;
    private final long timeoutNs;
    private final ProgramCache cache;
    private final SendCompletion sends = new SendCompletion();
    private final FrameHeader meta = new FrameHeader();
    private final MemorySegment[] bound = new MemorySegment[Buffer.values().length];
    private final boolean[] departed;
    private final Arena tempArena = Arena.ofShared();
    private MemorySegment temp = MemorySegment.NULL;

    private long completedSeq;
    private boolean posted;
    private long activeSeq;
    private Collective activeCollective;
    private Shape activeShape;
    private CompiledProgram active;
    private long[] slotBytes = new long[16];
    private int[] slotFrames = new int[16];
    private RailcollException failure;

    public CollectiveEngine(int rank, Placement placement, long timeoutNs) {
        this.rank = rank;
        this.placement = placement;
        this.timeoutNs = timeoutNs;
        this.cache = new ProgramCache(rank);
        this.departed = new boolean[placement.size()];
    }

    /**
     * Connects the engine to its transports, once, before the first collective.
     *
     * @param route      for each peer, the transport that carries traffic to it (null for this rank)
     * @param transports every distinct transport, polled while waiting; the first is where the engine blocks
     */
    public void attach(Transport[] route, Transport[] transports) {
        if (this.route != null) {
            throw new IllegalStateException("transports already attached");
        }
        this.route = route.clone();
        this.transports = transports.clone();
    }

    public RailcollException failure() {
        return failure;
    }

    /** Runs {@code algorithm} for {@code shape}; SEND and RECV are the caller's buffers (RECV may be empty). */
    public void run(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv) {
        if (failure != null) {
            throw new IllegalStateException("this communicator failed earlier and cannot run collectives: " + failure.getMessage(), failure);
        }
        CompiledProgram program = cache.get(algorithm, shape);
        try {
            post(program, shape, send, recv);
            execute(program);
            awaitSends(program);
        } catch (RailcollException e) {
            fail(e);
            throw e;
        } finally {
            posted = false;
            active = null;
            completedSeq = activeSeq;
            bound[0] = bound[1] = bound[2] = null;
        }
    }

    private void post(CompiledProgram program, Shape shape, MemorySegment send, MemorySegment recv) {
        activeSeq = completedSeq + 1;
        activeCollective = shape.collective();
        activeShape = shape;
        active = program;
        bound[Buffer.SEND.ordinal()] = send;
        bound[Buffer.RECV.ordinal()] = recv;
        bound[Buffer.TEMP.ordinal()] = temp(program.tempBytes);
        if (slotBytes.length < program.slots) {
            slotBytes = new long[Math.max(program.slots, slotBytes.length * 2)];
            slotFrames = new int[slotBytes.length];
        }
        Arrays.fill(slotBytes, 0, program.slots, 0L);
        Arrays.fill(slotFrames, 0, program.slots, 0);
        sends.reset();
        meta.seq = activeSeq;
        meta.collective = shape.collective().wireCode();
        meta.root = shape.root();
        meta.algorithm = program.algorithmCode;
        meta.blockBytes = shape.blockBytes();
        posted = true;
        for (Transport t : transports) {
            t.resume();
        }
    }

    private void execute(CompiledProgram p) {
        for (int i = 0, n = p.ops(); i < n; i++) {
            switch (p.kind[i]) {
                case CompiledProgram.PUT -> {
                    meta.tag = p.tag[i];
                    int peer = p.peer[i];
                    route[peer].put(peer, meta, bound[p.srcBuf[i]], p.srcOff[i], p.length[i], sends);
                }
                case CompiledProgram.RECV -> awaitSlot(p, p.slot[i]);
                case CompiledProgram.COPY -> MemorySegment.copy(bound[p.srcBuf[i]], p.srcOff[i],
                        bound[p.dstBuf[i]], p.dstOff[i], p.length[i]);
                default -> throw new IllegalStateException("unknown op kind " + p.kind[i]);
            }
        }
    }

    private boolean slotComplete(CompiledProgram p, int s) {
        return slotBytes[s] == p.slotLen[s] && (p.slotLen[s] > 0 || slotFrames[s] > 0);
    }

    private void awaitSlot(CompiledProgram p, int s) {
        if (slotComplete(p, s)) {
            return;
        }
        long start = System.nanoTime();
        long deadline = start + timeoutNs;
        int idle = 0;
        while (!slotComplete(p, s)) {
            if (departed[p.slotPeer[s]]) {
                throw new PeerLostException(p.slotPeer[s], describe() + ": rank " + p.slotPeer[s]
                        + " closed its communicator while this rank awaited " + p.slotLen[s] + " bytes (tag "
                        + p.slotTag[s] + ") from it");
            }
            idle = progress(idle);
            if (idle > 0 && System.nanoTime() - deadline > 0) {
                throw new CollectiveTimeoutException(describe() + " timed out after " + seconds(System.nanoTime() - start)
                        + " waiting for " + p.slotLen[s] + " bytes (tag " + p.slotTag[s] + ") from rank " + p.slotPeer[s]
                        + " (node " + placement.nodeOf(p.slotPeer[s]) + ") on " + routeName(p.slotPeer[s]) + "; "
                        + slotBytes[s] + " bytes of it had arrived");
            }
        }
    }

    private void awaitSends(CompiledProgram p) {
        if (sends.pending() == 0) {
            return;
        }
        long start = System.nanoTime();
        long deadline = start + timeoutNs;
        int idle = 0;
        while (sends.pending() > 0) {
            idle = progress(idle);
            if (idle > 0 && System.nanoTime() - deadline > 0) {
                throw new CollectiveTimeoutException(describe() + " timed out after " + seconds(System.nanoTime() - start)
                        + " waiting for " + sends.pending() + " outgoing frames to leave this rank (peers not reading?)");
            }
        }
    }

    /** One round of progress; returns the new idle count (0 when work was done). */
    private int progress(int idle) {
        int work = 0;
        for (Transport t : transports) {
            work += t.poll();
        }
        if (work > 0) {
            return 0;
        }
        if (idle < SPIN_ROUNDS) {
            Thread.onSpinWait();
        } else if (idle < SPIN_ROUNDS + YIELD_ROUNDS) {
            Thread.yield();
        } else {
            // Blocking in the selector: wakes as soon as any connection has data or room.
            transports[0].await(BLOCK_SLICE_NS);
        }
        return idle + 1;
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

    // ---- FrameSink: called from transports while this thread drives them ----

    @Override
    public ByteBuffer onDataHeader(int rail, FrameHeader h) {
        if (!posted || h.seq != activeSeq) {
            long current = posted ? activeSeq : completedSeq + 1;
            if (h.seq >= current) {
                return null; // a later collective: hold the connection until it is posted
            }
            throw mismatch("rank " + h.sourceRank + " sent data for " + Collective.fromWireCode(h.collective).id()
                    + " #" + h.seq + ", a collective this rank has already finished: the ranks disagree on what was called");
        }
        CompiledProgram p = active;
        if (h.collective != meta.collective) {
            throw mismatch("rank " + h.sourceRank + " called " + safeName(h.collective) + " as collective #" + h.seq
                    + " while rank " + rank + " called " + activeCollective.id());
        }
        if (h.root != meta.root) {
            throw mismatch("rank " + h.sourceRank + " runs " + activeCollective.id() + " #" + h.seq + " with root " + h.root
                    + ", rank " + rank + " with root " + meta.root);
        }
        if (h.blockBytes != meta.blockBytes) {
            throw mismatch("size mismatch in " + activeCollective.id() + " #" + h.seq + ": rank " + h.sourceRank + " passed "
                    + h.blockBytes + "-byte blocks, rank " + rank + " " + meta.blockBytes + "-byte blocks");
        }
        if (h.algorithm != meta.algorithm) {
            throw mismatch("rank " + h.sourceRank + " runs a different algorithm for " + activeCollective.id() + " #"
                    + h.seq + " than rank " + rank + " (" + p.algorithmId + "): force the same algorithm on every rank");
        }
        int s = p.slotOf(h.sourceRank, h.tag);
        if (s < 0) {
            throw mismatch("rank " + h.sourceRank + " put " + h.putLength + " bytes (tag " + h.tag + ") that "
                    + p.algorithmId + " on rank " + rank + " does not expect");
        }
        if (h.putLength != p.slotLen[s]) {
            throw mismatch("size mismatch in " + activeCollective.id() + " #" + h.seq + ": rank " + h.sourceRank + " put "
                    + h.putLength + " bytes (tag " + h.tag + "), rank " + rank + " expects " + p.slotLen[s]);
        }
        if (h.fragLength == 0) {
            return EMPTY;
        }
        return bound[p.slotBuf[s]].asSlice(p.slotOff[s] + h.fragOffset, h.fragLength).asByteBuffer();
    }

    @Override
    public void onDataComplete(int rail, FrameHeader h) {
        CompiledProgram p = active;
        int s = p.slotOf(h.sourceRank, h.tag);
        slotBytes[s] += h.fragLength;
        slotFrames[s]++;
        if (slotBytes[s] > p.slotLen[s]) {
            throw mismatch("rank " + h.sourceRank + " sent more than the " + p.slotLen[s] + " bytes of tag " + h.tag);
        }
    }

    @Override
    public void onAbort(int peer, String reason) {
        RailcollException e = new CollectiveAbortedException(peer, "rank " + rank + ": rank " + peer + " aborted"
                + (posted ? " " + describe() : "") + ": " + reason);
        fail(e);
        throw e;
    }

    @Override
    public void onGoodbye(int peer) {
        departed[peer] = true;
    }

    @Override
    public void onPeerLost(int peer, int rail, String cause) {
        RailcollException e = new PeerLostException(peer, "rank " + rank + ": lost rank " + peer + " (node "
                + placement.nodeOf(peer) + ") on rail " + rail + (posted ? " during " + describe() : "") + ": " + cause);
        fail(e);
        throw e;
    }

    private MismatchException mismatch(String message) {
        MismatchException e = new MismatchException("rank " + rank + ": " + message);
        fail(e);
        for (Transport t : transports) {
            try {
                t.abortAll(e.getMessage());
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
    }

    private String describe() {
        String alg = active == null ? "" : " (" + active.algorithmId + ", " + activeShape.blockBytes() + "-byte blocks"
                + (activeCollective == Collective.BROADCAST || activeCollective == Collective.GATHER ? ", root " + activeShape.root() : "") + ")";
        return "rank " + rank + ": " + activeCollective.id() + " #" + activeSeq + alg;
    }

    private String routeName(int peer) {
        Transport t = route[peer];
        return t == null ? "no transport" : t.toString();
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

    @Override
    public void close() {
        tempArena.close();
    }
}
