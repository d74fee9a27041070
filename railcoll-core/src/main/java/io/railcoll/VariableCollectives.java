package io.railcoll;

import io.railcoll.engine.CollectiveEngine;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.Shape;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.topology.Placement;

import java.lang.foreign.MemorySegment;

import static io.railcoll.RailcollCommunicator.NO_BUFFER;
import static io.railcoll.RailcollCommunicator.leading;
import static io.railcoll.RailcollCommunicator.requireNonNull;
import static io.railcoll.RailcollCommunicator.requireUsable;
import static io.railcoll.RailcollCommunicator.transportsReach;
import static io.railcoll.RailcollCommunicator.vectorBytes;

/**
 * A communicator's v-variants, the collectives with per-rank counts (decision 0085): {@code gatherv},
 * {@code scatterv}, {@code allgatherv}, {@code alltoallv} and {@code reduceScatter}, blocking and non-blocking. Each
 * checks its counts and buffers before anything is sent, builds the shape that holds the counts, and runs the
 * schedule on packed buffers: a side whose blocks do not lie packed, that the transports cannot reach, or that
 * overlaps the other (in place) is packed into staging memory and unpacked after ({@link VariableLayout}). Moved out
 * of {@link RailcollCommunicator}, which delegates to it, unchanged (decision 0208); it runs calls through the
 * communicator's {@link CallPlumbing}, and posts the packed and chained non-blocking calls to the engine itself.
 *
 * <p>Threading: any thread the communicator's gate admits. Made and owned by its communicator; nothing to close.
 */
final class VariableCollectives {
    private final CallGate gate;
    private final int rank;
    private final int size;
    private final Placement placement;
    private final int ports;
    private final CollectiveEngine engine;
    private final AlgorithmSelector selector;
    /** The communicator's open and root checks, shapes, staging memory and way to run a call. */
    private final CallPlumbing plumbing;
    /** The last all-gatherv's block layouts, for a repeat with the same counts (decision 0160). */
    private final LastAllgathervLayouts lastAllgathervLayouts;
    /** The shape of the last v-variant call per collective (see {@link #variableShape}); the communicator keeps its own. */
    private final Shape[] lastShapes = new Shape[io.railcoll.schedule.Collective.values().length];

    VariableCollectives(CallGate gate, int rank, Placement placement, int ports, CollectiveEngine engine,
                        AlgorithmSelector selector, CallPlumbing plumbing) {
        this.gate = gate;
        this.rank = rank;
        this.size = placement.size();
        this.placement = placement;
        this.ports = ports;
        this.engine = engine;
        this.selector = selector;
        this.plumbing = plumbing;
        this.lastAllgathervLayouts = new LastAllgathervLayouts(rank);
    }

    public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        gate.enter("gatherv");
        try {
            gatherv("gatherv", send, recv, counts, displs, root, false);
        } finally {
            gate.exit();
        }
    }

    /** The counts and displacements are copied: the caller may reuse its arrays at once (decision 0108). */
    Request igatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        long[] c = copy(counts);
        long[] d = copy(displs);
        return plumbing.start("igatherv", () -> gatherv("igatherv", send, recv, c, d, root, true));
    }

    private long gatherv(String call, MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root,
                         boolean nonBlocking) {
        checkRooted(call, root, counts);
        VariableLayout out = null;
        VariableLayout in = null;
        if (rank == root) {
            requireNonNull(recv, "recv (on the root)");
            checkWritable(call, recv);
            in = new VariableLayout(call, "recv", counts, displs, recv.byteSize(), true);
            if (send == null) {
                // In place: the root's block already lies in recv, where it stays.
                send = recv;
                out = new VariableLayout(call, "recv (the root's own block, in place)",
                        new long[] {counts[root]}, new long[] {in.displacement(root)}, recv.byteSize(), false);
            }
        } else {
            recv = null;
            if (send == null && counts[rank] == 0) {
                send = NO_BUFFER; // a rank with nothing to send may pass no buffer
            }
        }
        if (out == null) {
            requireNonNull(send, "send");
            out = new VariableLayout(call, "send", new long[] {counts[rank]}, null, send.byteSize(), false);
        }
        return runVariable(variableShape(Collective.GATHERV, root, counts, 1, true), null, send, out, recv, in,
                nonBlocking);
    }

    void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        gate.enter("scatterv");
        try {
            scatterv("scatterv", send, counts, displs, recv, root, false);
        } finally {
            gate.exit();
        }
    }

    Request iscatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        long[] c = copy(counts);
        long[] d = copy(displs);
        return plumbing.start("iscatterv", () -> scatterv("iscatterv", send, c, d, recv, root, true));
    }

    private long scatterv(String call, MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root,
                          boolean nonBlocking) {
        checkRooted(call, root, counts);
        VariableLayout out = null;
        VariableLayout in = null;
        if (rank == root) {
            requireNonNull(send, "send (on the root)");
            out = new VariableLayout(call, "send", counts, displs, send.byteSize(), false);
        } else {
            send = null;
        }
        if (recv == null && rank != root && counts[rank] == 0) {
            recv = NO_BUFFER; // a rank with nothing to receive may pass no buffer
        }
        if (recv != null || rank != root) {
            requireNonNull(recv, "recv");
            checkWritable(call, recv);
            in = new VariableLayout(call, "recv", new long[] {counts[rank]}, null, recv.byteSize(), true);
        } // else in place: the root's own block stays in send; the schedule's copy of it lands in staging
        return runVariable(variableShape(Collective.SCATTERV, root, counts, 1, true), null, send, out, recv, in,
                nonBlocking);
    }

    void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        gate.enter("allgatherv");
        try {
            allgatherv("allgatherv", send, recv, counts, displs, false);
        } finally {
            gate.exit();
        }
    }

    /**
     * Inline, with the caller's arrays (no copies, no lambda): everything kept past this call is built over copies of
     * them ({@link LastAllgathervLayouts}, the shape's {@code BlockCounts}), and nothing reads them after it returns.
     */
    Request iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        gate.enter("iallgatherv");
        try {
            return plumbing.request(allgatherv("iallgatherv", send, recv, counts, displs, true), "iallgatherv");
        } finally {
            gate.exit();
        }
    }

    private long allgatherv(String call, MemorySegment send, MemorySegment recv, long[] counts, long[] displs,
                            boolean nonBlocking) {
        plumbing.requireOpen();
        checkCounts(call, counts);
        requireNonNull(recv, "recv");
        checkWritable(call, recv);
        VariableLayout in = lastAllgathervLayouts.in(call, counts, displs, recv.byteSize(),
                send == null ? -1 : send.byteSize());
        VariableLayout out = lastAllgathervLayouts.out();
        Shape shape = variableShape(Collective.ALLGATHERV, 0, counts, 1, true);
        if (send == null) {
            // In place: this rank's block already lies in recv. Where recv is packed and the transports reach it, an
            // OwnBlockInPlace algorithm reads the block where it lies and nothing is staged (decision 0220).
            Algorithm algorithm = plumbing.select(shape); // opens the multicast group if needed (decision 0218)
            if (in.packed() && transportsReach(recv) && algorithm instanceof OwnBlockInPlace) {
                long recvBytes = shape.recvBytes(rank);
                MemorySegment own = counts[rank] == 0 ? NO_BUFFER : ownBlock(recv, in.displacement(rank), counts[rank]);
                MemorySegment r = recvBytes == 0 ? NO_BUFFER : leading(recv, recvBytes);
                return nonBlocking
                        ? engine.postPacked(new CollectiveEngine.PackedCall(algorithm, shape, own, counts[rank], null,
                                r, recvBytes, null, null))
                        : plumbing.run(shape, own, r, false);
            }
            send = recv;
        }
        return runVariable(shape, null, send, out, recv, in, nonBlocking);
    }

    /**
     * This rank's block of an in-place all-gatherv's {@code recv}: the last one is kept, so a loop of like calls slices
     * none (a hot path allocates nothing; a transport also keeps its view of a segment by identity).
     */
    private MemorySegment ownBlock(MemorySegment recv, long offset, long bytes) {
        MemorySegment own = inPlaceOwn;
        if (recv != inPlaceRecv || own == null || inPlaceOffset != offset || own.byteSize() != bytes) {
            own = recv.asSlice(offset, bytes);
            inPlaceRecv = recv;
            inPlaceOffset = offset;
            inPlaceOwn = own;
        }
        return own;
    }

    /** The last in-place all-gatherv's buffer, and this rank's block of it at {@link #inPlaceOffset}. */
    private MemorySegment inPlaceRecv;
    private MemorySegment inPlaceOwn;
    private long inPlaceOffset;

    void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
                          long[] recvCounts, long[] recvDispls) {
        gate.enter("alltoallv");
        try {
            alltoallv("alltoallv", send, sendCounts, sendDispls, recv, recvCounts, recvDispls, false);
        } finally {
            gate.exit();
        }
    }

    /**
     * Two calls in the engine under one request: the all-gather of the send counts, and the data, whose number is
     * reserved now and whose shape is built when the counts have arrived (decision 0108). Nothing waits here.
     */
    Request ialltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
                              long[] recvCounts, long[] recvDispls) {
        long[] sc = copy(sendCounts);
        long[] sd = copy(sendDispls);
        long[] rc = copy(recvCounts);
        long[] rd = copy(recvDispls);
        return plumbing.start("ialltoallv", () -> alltoallv("ialltoallv", send, sc, sd, recv, rc, rd, true));
    }

    private long alltoallv(String call, MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
                           long[] recvCounts, long[] recvDispls, boolean nonBlocking) {
        plumbing.requireOpen();
        requireNonNull(recv, "recv");
        checkWritable(call, recv);
        checkCounts(call + " (recvCounts)", recvCounts);
        if (send == null) {
            // In place (MPI_IN_PLACE): recv's blocks are sent, with recv's counts, and replaced.
            send = recv;
            sendCounts = recvCounts;
            sendDispls = recvDispls;
        } else {
            requireNonNull(send, "send");
            checkCounts(call + " (sendCounts)", sendCounts);
        }
        VariableLayout out = new VariableLayout(call, "send", sendCounts, sendDispls, send.byteSize(), false);
        VariableLayout in = new VariableLayout(call, "recv", recvCounts, recvDispls, recv.byteSize(), true);
        if (!nonBlocking) {
            long[] matrix = exchangeRows(sendCounts, recvCounts);
            return runVariable(variableShape(Collective.ALLTOALLV, 0, matrix, 1, true), null, send, out, recv, in,
                    false);
        }
        int n = size;
        Shape rows = plumbing.shape(Collective.ALLGATHER, (long) Long.BYTES * n, 0);
        CollectiveEngine.PackedCall exchange = new CollectiveEngine.PackedCall(plumbing.select(rows), rows,
                MemorySegment.ofArray(rowBytes(sendCounts)), (long) Long.BYTES * n, null, null,
                (long) Long.BYTES * n * n, null, null);
        MemorySegment s = send;
        // The data's algorithm is chosen when the counts have arrived, but as forced now: the program may clear or
        // change the forced algorithm before then, and ranks that ran the call blocking chose under this one.
        String forcedAtStart = selector.forced(Collective.ALLTOALLV).orElse(null);
        return engine.postChained(exchange, all -> {
            Shape shape = variableShape(Collective.ALLTOALLV, 0, matrixOf(all, recvCounts), 1, true);
            return packedCall(selector.selectAsForced(shape, forcedAtStart), shape, null, s, out, recv, in);
        }, call);
    }

    /**
     * The all-to-allv's count matrix: every rank's send counts (its row) all-gathered, with this rank's own column
     * replaced by the counts it expects to receive. Consistent arguments give every rank the same matrix; a rank
     * that expects other counts than its peers send has another one, whose digest fails the call on every rank as a
     * count mismatch (decision 0085).
     */
    private long[] exchangeRows(long[] sendCounts, long[] recvCounts) {
        int n = size;
        byte[] all = new byte[Long.BYTES * n * n];
        plumbing.run(plumbing.shape(Collective.ALLGATHER, Long.BYTES * n, 0),
                MemorySegment.ofArray(rowBytes(sendCounts)), MemorySegment.ofArray(all), false);
        return matrixOf(MemorySegment.ofArray(all), recvCounts);
    }

    /** This rank's send counts as the little-endian longs its all-to-allv's count exchange sends. */
    private static byte[] rowBytes(long[] sendCounts) {
        java.nio.ByteBuffer mine = java.nio.ByteBuffer.allocate(Long.BYTES * sendCounts.length)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long c : sendCounts) {
            mine.putLong(c);
        }
        return mine.array();
    }

    /** The gathered rows as the count matrix, with this rank's column replaced by {@code recvCounts}. */
    private long[] matrixOf(MemorySegment rows, long[] recvCounts) {
        int n = size;
        long[] matrix = new long[n * n];
        for (int i = 0; i < n * n; i++) {
            matrix[i] = rows.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN),
                    (long) i * Long.BYTES);
        }
        for (int i = 0; i < n; i++) {
            matrix[i * n + rank] = recvCounts[i];
        }
        return matrix;
    }

    void reduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] recvCounts, Operator op) {
        gate.enter("reduceScatter");
        try {
            reduceScatter("reduceScatter", send, recv, type, recvCounts, op, false);
        } finally {
            gate.exit();
        }
    }

    Request ireduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] recvCounts,
                                  Operator op) {
        long[] c = copy(recvCounts);
        return plumbing.start("ireduceScatter", () -> reduceScatter("ireduceScatter", send, recv, type, c, op, true));
    }

    private long reduceScatter(String call, MemorySegment send, MemorySegment recv, ElementType type,
                               long[] recvCounts, Operator op, boolean nonBlocking) {
        plumbing.requireOpen();
        Reduction reduction = plumbing.reduction(type, op);
        checkCounts(call, recvCounts);
        long[] bytes = new long[recvCounts.length];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = vectorBytes(call, type, recvCounts[i]);
        }
        if (recv == null && bytes[rank] == 0) {
            recv = NO_BUFFER; // a rank with nothing to receive may pass no buffer
        }
        requireUsable(send, "send");
        requireUsable(recv, "recv");
        checkWritable(call, recv);
        VariableLayout out = new VariableLayout(call, "send", bytes, null, send.byteSize(), false);
        VariableLayout in = new VariableLayout(call, "recv", new long[] {bytes[rank]}, null, recv.byteSize(), true);
        return runVariable(variableShape(Collective.REDUCE_SCATTERV, 0, bytes, type.sizeBytes(), op.commutative()),
                reduction, send, out, recv, in, nonBlocking);
    }

    private static long[] copy(long[] a) {
        return a == null ? null : a.clone();
    }

    /**
     * Runs a v-variant on packed buffers: a side whose blocks do not lie packed at offset 0, or that the transports
     * cannot reach (a heap array other than byte[]), or a send that overlaps recv (in place), goes through staging
     * memory, packed before the call and unpacked after. {@code recv} null with receive bytes: the schedule's result
     * is not wanted (a scatterv root in place). A blocking call stages in the communicator's memory; a non-blocking
     * one in its engine slot's, packed when it starts and unpacked when its last op has run (decision 0108).
     */
    private long runVariable(Shape shape, Reduction reduction, MemorySegment send, VariableLayout out,
                             MemorySegment recv, VariableLayout in, boolean nonBlocking) {
        if (nonBlocking) {
            return engine.postPacked(packedCall(plumbing.select(shape), shape, reduction, send, out, recv, in));
        }
        long sendBytes = shape.sendBytes(rank);
        long recvBytes = shape.recvBytes(rank);
        boolean stageSend = stagesSend(sendBytes, send, out, recv, recvBytes);
        boolean stageRecv = stagesRecv(recvBytes, recv, in);
        MemorySegment s = sendBytes == 0 ? NO_BUFFER : stageSend ? null : leading(send, sendBytes);
        MemorySegment r = recvBytes == 0 ? NO_BUFFER : stageRecv ? null : leading(recv, recvBytes);
        if (stageSend || stageRecv) {
            MemorySegment staged = plumbing.staging((stageSend ? sendBytes : 0) + (stageRecv ? recvBytes : 0));
            if (stageSend) {
                s = staged.asSlice(0, sendBytes);
                out.pack(send, s);
            }
            if (stageRecv) {
                r = staged.asSlice(stageSend ? sendBytes : 0, recvBytes);
            }
        }
        long seq = reduction != null ? plumbing.runReduction(shape, s, r, reduction, false)
                : plumbing.run(shape, s, r, false);
        if (stageRecv && recv != null) {
            in.unpack(r, recv);
        }
        return seq;
    }

    /** A non-blocking v-variant for the engine: what {@link #runVariable} stages goes to the call's slot instead. */
    private CollectiveEngine.PackedCall packedCall(Algorithm algorithm, Shape shape, Reduction reduction,
                                                   MemorySegment send, VariableLayout out, MemorySegment recv,
                                                   VariableLayout in) {
        long sendBytes = shape.sendBytes(rank);
        long recvBytes = shape.recvBytes(rank);
        boolean stageSend = stagesSend(sendBytes, send, out, recv, recvBytes);
        boolean stageRecv = stagesRecv(recvBytes, recv, in);
        return new CollectiveEngine.PackedCall(algorithm, shape,
                sendBytes == 0 ? NO_BUFFER : stageSend ? null : leading(send, sendBytes), sendBytes,
                stageSend ? staged -> out.pack(send, staged) : null,
                recvBytes == 0 ? NO_BUFFER : stageRecv ? null : leading(recv, recvBytes), recvBytes,
                stageRecv && recv != null ? staged -> in.unpack(staged, recv) : null, reduction);
    }

    private static boolean stagesSend(long sendBytes, MemorySegment send, VariableLayout out, MemorySegment recv,
                                      long recvBytes) {
        boolean overlap = sendBytes > 0 && recv != null && recvBytes > 0 && send.asOverlappingSlice(recv).isPresent();
        return sendBytes > 0 && (!out.packed() || !transportsReach(send) || overlap);
    }

    private static boolean stagesRecv(long recvBytes, MemorySegment recv, VariableLayout in) {
        return recvBytes > 0 && (recv == null || !in.packed() || !transportsReach(recv));
    }

    /** A v-variant's shape; the last one per collective is kept, so a loop of like calls builds none. */
    private Shape variableShape(Collective collective, int root, long[] countBytes, int elementBytes,
                                boolean commutative) {
        Shape last = lastShapes[collective.ordinal()];
        if (last != null && last.root() == root && last.elementBytes() == elementBytes
                && last.commutative() == commutative && last.counts().sameAs(countBytes)) {
            return last;
        }
        io.railcoll.schedule.BlockCounts counts;
        try {
            counts = collective == Collective.ALLTOALLV ? io.railcoll.schedule.BlockCounts.matrix(size, countBytes)
                    : io.railcoll.schedule.BlockCounts.perRank(countBytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(collective.id() + ": " + e.getMessage(), e);
        }
        Shape s = Shape.variable(collective, placement, ports, root, counts, elementBytes, commutative);
        lastShapes[collective.ordinal()] = s;
        return s;
    }

    /** What a v-variant with a root checks first, in this order: the communicator is open, the root, the counts. */
    private void checkRooted(String call, int root, long[] counts) {
        plumbing.requireOpen();
        plumbing.checkRoot(root);
        checkCounts(call, counts);
    }

    /** One non-negative count per rank. */
    private void checkCounts(String call, long[] counts) {
        if (counts == null) {
            throw new IllegalArgumentException(call + ": the counts must not be null");
        }
        if (counts.length != size) {
            throw new IllegalArgumentException(call + ": " + counts.length + " counts, expected " + size
                    + " (one per rank)");
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 0) {
                throw new IllegalArgumentException(call + ": the count of rank " + i + " is negative: " + counts[i]);
            }
        }
    }

    private static void checkWritable(String call, MemorySegment recv) {
        if (recv.isReadOnly()) {
            throw new IllegalArgumentException(call + ": the receive buffer is read-only");
        }
    }
}
