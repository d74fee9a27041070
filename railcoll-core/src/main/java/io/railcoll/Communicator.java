package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import io.railcoll.transport.RailCounters;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A group of ranks that call collectives together, MPI-style: every rank calls the same collectives in the same
 * order with matching arguments. Each collective takes {@code byte[]}, direct or heap {@link ByteBuffer}
 * (position to limit) or {@link MemorySegment} buffers and returns when this rank's part is done and its buffers
 * may be reused.
 *
 * <p>Programming errors (a receive buffer too small, a root out of range, a closed communicator) throw
 * {@link IllegalArgumentException} or {@link IllegalStateException} before anything is sent. Failures at run time
 * (a peer lost, a time-out, ranks that disagree on a collective or its sizes) throw a {@link RailcollException}
 * subclass naming what was awaited, from whom, on which rail, for how long; the communicator is unusable after one.
 *
 * <p>Ranks that disagree on a call (its collective, block size, root or algorithm) fail with a
 * {@link MismatchException}, or a {@link CollectiveAbortedException} relaying the mismatch another rank found, within
 * about a second of the call, not at the deadline. A rank whose call had already returned when the mismatch was
 * found (a broadcast root whose data left) gets the error no later than its next call.
 *
 * <p>Misuse (a null or closed-arena buffer, a null id or collective, a read-only receive buffer) is refused on the
 * calling rank before anything is sent, and leaves the communicator usable.
 *
 * <p>Deadlines: a call that has not finished {@code RAILCOLL_TIMEOUT_MS} (30 s) after it started fails with a
 * {@link CollectiveTimeoutException} naming what it awaited and the peers not heard from. A peer that is alive but
 * stopped or slow (a GC pause, SIGSTOP) is waited for until then; a peer whose process ended fails the call at once.
 *
 * <p>Non-blocking collectives: every collective has an {@code i} form ({@link #iallgather}, {@link #ibarrier}, ...)
 * that starts it and returns a {@link Request} at once; up to 16 collectives are in flight on one communicator (a
 * seventeenth first completes the oldest). They run while this rank waits or tests any request, or makes any later
 * call: no thread runs them behind the program's back. Every rank starts collectives, blocking or not, in the same
 * order; it may complete them in any order. A buffer handed to a request belongs to railcoll until the request has
 * finished, and is never touched after it finished or failed. The blocking calls are the same path: start, then
 * await. A non-blocking call selects only among algorithms whose schedules the engine runs: never the node's
 * shared-memory collectives ({@code *.shm}, {@code allgather.smp-direct-shm}) or multicast
 * ({@code broadcast.multicast}, {@code allgather.smp-gather-mcast}), which run outside the engine and block (decision
 * 0061); forcing one of those and calling the {@code i} form fails with {@link IllegalArgumentException} before
 * anything is sent. A blocking call that selects one of them first completes every request in flight.
 *
 * <p>Threading: by default a communicator is used by one thread at a time (any thread, not two at once); a thread
 * that calls while another is inside is refused with an {@link IllegalStateException} naming both. Built with
 * {@code RAILCOLL_THREAD_SAFE=on} ({@link Config#withThreadSafe}), any thread may call at any time: calls run one
 * after another, in the order their threads entered, and the program must make every rank call the same collectives
 * in the same order. The same holds for requests: by default one thread at a time starts, tests or awaits them;
 * thread-safe, any thread may, and a thread awaiting a request lets others in between rounds of its wait. Lifetime: whoever obtained it closes it; closing says goodbye to every peer and releases
 * sockets and shared memory.
 */
public interface Communicator extends AutoCloseable {

    int rank();

    int size();

    /** Which rank runs on which node. */
    Placement placement();

    default int nodeId() {
        return placement().nodeOf(rank());
    }

    default int localRank() {
        return placement().localRankOf(rank());
    }

    default int localSize() {
        return placement().localSizeOf(rank());
    }

    default int nodeCount() {
        return placement().nodeCount();
    }

    /** The ranks on this rank's node, increasing. */
    default int[] ranksOnMyNode() {
        return placement().ranksOf(nodeId());
    }

    /** Number of rails (networks) this communicator drives. */
    int rails();

    /** Bytes and frames sent per rail so far. */
    RailCounters railCounters();

    /**
     * Puts to node-mates that went single-copy (the receiver read them from this process's memory), puts this rank
     * pulled from node-mates, and node collectives carried out single-copy, so far; zeros without shared memory or
     * with {@code RAILCOLL_CMA=off}.
     */
    default SingleCopyCounts singleCopyCounts() {
        return SingleCopyCounts.NONE;
    }

    /** Makes every later call of {@code collective} use algorithm {@code id} (all ranks must do the same). */
    void forceAlgorithm(String id);

    /** Returns {@code collective} to automatic selection. */
    void clearForcedAlgorithm(Collective collective);

    /** The algorithm the next call would use for these arguments. */
    String selectedAlgorithm(Collective collective, long blockBytes, int root);

    /** Returns when every rank has entered the barrier. */
    void barrier();

    /** Copies {@code root}'s {@code buffer} into every rank's {@code buffer}; all ranks pass the same length. */
    void broadcast(MemorySegment buffer, int root);

    void broadcast(byte[] buffer, int root);

    void broadcast(ByteBuffer buffer, int root);

    /** Starts a barrier: the request finishes once every rank has entered it. */
    Request ibarrier();

    /** Starts {@link #broadcast(MemorySegment, int)}; {@code buffer} belongs to railcoll until the request finishes. */
    Request ibroadcast(MemorySegment buffer, int root);

    default Request ibroadcast(byte[] buffer, int root) {
        return ibroadcast(buffer == null ? null : MemorySegment.ofArray(buffer), root);
    }

    default Request ibroadcast(ByteBuffer buffer, int root) {
        return ibroadcast(buffer == null ? null : MemorySegment.ofBuffer(buffer), root);
    }

    /**
     * Rank i's {@code send} block lands at {@code recv[i*b, (i+1)*b)} on {@code root}, where b is the send length
     * (the same on every rank). {@code recv} is only used on the root and may be null elsewhere.
     */
    void gather(MemorySegment send, MemorySegment recv, int root);

    void gather(byte[] send, byte[] recv, int root);

    void gather(ByteBuffer send, ByteBuffer recv, int root);

    /** Starts {@link #gather(MemorySegment, MemorySegment, int)}. */
    Request igather(MemorySegment send, MemorySegment recv, int root);

    default Request igather(byte[] send, byte[] recv, int root) {
        return igather(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                root);
    }

    default Request igather(ByteBuffer send, ByteBuffer recv, int root) {
        return igather(send == null ? null : MemorySegment.ofBuffer(send),
                recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    /** Every rank's {@code send} block (b bytes, the same b everywhere) lands at {@code recv[i*b, (i+1)*b)} on every rank. */
    void allgather(MemorySegment send, MemorySegment recv);

    void allgather(byte[] send, byte[] recv);

    void allgather(ByteBuffer send, ByteBuffer recv);

    /** Starts {@link #allgather(MemorySegment, MemorySegment)}. */
    Request iallgather(MemorySegment send, MemorySegment recv);

    default Request iallgather(byte[] send, byte[] recv) {
        return iallgather(send == null ? null : MemorySegment.ofArray(send),
                recv == null ? null : MemorySegment.ofArray(recv));
    }

    default Request iallgather(ByteBuffer send, ByteBuffer recv) {
        return iallgather(send == null ? null : MemorySegment.ofBuffer(send),
                recv == null ? null : MemorySegment.ofBuffer(recv));
    }

    /**
     * Block j of {@code send} (b = send length / size bytes) goes to rank j, where it lands as block i of
     * {@code recv}, i being the sender. Every rank passes the same b.
     */
    void alltoall(MemorySegment send, MemorySegment recv);

    void alltoall(byte[] send, byte[] recv);

    void alltoall(ByteBuffer send, ByteBuffer recv);

    /** Starts {@link #alltoall(MemorySegment, MemorySegment)}. */
    Request ialltoall(MemorySegment send, MemorySegment recv);

    default Request ialltoall(byte[] send, byte[] recv) {
        return ialltoall(send == null ? null : MemorySegment.ofArray(send),
                recv == null ? null : MemorySegment.ofArray(recv));
    }

    default Request ialltoall(ByteBuffer send, ByteBuffer recv) {
        return ialltoall(send == null ? null : MemorySegment.ofBuffer(send),
                recv == null ? null : MemorySegment.ofBuffer(recv));
    }

    /**
     * Every rank's {@code send} holds {@code count} elements of {@code type} (native byte order); every rank's
     * {@code recv} receives their element-wise combination {@code s0 op s1 op ... op s(N-1)}. Every rank gets the
     * same bits, floating point included. A non-commutative {@link io.railcoll.reduce.UserOperator} is combined in
     * rank order (bracketed as the algorithm chooses). Every rank passes the same type, count and operator (a user
     * operator: the same id); a disagreement fails every rank with {@link MismatchException}. An operator that
     * throws fails the call with {@link OperatorFailedException} and aborts the other ranks.
     *
     * <p>{@code send} and {@code recv} may be the same range (in place) but must not overlap otherwise.
     *
     * @throws IllegalArgumentException before anything is sent: the operator is not defined on the type, a
     *                                  negative count, a buffer smaller than {@code count} elements, a read-only
     *                                  or partly overlapping {@code recv}
     */
    void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** In place: {@code buffer} holds this rank's {@code count} elements and receives the result. */
    void allreduce(MemorySegment buffer, ElementType type, long count, Operator op);

    /** As the segment form; the count is {@code send.length / type.sizeBytes()}, which must divide exactly. */
    default void allreduce(byte[] send, byte[] recv, ElementType type, Operator op) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type, elementCount(send.length, type), op);
    }

    /** As the segment form, over position to limit; the count is {@code send.remaining() / type.sizeBytes()}. */
    default void allreduce(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        allreduce(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount(send.remaining(), type), op);
    }

    /** In place, over position to limit. */
    default void allreduce(ByteBuffer buffer, ElementType type, Operator op) {
        if (buffer == null) {
            throw new IllegalArgumentException("allreduce: buffer must not be null");
        }
        allreduce(MemorySegment.ofBuffer(buffer), type, elementCount(buffer.remaining(), type), op);
    }

    /**
     * The whole of {@code send} (INT elements) into {@code recv}, which is at least as long; {@code send == recv}
     * works in place. Arrays other than {@code byte[]} pass through native staging memory the communicator keeps
     * (a copy in and out); {@link MemorySegment} buffers avoid it.
     */
    void allreduce(int[] send, int[] recv, Operator op);

    /** As {@link #allreduce(int[], int[], Operator)} on LONG elements. */
    void allreduce(long[] send, long[] recv, Operator op);

    /** As {@link #allreduce(int[], int[], Operator)} on FLOAT elements. */
    void allreduce(float[] send, float[] recv, Operator op);

    /** As {@link #allreduce(int[], int[], Operator)} on DOUBLE elements. */
    void allreduce(double[] send, double[] recv, Operator op);

    /**
     * Starts {@link #allreduce(MemorySegment, MemorySegment, ElementType, long, Operator)}. The arrays of other
     * element types ({@code int[]}, {@code double[]}, ...) have no non-blocking form: they pass through staging
     * memory the communicator shares between calls; view native memory as a {@link MemorySegment} instead.
     */
    Request iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** Starts the in-place all-reduce; the data is copied into memory of the call's own when it starts. */
    Request iallreduce(MemorySegment buffer, ElementType type, long count, Operator op);

    default Request iallreduce(byte[] send, byte[] recv, ElementType type, Operator op) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        return iallreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type,
                elementCount(send.length, type), op);
    }

    default Request iallreduce(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        return iallreduce(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount(send.remaining(), type), op);
    }

    default Request iallreduce(ByteBuffer buffer, ElementType type, Operator op) {
        if (buffer == null) {
            throw new IllegalArgumentException("allreduce: buffer must not be null");
        }
        return iallreduce(MemorySegment.ofBuffer(buffer), type, elementCount(buffer.remaining(), type), op);
    }

    private static long elementCount(long bytes, ElementType type) {
        if (type == null) {
            throw new IllegalArgumentException("allreduce: the element type must not be null");
        }
        if (bytes % type.sizeBytes() != 0) {
            throw new IllegalArgumentException("allreduce: " + bytes + " bytes are not a whole number of " + type
                    + " elements (" + type.sizeBytes() + " bytes each)");
        }
        return bytes / type.sizeBytes();
    }

    /** The failure that broke this communicator, if any. */
    Optional<RailcollException> failure();

    @Override
    void close();
}
