package io.railcoll;

import io.railcoll.bootstrap.JobTable;
import io.railcoll.engine.CollectiveEngine;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.TransportProvided;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.topology.Placement;
import io.railcoll.transport.RailCounters;
import io.railcoll.transport.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The {@link Communicator} built by {@link Railcoll}: checks arguments, builds the shape, selects the algorithm
 * and hands the call to the engine. Used by one thread at a time, or by any thread when thread-safe: the
 * {@link CallGate} enforces which; closed by whoever obtained it.
 */
final class RailcollCommunicator implements Communicator {
    private static final MemorySegment NO_BUFFER = MemorySegment.ofArray(new byte[0]);
    /** Stands for any thread but the caller's when checking that transports' threads may touch a segment. */
    private static final Thread OTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private final int rank;
    private final JobTable table;
    private final Placement placement;
    private final CollectiveEngine engine;
    private final Transport rails;
    private final Transport shm;
    private final AutoCloseable region;
    private final AlgorithmSelector selector;
    private final int ports;
    private final int groups;
    /** How this rank joined its job (a rendezvous it serves, a launcher's key-value store); closed last. */
    private final AutoCloseable bootstrap;
    private final CallGate gate;
    /** Carries out broadcast.multicast; null when RAILCOLL_MCAST=off. */
    private MulticastBroadcaster multicast;
    /** Carries out the algorithms with node steps in shared memory (*.shm); null when RAILCOLL_SHM=off. */
    private NodeShmCollectives nodeShm;
    /** Per collective, the shape of the last call (see {@link #shape}). */
    private final Shape[] lastShapes = new Shape[Collective.values().length];
    /** The last reduction's type and operator (see {@link #reduction}). */
    private Reduction lastReduction;
    /** Native memory for reductions in place and over arrays other than byte[]; null until first needed. */
    private Arena stagingArena;
    private MemorySegment staging;
    private boolean closed;

    RailcollCommunicator(int rank, JobTable table, CollectiveEngine engine, Transport rails, Transport shm,
                         AutoCloseable region, AlgorithmSelector selector, int ports, int groups,
                         AutoCloseable bootstrap, boolean threadSafe) {
        this.gate = new CallGate(rank, threadSafe);
        this.shm = shm;
        this.region = region;
        this.rank = rank;
        this.table = table;
        this.placement = table.placement();
        this.engine = engine;
        this.rails = rails;
        this.selector = selector;
        this.ports = ports;
        this.groups = groups;
        this.bootstrap = bootstrap;
    }

    /** Enables broadcast.multicast through {@code multicast}; opens it now when {@code openNow}. Start-up only. */
    void enableMulticast(MulticastBroadcaster multicast, boolean openNow) {
        this.multicast = multicast;
        selector.enableTransport(io.railcoll.algorithm.broadcast.MulticastBroadcastAlgorithm.TRANSPORT);
        if (openNow) {
            multicast.open();
        }
    }

    /** Enables the collectives the node's shared memory carries out itself ({@code *.shm}). Start-up only. */
    void enableNodeShm(NodeShmCollectives nodeShm) {
        this.nodeShm = nodeShm;
        selector.enableTransport(NodePhased.TRANSPORT);
    }

    /**
     * An all-gather of one equal block per rank (sets up the multicast group): always {@code allgather.direct}, a
     * schedule, never what selection picks, which may itself need the multicast group being set up.
     */
    byte[] allgatherBlocks(byte[] mine) {
        byte[] all = new byte[mine.length * size()];
        Shape shape = shape(Collective.ALLGATHER, mine.length, 0);
        engine.run(io.railcoll.algorithm.AlgorithmCatalog.standard().byId(
                io.railcoll.algorithm.allgather.DirectAllgather.ID), shape, MemorySegment.ofArray(mine), MemorySegment.ofArray(all));
        return all;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return placement.size();
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public int rails() {
        return table.rails();
    }

    @Override
    public RailCounters railCounters() {
        return rails.counters();
    }

    @Override
    public SingleCopyCounts singleCopyCounts() {
        if (shm instanceof io.railcoll.transport.shm.ShmTransport t) {
            long[] c = t.singleCopyCounts();
            return new SingleCopyCounts(c[0], c[1], c[2], c[3], 
                    region instanceof io.railcoll.transport.shm.NodeRegion r ? r.collectives().singleCopyCalls() : 0);
        }
        return SingleCopyCounts.NONE;
    }

    @Override
    public void forceAlgorithm(String id) {
        gate.enter("forceAlgorithm");
        try {
            open();
            requireNonNull(id, "the algorithm id");
            selector.force(id);
        } finally {
            gate.exit();
        }
    }

    @Override
    public void clearForcedAlgorithm(Collective collective) {
        gate.enter("clearForcedAlgorithm");
        try {
            open();
            requireNonNull(collective, "the collective");
            selector.clear(collective);
        } finally {
            gate.exit();
        }
    }

    @Override
    public String selectedAlgorithm(Collective collective, long blockBytes, int root) {
        gate.enter("selectedAlgorithm");
        try {
            open();
            requireNonNull(collective, "the collective");
            if (blockBytes < 0) {
                throw new IllegalArgumentException("selectedAlgorithm: the block size must be >= 0, got " + blockBytes);
            }
            if (collective == Collective.BROADCAST || collective == Collective.GATHER) {
                checkRoot(root);
            } else {
                root = 0; // the collectives without a root run the same algorithm whatever is passed
            }
            return selector.select(shape(collective, blockBytes, root)).id();
        } finally {
            gate.exit();
        }
    }

    @Override
    public Optional<RailcollException> failure() {
        return Optional.ofNullable(engine.failure());
    }

    // ---- barrier ----

    @Override
    public void barrier() {
        gate.enter("barrier");
        try {
            open();
            run(shape(Collective.BARRIER, 0, 0), NO_BUFFER, NO_BUFFER, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request ibarrier() {
        return start("ibarrier", () -> {
            open();
            return run(shape(Collective.BARRIER, 0, 0), NO_BUFFER, NO_BUFFER, true);
        });
    }

    // ---- broadcast ----

    @Override
    public void broadcast(MemorySegment buffer, int root) {
        gate.enter("broadcast");
        try {
            broadcast(buffer, root, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request ibroadcast(MemorySegment buffer, int root) {
        return start("ibroadcast", () -> broadcast(buffer, root, true));
    }

    private long broadcast(MemorySegment buffer, int root, boolean nonBlocking) {
        open();
        requireNonNull(buffer, "buffer");
        checkRoot(root);
        if (buffer.isReadOnly() && rank != root) {
            throw new IllegalArgumentException("broadcast: the buffer of a receiving rank is read-only");
        }
        return run(shape(Collective.BROADCAST, buffer.byteSize(), root), NO_BUFFER, buffer, nonBlocking);
    }

    @Override
    public void broadcast(byte[] buffer, int root) {
        requireNonNull(buffer, "buffer");
        broadcast(MemorySegment.ofArray(buffer), root);
    }

    @Override
    public void broadcast(ByteBuffer buffer, int root) {
        requireNonNull(buffer, "buffer");
        broadcast(segment(buffer), root);
    }

    // ---- gather ----

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int root) {
        gate.enter("gather");
        try {
            gather(send, recv, root, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request igather(MemorySegment send, MemorySegment recv, int root) {
        return start("igather", () -> gather(send, recv, root, true));
    }

    private long gather(MemorySegment send, MemorySegment recv, int root, boolean nonBlocking) {
        open();
        requireNonNull(send, "send");
        checkRoot(root);
        long b = send.byteSize();
        MemorySegment r = NO_BUFFER;
        if (rank == root) {
            requireNonNull(recv, "recv (on the root)");
            checkFits("gather", recv, b * size());
            r = recv;
        }
        return run(shape(Collective.GATHER, b, root), send, r, nonBlocking);
    }

    @Override
    public void gather(byte[] send, byte[] recv, int root) {
        requireNonNull(send, "send");
        gather(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    @Override
    public void gather(ByteBuffer send, ByteBuffer recv, int root) {
        requireNonNull(send, "send");
        gather(segment(send), recv == null ? null : segment(recv), root);
    }

    // ---- allgather ----

    @Override
    public void allgather(MemorySegment send, MemorySegment recv) {
        gate.enter("allgather");
        try {
            allgather(send, recv, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request iallgather(MemorySegment send, MemorySegment recv) {
        return start("iallgather", () -> allgather(send, recv, true));
    }

    private long allgather(MemorySegment send, MemorySegment recv, boolean nonBlocking) {
        open();
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        long b = send.byteSize();
        checkFits("allgather", recv, b * size());
        return run(shape(Collective.ALLGATHER, b, 0), send, recv, nonBlocking);
    }

    @Override
    public void allgather(byte[] send, byte[] recv) {
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    @Override
    public void allgather(ByteBuffer send, ByteBuffer recv) {
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        allgather(segment(send), segment(recv));
    }

    // ---- alltoall ----

    @Override
    public void alltoall(MemorySegment send, MemorySegment recv) {
        gate.enter("alltoall");
        try {
            alltoall(send, recv, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request ialltoall(MemorySegment send, MemorySegment recv) {
        return start("ialltoall", () -> alltoall(send, recv, true));
    }

    private long alltoall(MemorySegment send, MemorySegment recv, boolean nonBlocking) {
        open();
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        if (send.byteSize() % size() != 0) {
            throw new IllegalArgumentException("alltoall: the send buffer (" + send.byteSize()
                    + " bytes) must hold one equal block per rank (" + size() + " ranks)");
        }
        long b = send.byteSize() / size();
        checkFits("alltoall", recv, b * size());
        return run(shape(Collective.ALLTOALL, b, 0), send, recv, nonBlocking);
    }

    @Override
    public void alltoall(byte[] send, byte[] recv) {
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    @Override
    public void alltoall(ByteBuffer send, ByteBuffer recv) {
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        alltoall(segment(send), segment(recv));
    }

    // ---- allreduce ----

    @Override
    public void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        gate.enter("allreduce");
        try {
            allreduce(send, recv, type, count, op, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return start("iallreduce", () -> allreduce(send, recv, type, count, op, true));
    }

    @Override
    public Request iallreduce(MemorySegment buffer, ElementType type, long count, Operator op) {
        return iallreduce(buffer, buffer, type, count, op);
    }

    private long allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op,
                           boolean nonBlocking) {
        open();
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        Reduction reduction = reduction(type, op);
        long bytes = vectorBytes("allreduce", type, count);
        checkHolds("allreduce", "send", send, bytes, type, count);
        checkHolds("allreduce", "recv", recv, bytes, type, count);
        checkFits("allreduce", recv, bytes);
        MemorySegment s = send.asSlice(0, bytes);
        MemorySegment r = recv.asSlice(0, bytes);
        if (s.asOverlappingSlice(r).isPresent()) {
            if (s.address() != r.address() || !s.heapBase().equals(r.heapBase())) {
                throw new IllegalArgumentException("allreduce: send and recv overlap without being the same range;"
                        + " pass the same range (or the in-place form) to reduce in place");
            }
            // In place: the call's own copy of the data is SEND (a schedule never reads what it writes).
            return runReduction(reductionShape(Collective.ALLREDUCE, bytes, type, op), r, r, reduction, true,
                    nonBlocking);
        }
        return runReduction(reductionShape(Collective.ALLREDUCE, bytes, type, op), s, r, reduction, false,
                nonBlocking);
    }

    @Override
    public void allreduce(MemorySegment buffer, ElementType type, long count, Operator op) {
        allreduce(buffer, buffer, type, count, op);
    }

    @Override
    public void allreduce(int[] send, int[] recv, Operator op) {
        requireArrays(send, recv);
        allreduceStaged(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.INT, send.length, op);
    }

    @Override
    public void allreduce(long[] send, long[] recv, Operator op) {
        requireArrays(send, recv);
        allreduceStaged(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.LONG, send.length, op);
    }

    @Override
    public void allreduce(float[] send, float[] recv, Operator op) {
        requireArrays(send, recv);
        allreduceStaged(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.FLOAT, send.length, op);
    }

    @Override
    public void allreduce(double[] send, double[] recv, Operator op) {
        requireArrays(send, recv);
        allreduceStaged(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.DOUBLE, send.length, op);
    }

    /**
     * Arrays other than byte[] cannot be viewed as the ByteBuffers the transports write from and read into: the
     * vector goes through the staging memory, SEND in its first half and RECV in its second.
     */
    private void allreduceStaged(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        gate.enter("allreduce");
        try {
            allreduceStagedEntered(send, recv, type, count, op);
        } finally {
            gate.exit();
        }
    }

    private void allreduceStagedEntered(MemorySegment send, MemorySegment recv, ElementType type, long count,
                                        Operator op) {
        open();
        Reduction reduction = reduction(type, op);
        long bytes = vectorBytes("allreduce", type, count);
        checkHolds("allreduce", "recv", recv, bytes, type, count);
        MemorySegment staged = staging(2 * bytes);
        MemorySegment s = staged.asSlice(0, bytes);
        MemorySegment r = staged.asSlice(bytes, bytes);
        MemorySegment.copy(send, 0, s, 0, bytes);
        runReduction(reductionShape(Collective.ALLREDUCE, bytes, type, op), s, r, reduction, false, false);
        MemorySegment.copy(r, 0, recv, 0, bytes);
    }

    /** As {@link #run}, for a schedule that combines data with {@code reduction}; {@code stageSend}: in place. */
    private long runReduction(Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction,
                              boolean stageSend, boolean nonBlocking) {
        Algorithm algorithm = nonBlocking ? selector.selectScheduled(shape) : selector.select(shape);
        if (nodeShm != null) {
            nodeShm.announceByMessages(shape);
        }
        return post(algorithm, shape, send, recv, reduction, stageSend, nonBlocking);
    }

    /** Posts a call to the engine; a blocking one is then awaited (one way to run a schedule); returns its number. */
    private long post(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction,
                      boolean stageSend, boolean nonBlocking) {
        long seq = engine.post(algorithm, shape, send, recv, reduction, stageSend);
        if (!nonBlocking) {
            engine.await(seq, Long.MAX_VALUE);
        }
        return seq;
    }

    /**
     * The non-blocking form of a call: {@code start} checks the arguments and posts the call (the blocking form's
     * private method with {@code nonBlocking}), inside the thread contract; its sequence number becomes the request.
     */
    private Request start(String call, java.util.function.LongSupplier start) {
        gate.enter(call);
        try {
            return new Request(engine, gate, start.getAsLong(), call);
        } finally {
            gate.exit();
        }
    }

    /** The call's type and operator, checked to go together; the last pair is kept, so loops allocate none. */
    private Reduction reduction(ElementType type, Operator op) {
        if (type == null || op == null) {
            throw new IllegalArgumentException("the element type and the operator must not be null");
        }
        Reduction last = lastReduction;
        if (last != null && last.type() == type && last.operator().equals(op)) {
            return last;
        }
        lastReduction = Reduction.of(type, op);
        return lastReduction;
    }

    private Shape reductionShape(Collective collective, long bytes, ElementType type, Operator op) {
        Shape last = lastShapes[collective.ordinal()];
        if (last != null && last.blockBytes() == bytes && last.elementBytes() == type.sizeBytes()
                && last.commutative() == op.commutative()) {
            return last;
        }
        Shape s = Shape.reduction(collective, placement, ports, bytes, 0, type.sizeBytes(), op.commutative());
        lastShapes[collective.ordinal()] = s;
        return s;
    }

    private static long vectorBytes(String call, ElementType type, long count) {
        if (count < 0 || count > Long.MAX_VALUE / type.sizeBytes()) {
            throw new IllegalArgumentException(call + ": count " + count + " is out of range");
        }
        return type.bytes(count);
    }

    private static void checkHolds(String call, String what, MemorySegment m, long bytes, ElementType type, long count) {
        if (m.byteSize() < bytes) {
            throw new IllegalArgumentException(call + ": " + what + " holds " + m.byteSize() + " bytes but " + count
                    + " " + type + " elements need " + bytes);
        }
    }

    private static void requireArrays(Object send, Object recv) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        if (java.lang.reflect.Array.getLength(recv) < java.lang.reflect.Array.getLength(send)) {
            throw new IllegalArgumentException("allreduce: recv has " + java.lang.reflect.Array.getLength(recv)
                    + " elements, fewer than the " + java.lang.reflect.Array.getLength(send) + " of send");
        }
    }

    /** At least {@code bytes} of native memory, kept and grown by doubling; freed by {@link #close()}. */
    private MemorySegment staging(long bytes) {
        if (staging == null || staging.byteSize() < bytes) {
            if (stagingArena != null) {
                stagingArena.close();
            }
            stagingArena = Arena.ofShared();
            staging = stagingArena.allocate(Math.max(bytes, staging == null ? 4096 : 2 * staging.byteSize()), 64);
        }
        return staging;
    }

    // ---- plumbing ----

    /**
     * Runs a call (blocking) or starts it (non-blocking: among the algorithms whose schedules the engine runs,
     * decision 0061), and returns its sequence number (0 for a blocking call carried out outside the engine).
     */
    private long run(Shape shape, MemorySegment send, MemorySegment recv, boolean nonBlocking) {
        Algorithm algorithm = nonBlocking ? selector.selectScheduled(shape) : selector.select(shape);
        if (algorithm instanceof NodePhased phased) {
            // Node steps wait outside the engine, advancing no call in flight: those finish first.
            engine.awaitAllInFlight();
            long recvBytes = shape.collective().recvBytes(shape.blockBytes(), size(), rank, shape.root());
            nodeShm.run(phased, shape, send, recv.byteSize() == recvBytes ? recv : recv.asSlice(0, recvBytes));
            return 0;
        }
        if (nodeShm != null) {
            nodeShm.announceByMessages(shape);
        }
        if (algorithm instanceof TransportProvided t) {
            engine.awaitAllInFlight();
            // The multicast ones (the selector only offers them once enabled): a schedule first, if any, leaves
            // RECV complete on the transport's root, which then broadcasts it.
            long recvBytes = shape.collective().recvBytes(shape.blockBytes(), size(), t.transportRoot(shape),
                    t.transportRoot(shape));
            MemorySegment all = recv.byteSize() == recvBytes ? recv : recv.asSlice(0, recvBytes);
            if (t.scheduleBefore().isPresent()) {
                long mine = shape.collective().recvBytes(shape.blockBytes(), size(), rank, shape.root());
                engine.run(t.scheduleBefore().get(), shape, send, recv.byteSize() == mine ? recv : recv.asSlice(0, mine));
            }
            multicast.broadcast(all, t.transportRoot(shape));
            return 0;
        }
        long recvBytes = shape.collective().recvBytes(shape.blockBytes(), size(), rank, shape.root());
        return post(algorithm, shape, send, recv.byteSize() == recvBytes ? recv : recv.asSlice(0, recvBytes), null,
                false, nonBlocking);
    }

    /** The shape of a call; the last one per collective is kept, so a loop of like calls allocates none. */
    private Shape shape(Collective collective, long blockBytes, int root) {
        Shape last = lastShapes[collective.ordinal()];
        if (last != null && last.blockBytes() == blockBytes && last.root() == root) {
            return last;
        }
        Shape s = new Shape(collective, placement, ports, blockBytes, root, groups);
        lastShapes[collective.ordinal()] = s;
        return s;
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException("rank " + rank + ": the communicator is closed");
        }
    }

    private void checkRoot(int root) {
        if (root < 0 || root >= size()) {
            throw new IllegalArgumentException("root " + root + " is out of range: the communicator has " + size() + " ranks");
        }
    }

    private void checkFits(String op, MemorySegment recv, long needed) {
        if (recv.byteSize() < needed) {
            throw new IllegalArgumentException(op + ": the receive buffer holds " + recv.byteSize() + " bytes but "
                    + size() + " ranks x " + (needed / Math.max(1, size())) + " bytes need " + needed);
        }
        if (recv.isReadOnly()) {
            throw new IllegalArgumentException(op + ": the receive buffer is read-only");
        }
    }

    private static void requireNonNull(Object o, String what) {
        if (o == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (o instanceof MemorySegment m && !m.scope().isAlive()) {
            // Caught here, on every rank alike, before anything is sent: deep inside a transport it would fail this
            // rank half-way through the call and leave its peers out of step.
            throw new IllegalArgumentException(what + ": the segment's arena is already closed");
        }
        if (o instanceof MemorySegment m && !m.isAccessibleBy(OTHER_THREAD)) {
            // Progress threads (and the rails' keeper thread) read and write buffers; a confined arena forbids it.
            throw new IllegalArgumentException(what + ": the segment belongs to a confined arena, which only its owner"
                    + " thread may touch; allocate it from a shared or global arena (Arena.ofShared())");
        }
        if (o instanceof MemorySegment m && m.heapBase().isPresent() && !(m.heapBase().get() instanceof byte[])) {
            throw new IllegalArgumentException(what + ": a heap segment must be backed by a byte[] (got "
                    + m.heapBase().get().getClass().getSimpleName() + "); use a byte[] or native memory");
        }
    }

    /** The bytes between position and limit. */
    private static MemorySegment segment(ByteBuffer b) {
        return MemorySegment.ofBuffer(b);
    }

    @Override
    public void close() {
        gate.enter("close");
        try {
            closeOnce();
        } finally {
            gate.exit();
        }
    }

    private void closeOnce() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException first = null;
        if (engine.inFlight() > 0 && engine.failure() == null) {
            // Their peers learn it through the ABORT below rather than at their deadline; their requests fail with it.
            engine.recordFailure(new CollectiveAbortedException(rank, "rank " + rank + ": the communicator was closed"
                    + " with " + engine.inFlight() + " collective(s) still in flight"));
        }
        RailcollException failure = engine.failure();
        if (failure != null) {
            // Peers still waiting on this rank learn why it left (e.g. the rank it lost) instead of only that it
            // closed: the first failure travels to every rank as an ABORT ahead of the goodbyes.
            for (Transport t : new Transport[] {shm, rails}) {
                if (t == null) {
                    continue;
                }
                try {
                    t.abortAll(failure.getMessage());
                } catch (RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (multicast != null) {
            // Its final synchronization needs the rails (progress) and the peers: before anything else closes.
            try {
                multicast.close();
            } catch (RuntimeException e) {
                first = e;
            }
        }
        // Reverse order of opening: transports first (they say goodbye), then the memory they used.
        for (AutoCloseable c : new AutoCloseable[] {shm, rails, engine, region, bootstrap, stagingArena}) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException re ? re : new RailcollException("close failed", e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
