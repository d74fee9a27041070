package io.railcoll;

import io.railcoll.bootstrap.JobTable;
import io.railcoll.engine.CollectiveEngine;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.MulticastUser;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.topology.Placement;
import io.railcoll.transport.RailCounters;
import io.railcoll.transport.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The {@link Communicator} built by {@link Railcoll} (the world) or by a split of another (a sub-communicator):
 * checks arguments, builds the shape, selects the algorithm and hands the call to its engine. Every communicator of a
 * rank has its own engine, placement, selection and call numbering over the rank's shared transports
 * ({@link RankTransports}); only the world runs node steps in the node's shared-memory region and multicast
 * (decision 0071). Used by one thread at a time, or by any thread when thread-safe: the {@link CallGate} enforces
 * which; closed by whoever obtained it.
 */
final class RailcollCommunicator implements Communicator {
    static final MemorySegment NO_BUFFER = MemorySegment.ofArray(new byte[0]);
    /** Stands for any thread but the caller's when checking that transports' threads may touch a segment. */
    private static final Thread OTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private final int rank;
    private final JobTable table;
    private final RankTransports shared;
    /** The context every frame of this communicator carries (0: the world). */
    private final long context;
    /** How messages name this communicator: "world", "world.split#0(color 1)". */
    private final String name;
    /** The job rank of each of this communicator's ranks. */
    private final int[] jobRanks;
    private final Placement placement;
    private final CollectiveEngine engine;
    /** Its point-to-point messages, under a context of their own (decision 0080). */
    private final PointToPointCalls messages;
    /** Its collectives with per-rank counts (decision 0085). */
    private final VariableCollectives variable;
    /** Its reductions with one count per rank: allreduce, reduce, reduceScatterBlock, scan, exscan. */
    private final ReductionCalls reductions;
    /** Its sub-communicators: split, dup, idup, splitByNode, create, createGroup (decisions 0070, 0125, 0149). */
    private final Derivations derivations;
    /** What those four use of this communicator: its checks, shapes, staging and way to run a call. */
    private final CallPlumbing plumbing = new Plumbing();
    private final Transport rails;
    private final Transport shm;
    private final AutoCloseable region;
    private final AlgorithmSelector selector;
    private final int ports;
    private final int groups;
    /** How this rank joined its job (a rendezvous it serves, a launcher's key-value store); the world closes it last. */
    private final AutoCloseable bootstrap;
    private final CallGate gate;
    /** Carries out broadcast.multicast; null when RAILCOLL_MCAST=off. */
    private MulticastBroadcaster multicast;
    /** Carries out the algorithms with node steps in shared memory (*.shm); null when RAILCOLL_SHM=off. */
    /**
     * Per collective, the last shape {@link #shape} built, and the last {@link #reductionShape} built: apart, so that
     * neither takes the other's for its own (a reduction's shape has one master group and its type's element size, a
     * plain one the configured groups), and a {@link #selectedAlgorithm} question changes no call's shape.
     */
    private final Shape[] lastShapes = new Shape[Collective.values().length];
    private final Shape[] lastReductionShapes = new Shape[Collective.values().length];
    /** The last reduction's type and operator (see {@link #reduction}). */
    private Reduction lastReduction;
    /** Native memory for reductions in place and over arrays other than byte[]; null until first needed. */
    private Arena stagingArena;
    private MemorySegment staging;
    private volatile boolean closed;

    /** The world communicator, which owns {@code shared}'s transports, {@code region} and {@code bootstrap}. */
    RailcollCommunicator(int rank, RankTransports shared, CollectiveEngine engine, AutoCloseable region,
                         AlgorithmSelector selector, AutoCloseable bootstrap) {
        this.gate = new CallGate(rank, shared.config.threadSafe());
        this.shared = shared;
        this.context = 0;
        this.name = "world";
        this.shm = shared.shm;
        this.region = region;
        this.rank = rank;
        this.table = shared.table;
        this.placement = table.placement();
        this.jobRanks = java.util.stream.IntStream.range(0, placement.size()).toArray();
        this.engine = engine;
        this.rails = shared.rails;
        this.selector = selector;
        this.ports = shared.ports;
        this.groups = shared.config.groups();
        this.bootstrap = bootstrap;
        this.messages = new PointToPointCalls(gate, shared.pointToPoint(engine, context, name, jobRanks, rank),
                shared.router, plumbing, name, placement.size());
        this.variable = new VariableCollectives(gate, rank, placement, ports, engine, selector, plumbing);
        this.reductions = new ReductionCalls(gate, rank, placement.size(), selector, plumbing);
        this.derivations = new Derivations(gate, plumbing, engine, shared, rank, placement, context, name, jobRanks);
    }

    /** A sub-communicator: its own engine, placement and selection over the rank's shared transports. */
    RailcollCommunicator(RankTransports shared, SplitPlan plan, String name, int[] jobRanks,
                         CollectiveEngine engine) {
        this.gate = new CallGate(plan.rank(), shared.config.threadSafe());
        this.shared = shared;
        this.context = plan.context();
        this.name = name;
        this.shm = shared.shm;
        this.region = null;
        this.rank = plan.rank();
        this.table = shared.table;
        this.placement = plan.placement();
        this.jobRanks = jobRanks;
        this.engine = engine;
        this.rails = shared.rails;
        this.selector = shared.selector();
        this.ports = shared.ports;
        this.groups = shared.config.groups();
        this.bootstrap = null;
        this.messages = new PointToPointCalls(gate, shared.pointToPoint(engine, context, name, jobRanks, rank),
                shared.router, plumbing, name, placement.size());
        this.variable = new VariableCollectives(gate, rank, placement, ports, engine, selector, plumbing);
        this.reductions = new ReductionCalls(gate, rank, placement.size(), selector, plumbing);
        this.derivations = new Derivations(gate, plumbing, engine, shared, rank, placement, context, name, jobRanks);
    }

    /**
     * The view of this communicator's plumbing its collaborators run calls through (decision 0208): each method is
     * one of this communicator's own, called as it is.
     */
    private final class Plumbing implements CallPlumbing {
        @Override
        public void requireOpen() {
            open();
        }

        @Override
        public void checkRoot(int root) {
            RailcollCommunicator.this.checkRoot(root);
        }

        @Override
        public Shape shape(Collective collective, long blockBytes, int root) {
            return RailcollCommunicator.this.shape(collective, blockBytes, root);
        }

        @Override
        public Algorithm select(Shape shape) {
            return RailcollCommunicator.this.select(shape);
        }

        @Override
        public long run(Shape shape, MemorySegment send, MemorySegment recv, boolean nonBlocking) {
            return RailcollCommunicator.this.run(shape, send, recv, nonBlocking);
        }

        @Override
        public long runReduction(Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction,
                                 boolean stageSend) {
            return RailcollCommunicator.this.runReduction(shape, send, recv, reduction, stageSend);
        }

        @Override
        public Shape reductionShape(Collective collective, long bytes, ElementType type, Operator op, int root) {
            return RailcollCommunicator.this.reductionShape(collective, bytes, type, op, root);
        }

        @Override
        public long post(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv,
                         Reduction reduction, boolean stageSend, boolean nonBlocking) {
            return RailcollCommunicator.this.post(algorithm, shape, send, recv, reduction, stageSend, nonBlocking);
        }

        @Override
        public long postStaged(Shape shape, MemorySegment send, boolean stageSend, long recvBytes,
                               MemorySegment resultTo, Reduction reduction) {
            return RailcollCommunicator.this.postStaged(shape, send, stageSend, recvBytes, resultTo, reduction);
        }

        @Override
        public void checkFits(String op, MemorySegment recv, long needed) {
            RailcollCommunicator.this.checkFits(op, recv, needed);
        }

        @Override
        public MemorySegment staging(long bytes) {
            return RailcollCommunicator.this.staging(bytes);
        }

        @Override
        public Reduction reduction(ElementType type, Operator op) {
            return RailcollCommunicator.this.reduction(type, op);
        }

        @Override
        public Request request(long seq, String call) {
            return RailcollCommunicator.this.request(seq, call);
        }

        @Override
        public Request start(String call, java.util.function.LongSupplier start) {
            return RailcollCommunicator.this.start(call, start);
        }
    }

    /** Enables broadcast.multicast through {@code multicast}; opens it now when {@code openNow}. Start-up only. */
    void enableMulticast(MulticastBroadcaster multicast, boolean openNow) {
        this.multicast = multicast;
        selector.enableTransport(io.railcoll.algorithm.broadcast.MulticastBroadcastAlgorithm.TRANSPORT);
        if (openNow) {
            multicast.open();
        }
    }

    /** Lets selection pick the algorithms whose programs hold node steps (the node region is open). Start-up only. */
    void enableNodeRegion() {
        selector.enableTransport(io.railcoll.schedule.NodeRegionUser.TRANSPORT);
    }

    /** Offers the single-copy algorithms: this node agreed that cross-memory attach works (decision 0143). */
    void enableSingleCopy() {
        selector.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
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
                    region instanceof io.railcoll.transport.shm.NodeRegion r ? r.stepArea().peerTransfers() : 0);
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
            if (collective.hasRoot()) {
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

    @Override
    public String name() {
        return name;
    }

    // ---- sub-communicators (decisions 0070, 0125, 0149): Derivations ----

    @Override
    public Optional<Communicator> split(int color, int key) {
        return derivations.split(color, key);
    }

    @Override
    public Communicator dup() {
        return derivations.dup();
    }

    @Override
    public Communicator splitByNode() {
        return derivations.splitByNode();
    }

    @Override
    public Optional<Communicator> create(int[] ranks) {
        return derivations.create(ranks);
    }

    @Override
    public Communicator createGroup(int[] ranks, int tag) {
        return derivations.createGroup(ranks, tag);
    }

    @Override
    public DupInFlight idup() {
        return derivations.idup();
    }

    // ---- point-to-point messages (decision 0080): PointToPointCalls ----

    @Override
    public void send(MemorySegment data, int dest, int tag) {
        messages.send(data, dest, tag);
    }

    @Override
    public void ssend(MemorySegment data, int dest, int tag) {
        messages.ssend(data, dest, tag);
    }

    @Override
    public Status recv(MemorySegment into, int source, int tag) {
        return messages.recv(into, source, tag);
    }

    @Override
    public Status sendRecv(MemorySegment data, int dest, int sendTag, MemorySegment into, int source, int recvTag) {
        return messages.sendRecv(data, dest, sendTag, into, source, recvTag);
    }

    @Override
    public MessageRequest isend(MemorySegment data, int dest, int tag) {
        return messages.isend(data, dest, tag);
    }

    @Override
    public MessageRequest issend(MemorySegment data, int dest, int tag) {
        return messages.issend(data, dest, tag);
    }

    @Override
    public MessageRequest sendInit(MemorySegment data, int dest, int tag) {
        return messages.sendInit(data, dest, tag);
    }

    @Override
    public MessageRequest ssendInit(MemorySegment data, int dest, int tag) {
        return messages.ssendInit(data, dest, tag);
    }

    @Override
    public MessageRequest recvInit(MemorySegment into, int source, int tag) {
        return messages.recvInit(into, source, tag);
    }

    @Override
    public MessageRequest irecv(MemorySegment into, int source, int tag) {
        return messages.irecv(into, source, tag);
    }

    @Override
    public Status probe(int source, int tag) {
        return messages.probe(source, tag);
    }

    @Override
    public Optional<Status> iprobe(int source, int tag) {
        return messages.iprobe(source, tag);
    }

    @Override
    public MatchedMessage mprobe(int source, int tag) {
        return messages.mprobe(source, tag);
    }

    @Override
    public Optional<MatchedMessage> improbe(int source, int tag) {
        return messages.improbe(source, tag);
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
        gate.enter("ibarrier");
        try {
            open();
            return request(run(shape(Collective.BARRIER, 0, 0), NO_BUFFER, NO_BUFFER, true), "ibarrier");
        } finally {
            gate.exit();
        }
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
        gate.enter("ibroadcast");
        try {
            return request(broadcast(buffer, root, true), "ibroadcast");
        } finally {
            gate.exit();
        }
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
        gate.enter("igather");
        try {
            return request(gather(send, recv, root, true), "igather");
        } finally {
            gate.exit();
        }
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
        gate.enter("iallgather");
        try {
            return request(allgather(send, recv, true), "iallgather");
        } finally {
            gate.exit();
        }
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
    public void allgather(MemorySegment buffer, long blockBytes) {
        gate.enter("allgather");
        try {
            allgatherInPlace(buffer, blockBytes, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request iallgather(MemorySegment buffer, long blockBytes) {
        gate.enter("iallgather");
        try {
            return request(allgatherInPlace(buffer, blockBytes, true), "iallgather");
        } finally {
            gate.exit();
        }
    }

    /**
     * The buffer of the last in-place all-gather and this rank's block of it: a loop of like calls slices none (a
     * hot path allocates nothing). Held as the engine's slots hold the last calls' buffers, until the next such call.
     */
    private MemorySegment inPlaceBuffer;
    private MemorySegment inPlaceOwn;

    /**
     * In place (decision 0220): SEND is this rank's own block of {@code buffer}. An algorithm that is
     * {@link io.railcoll.schedule.OwnBlockInPlace} runs with it as it lies; any other gets a copy of it in the call's
     * own memory first (as a reduction in place), since its programs may write that block before they have read it.
     */
    private long allgatherInPlace(MemorySegment buffer, long blockBytes, boolean nonBlocking) {
        open();
        requireNonNull(buffer, "buffer");
        if (blockBytes < 0) {
            throw new IllegalArgumentException("allgather: the block size is negative: " + blockBytes);
        }
        checkFits("allgather", buffer, blockBytes * size());
        if (buffer.isReadOnly()) {
            throw new IllegalArgumentException("allgather: the buffer is read-only");
        }
        Shape shape = shape(Collective.ALLGATHER, blockBytes, 0);
        Algorithm algorithm = select(shape); // opens the multicast group where the algorithm needs it (decision 0218)
        if (buffer != inPlaceBuffer || blockBytes != inPlaceOwn.byteSize()) {
            inPlaceOwn = buffer.asSlice(rank * blockBytes, blockBytes);
            inPlaceBuffer = buffer;
        }
        return runSelected(algorithm, shape, inPlaceOwn, buffer,
                !(algorithm instanceof io.railcoll.schedule.OwnBlockInPlace), nonBlocking);
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
        gate.enter("ialltoall");
        try {
            return request(alltoall(send, recv, true), "ialltoall");
        } finally {
            gate.exit();
        }
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

    // ---- reductions with one count per rank (decision 0211): ReductionCalls ----

    @Override
    public void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        reductions.allreduce(send, recv, type, count, op);
    }

    @Override
    public Request iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return reductions.iallreduce(send, recv, type, count, op);
    }

    @Override
    public Request iallreduce(MemorySegment buffer, ElementType type, long count, Operator op) {
        return iallreduce(buffer, buffer, type, count, op);
    }

    @Override
    public void allreduce(MemorySegment buffer, ElementType type, long count, Operator op) {
        allreduce(buffer, buffer, type, count, op);
    }

    @Override
    public void allreduce(int[] send, int[] recv, Operator op) {
        reductions.allreduce(send, recv, op);
    }

    @Override
    public void allreduce(long[] send, long[] recv, Operator op) {
        reductions.allreduce(send, recv, op);
    }

    @Override
    public void allreduce(float[] send, float[] recv, Operator op) {
        reductions.allreduce(send, recv, op);
    }

    @Override
    public void allreduce(double[] send, double[] recv, Operator op) {
        reductions.allreduce(send, recv, op);
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        reductions.reduce(send, recv, type, count, op, root);
    }

    @Override
    public Request ireduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        return reductions.ireduce(send, recv, type, count, op, root);
    }

    @Override
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long recvCount, Operator op) {
        reductions.reduceScatterBlock(send, recv, type, recvCount, op);
    }

    @Override
    public Request ireduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long recvCount,
                                       Operator op) {
        return reductions.ireduceScatterBlock(send, recv, type, recvCount, op);
    }

    @Override
    public void scan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        reductions.scan(send, recv, type, count, op);
    }

    @Override
    public Request iscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return reductions.iscan(send, recv, type, count, op);
    }

    @Override
    public void exscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        reductions.exscan(send, recv, type, count, op);
    }

    @Override
    public Request iexscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return reductions.iexscan(send, recv, type, count, op);
    }

    // ---- argument helpers the collaborators share ----

    /**
     * The first {@code bytes} of {@code m}: {@code m} itself when that is all of it, so that the common call (a buffer
     * of exactly the call's size) allocates no slice.
     */
    static MemorySegment leading(MemorySegment m, long bytes) {
        return m.byteSize() == bytes ? m : m.asSlice(0, bytes);
    }

    /** Whether the transports can read or write {@code m} directly: native memory or a byte[] (decision 0009). */
    static boolean transportsReach(MemorySegment m) {
        return m.heapBase().isEmpty() || m.heapBase().get() instanceof byte[];
    }

    /** As {@link #requireNonNull}, but heap segments over any array pass: the reductions stage them. */
    static void requireUsable(MemorySegment m, String what) {
        if (m == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (transportsReach(m)) {
            requireNonNull(m, what);
        } else if (!m.scope().isAlive()) {
            throw new IllegalArgumentException(what + ": the segment's arena is already closed");
        }
    }

    // ---- scatter ----

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        gate.enter("scatter");
        try {
            scatter(send, recv, root, false);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Request iscatter(MemorySegment send, MemorySegment recv, int root) {
        gate.enter("iscatter");
        try {
            return request(scatter(send, recv, root, true), "iscatter");
        } finally {
            gate.exit();
        }
    }

    private long scatter(MemorySegment send, MemorySegment recv, int root, boolean nonBlocking) {
            open();
            checkRoot(root);
            int n = size();
            MemorySegment s = NO_BUFFER;
            MemorySegment r;
            long b;
            if (rank == root) {
            requireNonNull(send, "send (on the root)");
            if (recv == null) {
                if (send.byteSize() % n != 0) {
                    throw new IllegalArgumentException("scatter: in place, the root's send buffer ("
                            + send.byteSize() + " bytes) must hold one equal block per rank (" + n + " ranks)");
                }
                b = send.byteSize() / n;
                Shape shape = shape(Collective.SCATTER, b, root);
                MemorySegment all = send.asSlice(0, b * n);
                if (nonBlocking) {
                    return postStaged(shape, all, false, b, null, null); // its own block stays where it is
                }
                return run(shape, all, staging(b).asSlice(0, b), false);
            } else {
                requireNonNull(recv, "recv");
                b = recv.byteSize();
                checkFits("scatter", recv, 0);
                if (send.byteSize() < b * n) {
                    throw new IllegalArgumentException("scatter: the root's send buffer holds " + send.byteSize()
                            + " bytes but " + n + " ranks x " + b + " bytes need " + b * n);
                }
                if (send.asSlice(0, b * n).asOverlappingSlice(recv).isPresent()) {
                    throw new IllegalArgumentException("scatter: send and recv overlap; pass a null recv on the"
                            + " root to scatter in place");
                }
                r = recv;
            }
            s = send.asSlice(0, b * n);
        } else {
            requireNonNull(recv, "recv");
            checkFits("scatter", recv, 0);
            b = recv.byteSize();
            r = recv;
        }
        return run(shape(Collective.SCATTER, b, root), s, r, nonBlocking);
    }

    // ---- the v-variants: per-rank counts (decision 0085): VariableCollectives ----

    @Override
    public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        variable.gatherv(send, recv, counts, displs, root);
    }

    @Override
    public Request igatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        return variable.igatherv(send, recv, counts, displs, root);
    }

    @Override
    public void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        variable.scatterv(send, counts, displs, recv, root);
    }

    @Override
    public Request iscatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        return variable.iscatterv(send, counts, displs, recv, root);
    }

    @Override
    public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        variable.allgatherv(send, recv, counts, displs);
    }

    @Override
    public Request iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        return variable.iallgatherv(send, recv, counts, displs);
    }

    @Override
    public void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
                          long[] recvCounts, long[] recvDispls) {
        variable.alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    @Override
    public Request ialltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
                              long[] recvCounts, long[] recvDispls) {
        return variable.ialltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    @Override
    public void reduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] recvCounts, Operator op) {
        variable.reduceScatter(send, recv, type, recvCounts, op);
    }

    @Override
    public Request ireduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] recvCounts,
                                  Operator op) {
        return variable.ireduceScatter(send, recv, type, recvCounts, op);
    }

    // ---- staging, reductions and requests ----

    /** As {@link #run} (blocking), for a schedule that combines data with {@code reduction}; {@code stageSend}: in place. */
    private long runReduction(Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction,
                              boolean stageSend) {
        return post(select(shape), shape, send, recv, reduction, stageSend, false);
    }

    /**
     * Starts a non-blocking call whose RECV ({@code recvBytes}) is memory of its engine slot, copied into
     * {@code resultTo} (null: dropped) when it finishes; {@code stageSend} copies SEND there too (decision 0090).
     */
    private long postStaged(Shape shape, MemorySegment send, boolean stageSend, long recvBytes, MemorySegment resultTo,
                            Reduction reduction) {
        return engine.postStaged(select(shape), shape, send, stageSend, recvBytes, resultTo, reduction);
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
            return request(start.getAsLong(), call);
        } finally {
            gate.exit();
        }
    }

    /**
     * The request of call {@code seq}, started by {@code call} inside the thread contract. The common i-forms call this
     * inline rather than through {@link #start}, whose lambda would capture their arguments: one allocation per call
     * besides the request itself.
     */
    private Request request(long seq, String call) {
        return new Request(engine, gate, seq, call);
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

    private Shape reductionShape(Collective collective, long bytes, ElementType type, Operator op, int root) {
        Shape last = lastReductionShapes[collective.ordinal()];
        if (last != null && last.blockBytes() == bytes && last.elementBytes() == type.sizeBytes()
                && last.commutative() == op.commutative() && last.root() == root) {
            return last;
        }
        Shape s = Shape.reduction(collective, placement, ports, bytes, root, type.sizeBytes(), op.commutative());
        lastReductionShapes[collective.ordinal()] = s;
        return s;
    }

    static long vectorBytes(String call, ElementType type, long count) {
        if (count < 0 || count > Long.MAX_VALUE / type.sizeBytes()) {
            throw new IllegalArgumentException(call + ": count " + count + " is out of range");
        }
        return type.bytes(count);
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
     * The algorithm selection picks for {@code shape}, ready to post: one whose program multicasts opens the
     * multicast group first if it is not yet open. Every path that posts a selected algorithm, blocking or not, comes
     * here: a non-blocking all-to-allv's count exchange once posted a multicast all-gather on a group that its
     * blocking peers opened at that call and it did not (decision 0218).
     */
    private Algorithm select(Shape shape) {
        Algorithm algorithm = selector.select(shape);
        if (algorithm instanceof MulticastUser && !multicast.isOpen()) {
            // Opening the group is collective and runs calls of its own: every rank does it at this same call.
            engine.awaitAllInFlight();
            multicast.open();
        }
        return algorithm;
    }

    /** Runs a call (blocking) or starts it (non-blocking), and returns its sequence number. */
    private long run(Shape shape, MemorySegment send, MemorySegment recv, boolean nonBlocking) {
        return runSelected(select(shape), shape, send, recv, false, nonBlocking);
    }

    /** As {@link #run}, with the algorithm chosen already; {@code stageSend}: SEND copied into the call's memory first. */
    private long runSelected(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv,
                             boolean stageSend, boolean nonBlocking) {
        long recvBytes = shape.recvBytes(rank);
        return post(algorithm, shape, send, recv.byteSize() == recvBytes ? recv : recv.asSlice(0, recvBytes), null,
                stageSend, nonBlocking);
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
            throw new IllegalStateException("rank " + rank + ": the communicator " + name + " is closed");
        }
    }

    private void checkRoot(int root) {
        if (root < 0 || root >= size()) {
            throw new IllegalArgumentException("root " + root + " is out of range: the communicator has size " + size());
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

    /**
     * {@link #requireNonNull(Object, String)} naming {@code call + ": " + what}, joined only when it fails (a message's
     * checks run at every send and receive, issue 21).
     */
    static void requireNonNull(Object o, String call, String what) {
        if (o == null || o instanceof MemorySegment m && !m.scope().isAlive()) {
            requireNonNull(o, call + ": " + what);
        }
    }

    static void requireNonNull(Object o, String what) {
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

    /**
     * Closes a sub-communicator: frames of its context are refused from now on, its engine's and staging memory are
     * freed; the transports, which the world owns, stay open. Nothing is sent: the ranks of a communicator need not
     * close it at the same time.
     */
    private synchronized void closeSub() {
        if (closed) {
            return;
        }
        closed = true;
        shared.open.remove(this);
        shared.router.unregister(context);
        shared.router.unregister(SplitPlan.pointToPointContext(context));
        shared.driver.leave();
        engine.close();
        if (stagingArena != null) {
            stagingArena.close();
        }
    }

    private void closeOnce() {
        if (closed) {
            return;
        }
        if (context != 0) {
            closeSub();
            return;
        }
        // Sub-communicators still open go first: they use the transports closed below (decision 0071).
        for (RailcollCommunicator child : shared.open.toArray(new RailcollCommunicator[0])) {
            child.closeSub();
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
            // closed: the first failure travels to every rank as an ABORT ahead of the goodbyes. A mismatch relayed
            // this way stays a mismatch on the ranks that hear of it here first.
            String reason = CollectiveEngine.abortReason(failure);
            for (Transport t : new Transport[] {shm, rails}) {
                if (t == null) {
                    continue;
                }
                try {
                    t.abortAll(reason);
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
