package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.select.AlgorithmSelector;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;

import static io.railcoll.RailcollCommunicator.NO_BUFFER;
import static io.railcoll.RailcollCommunicator.leading;
import static io.railcoll.RailcollCommunicator.requireNonNull;
import static io.railcoll.RailcollCommunicator.requireUsable;
import static io.railcoll.RailcollCommunicator.transportsReach;
import static io.railcoll.RailcollCommunicator.vectorBytes;

/**
 * A communicator's reductions with one count for every rank: {@code allreduce} (over segments and over int, long,
 * float and double arrays), {@code reduce}, {@code reduceScatterBlock}, {@code scan}, {@code exscan}, blocking and
 * non-blocking. Each checks every argument before anything is sent, and stages through native memory what the
 * transports cannot use (heap segments over arrays other than byte[]; SEND that is also RECV, in place): a blocking
 * call through the communicator's staging memory, a non-blocking one through its engine slot's (decision 0090). The
 * v-variant {@code reduceScatter} is {@link VariableCollectives}'. Moved out of {@link RailcollCommunicator}, which
 * delegates to it, unchanged (decision 0211); it runs calls through the communicator's {@link CallPlumbing}, whose
 * reduction shapes, staging memory and kept reduction stay the communicator's.
 *
 * <p>Threading: any thread the communicator's gate admits. Made and owned by its communicator; nothing to close.
 */
final class ReductionCalls {
    private final CallGate gate;
    private final int rank;
    private final int size;
    /** Picks the algorithm of a non-blocking call posted here. */
    private final AlgorithmSelector selector;
    /** The communicator's checks, reduction shapes, staging memory and ways to post and run a call. */
    private final CallPlumbing plumbing;

    ReductionCalls(CallGate gate, int rank, int size, AlgorithmSelector selector, CallPlumbing plumbing) {
        this.gate = gate;
        this.rank = rank;
        this.size = size;
        this.selector = selector;
        this.plumbing = plumbing;
    }

    void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        gate.enter("allreduce");
        try {
            allreduceEntered(send, recv, type, count, op);
        } finally {
            gate.exit();
        }
    }

    /** Through {@link #combine}, which gives arrays other than byte[] memory of the call's own (decision 0090). */
    Request iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return combineNonBlocking("iallreduce", Collective.ALLREDUCE, send, recv, type, count, op, 0);
    }

    private void allreduceEntered(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        plumbing.requireOpen();
        requireNonNull(send, "send");
        requireNonNull(recv, "recv");
        Reduction reduction = plumbing.reduction(type, op);
        long bytes = vectorBytes("allreduce", type, count);
        checkHolds("allreduce", "send", send, bytes, type, count);
        checkHolds("allreduce", "recv", recv, bytes, type, count);
        plumbing.checkFits("allreduce", recv, bytes);
        MemorySegment s = leading(send, bytes);
        MemorySegment r = leading(recv, bytes);
        if (s.asOverlappingSlice(r).isPresent()) {
            if (s.address() != r.address() || !s.heapBase().equals(r.heapBase())) {
                throw new IllegalArgumentException("allreduce: send and recv overlap without being the same range;"
                        + " pass the same range (or the in-place form) to reduce in place");
            }
            // In place: the call's own copy of the data is SEND (a schedule never reads what it writes).
            plumbing.runReduction(allreduceShape(bytes, type, op), r, r, reduction, true);
            return;
        }
        plumbing.runReduction(allreduceShape(bytes, type, op), s, r, reduction, false);
    }

    void allreduce(int[] send, int[] recv, Operator op) {
        requireArrays(send, recv);
        allreduceStaged(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.INT, send.length, op);
    }

    void allreduce(long[] send, long[] recv, Operator op) {
        requireArrays(send, recv);
        allreduceStaged(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.LONG, send.length, op);
    }

    void allreduce(float[] send, float[] recv, Operator op) {
        requireArrays(send, recv);
        allreduceStaged(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.FLOAT, send.length, op);
    }

    void allreduce(double[] send, double[] recv, Operator op) {
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
        plumbing.requireOpen();
        Reduction reduction = plumbing.reduction(type, op);
        long bytes = vectorBytes("allreduce", type, count);
        checkHolds("allreduce", "recv", recv, bytes, type, count);
        MemorySegment staged = plumbing.staging(2 * bytes);
        MemorySegment s = staged.asSlice(0, bytes);
        MemorySegment r = staged.asSlice(bytes, bytes);
        MemorySegment.copy(send, 0, s, 0, bytes);
        plumbing.runReduction(allreduceShape(bytes, type, op), s, r, reduction, false);
        MemorySegment.copy(r, 0, recv, 0, bytes);
    }

    /** All-reduce's shape: one master group, the type's element size, the operator's commutativity. */
    private Shape allreduceShape(long bytes, ElementType type, Operator op) {
        return plumbing.reductionShape(Collective.ALLREDUCE, bytes, type, op, 0);
    }

    // ---- reduce, reduce-scatter, scan, exscan ----

    void reduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        combineBlocking("reduce", Collective.REDUCE, send, recv, type, count, op, root);
    }

    Request ireduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        return combineNonBlocking("ireduce", Collective.REDUCE, send, recv, type, count, op, root);
    }

    void reduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long recvCount, Operator op) {
        combineBlocking("reduceScatterBlock", Collective.REDUCE_SCATTER, send, recv, type, recvCount, op, 0);
    }

    Request ireduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long recvCount,
                                Operator op) {
        return combineNonBlocking("ireduceScatterBlock", Collective.REDUCE_SCATTER, send, recv, type, recvCount, op, 0);
    }

    void scan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        combineBlocking("scan", Collective.SCAN, send, recv, type, count, op, 0);
    }

    Request iscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return combineNonBlocking("iscan", Collective.SCAN, send, recv, type, count, op, 0);
    }

    void exscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        combineBlocking("exscan", Collective.EXSCAN, send, recv, type, count, op, 0);
    }

    Request iexscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return combineNonBlocking("iexscan", Collective.EXSCAN, send, recv, type, count, op, 0);
    }

    private void combineBlocking(String call, Collective collective, MemorySegment send, MemorySegment recv,
                                 ElementType type, long count, Operator op, int root) {
        gate.enter(call);
        try {
            combine(call, collective, send, recv, type, count, op, root, false);
        } finally {
            gate.exit();
        }
    }

    /** A non-blocking reduction: {@link #combine} in the thread contract; its sequence number becomes the request. */
    private Request combineNonBlocking(String call, Collective collective, MemorySegment send, MemorySegment recv,
                                       ElementType type, long count, Operator op, int root) {
        gate.enter(call);
        try {
            return plumbing.request(combine(call, collective, send, recv, type, count, op, root, true), call);
        } finally {
            gate.exit();
        }
    }

    /**
     * A reduction other than all-reduce: checks every argument before anything is sent, stages what the transports
     * cannot use (heap segments over arrays other than byte[]; a SEND that is also RECV, in place) through native
     * memory, and copies the result back. {@code count} is the elements of one block: the vector of reduce and the
     * scans, the block each rank receives of a reduce-scatter, all-reduce's vector. A blocking call stages through
     * the communicator's memory; a non-blocking one through its engine slot's (decision 0090). Called inside the
     * thread contract; returns the call's sequence number.
     */
    private long combine(String call, Collective collective, MemorySegment send, MemorySegment recv, ElementType type,
                         long count, Operator op, int root, boolean nonBlocking) {
        plumbing.requireOpen();
        Reduction reduction = plumbing.reduction(type, op);
        if (collective.hasRoot()) {
            plumbing.checkRoot(root);
        }
        long bytes = vectorBytes(call, type, count);
        long sendBytes = collective.sendBytes(bytes, size, rank, root);
        long recvBytes = collective.recvBytes(bytes, size, rank, root);
        if (collective == Collective.REDUCE_SCATTER && bytes > 0 && sendBytes / size != bytes) {
            throw new IllegalArgumentException(call + ": " + size + " blocks of " + count + " " + type
                    + " elements overflow a long");
        }
        requireUsable(send, "send");
        checkHolds(call, "send", send, sendBytes, type, sendBytes / type.sizeBytes());
        MemorySegment s = leading(send, sendBytes);
        MemorySegment r = NO_BUFFER;
        if (recvBytes > 0) {
            requireUsable(recv, rank == root && collective == Collective.REDUCE ? "recv (on the root)" : "recv");
            checkHolds(call, "recv", recv, recvBytes, type, count);
            if (recv.isReadOnly()) {
                throw new IllegalArgumentException(call + ": the receive buffer is read-only");
            }
            r = leading(recv, recvBytes);
        }
        boolean inPlace = false;
        if (recvBytes > 0 && s.asOverlappingSlice(r).isPresent()) {
            if (s.address() != r.address() || !s.heapBase().equals(r.heapBase())) {
                throw new IllegalArgumentException(call + ": send and recv overlap without starting at the same"
                        + " place; pass the same buffer (the in-place form) to " + call + " in place");
            }
            inPlace = true;
        }
        boolean stageSend = inPlace || !transportsReach(s);
        boolean stageRecv = !transportsReach(r);
        boolean result = collective.writesRecv(rank); // an exscan's rank 0 keeps what its recv held
        Shape shape = plumbing.reductionShape(collective, bytes, type, op, root);
        if (nonBlocking) {
            if (stageRecv) {
                return plumbing.postStaged(shape, s, stageSend, recvBytes, result ? r : null, reduction);
            }
            return plumbing.post(plumbing.select(shape), shape, s, r, reduction, stageSend, true);
        }
        MemorySegment runSend = s;
        MemorySegment runRecv = r;
        if (stageSend || stageRecv) {
            MemorySegment staged = plumbing.staging(sendBytes + recvBytes);
            if (stageSend) {
                runSend = staged.asSlice(0, sendBytes);
                MemorySegment.copy(s, 0, runSend, 0, sendBytes);
            }
            if (stageRecv) {
                runRecv = staged.asSlice(sendBytes, recvBytes);
            }
        }
        long seq = plumbing.runReduction(shape, runSend, runRecv, reduction, false);
        if (stageRecv && result) {
            MemorySegment.copy(runRecv, 0, r, 0, recvBytes);
        }
        return seq;
    }

    private static void checkHolds(String call, String what, MemorySegment m, long bytes, ElementType type,
                                   long count) {
        if (m.byteSize() < bytes) {
            throw new IllegalArgumentException(call + ": " + what + " holds " + m.byteSize() + " bytes but " + count
                    + " " + type + " elements need " + bytes);
        }
    }

    private static void requireArrays(Object send, Object recv) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        if (Array.getLength(recv) < Array.getLength(send)) {
            throw new IllegalArgumentException("allreduce: recv has " + Array.getLength(recv)
                    + " elements, fewer than the " + Array.getLength(send) + " of send");
        }
    }
}
