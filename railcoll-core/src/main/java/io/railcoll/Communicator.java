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
 * <p>Ranks that disagree on a call (its collective, block size, per-rank counts, root or algorithm) fail with a
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
 * await. Every algorithm, the shared-memory and multicast ones included, is a schedule the engine runs, so a
 * non-blocking call selects exactly as a blocking one does (decision 0194).
 *
 * <p>Threading: by default a communicator is used by one thread at a time (any thread, not two at once); a thread
 * that calls while another is inside is refused with an {@link IllegalStateException} naming both. Built with
 * {@code RAILCOLL_THREAD_SAFE=on} ({@link Config#withThreadSafe}), any thread may call at any time: calls run one
 * after another, in the order their threads entered, and the program must make every rank call the same collectives
 * in the same order. The same holds for requests: by default one thread at a time starts, tests or awaits them;
 * thread-safe, any thread may, and a thread awaiting a request lets others in between rounds of its wait. Lifetime: whoever obtained it closes it; closing says goodbye to every peer and releases
 * sockets and shared memory.
 *
 * <p>Sub-communicators ({@link #split}, {@link #dup}, {@link #splitByNode}, {@link #create}) are communicators of
 * their own: ranks numbered from 0, their own placement, algorithm selection, call numbering, mismatch detection
 * and deadlines (messages name them, e.g. {@code world.split#0(color 1)}). They reuse the rank's rails and
 * shared-memory rings (no new sockets); node-mates still exchange through shared memory, but the node collectives
 * of the node's shared-memory region ({@code *.shm}) and multicast broadcast are the world's only (decision 0071).
 * Collectives on different communicators may be in flight at once, one thread per communicator (each communicator's
 * thread contract is its own); every frame carries its communicator's context. Ranks must still call the
 * collectives of each communicator in the same order, and must not order calls on different communicators so that
 * they wait for each other in a cycle (as MPI requires). A run-time failure on any communicator fails every
 * communicator of the rank (MPI's default error handler). Closing a sub-communicator frees what it holds (its
 * engine's memory, its context) and sends nothing, so ranks need not close it together; its parent stays usable.
 * Closing the world first closes the sub-communicators still open (a call still running in one of them fails).
 */
public interface Communicator extends AutoCloseable {

    /** The color that gives a rank no communicator in {@link #split} (any negative color does the same). */
    int UNDEFINED = -1;

    /** A receive's or probe's source that matches a message from any rank. */
    int ANY_SOURCE = -1;

    /** A receive's or probe's tag that matches a message with any tag. */
    int ANY_TAG = -1;

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

    /**
     * In place (MPI_IN_PLACE): this rank's block of {@code blockBytes} already lies at its place,
     * {@code buffer[rank*b, (rank+1)*b)}, and every rank's block lands at {@code buffer[i*b, (i+1)*b)}. Every rank
     * passes the same b, and every rank calls the in-place form. Nothing is copied where the algorithm reads the block
     * where it lies; otherwise the block is copied once into memory of the call's own (decision 0220).
     *
     * @throws IllegalArgumentException before anything is sent: a negative b, a buffer smaller than
     *                                  {@code size() * b} or read-only
     */
    void allgather(MemorySegment buffer, long blockBytes);

    /** In place, over the whole array: this rank's {@code blockBytes} already at {@code buffer[rank*b..]}. */
    default void allgather(byte[] buffer, int blockBytes) {
        if (buffer == null) {
            throw new IllegalArgumentException("allgather: buffer must not be null");
        }
        allgather(MemorySegment.ofArray(buffer), blockBytes);
    }

    /** Starts {@link #allgather(MemorySegment, MemorySegment)}. */
    Request iallgather(MemorySegment send, MemorySegment recv);

    /** Starts the in-place {@link #allgather(MemorySegment, long)}; the buffer is the call's until it finishes. */
    Request iallgather(MemorySegment buffer, long blockBytes);

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
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type, elementCount("allreduce", send.length, type), op);
    }

    /** As the segment form, over position to limit; the count is {@code send.remaining() / type.sizeBytes()}. */
    default void allreduce(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        allreduce(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("allreduce", send.remaining(), type), op);
    }

    /** In place, over position to limit. */
    default void allreduce(ByteBuffer buffer, ElementType type, Operator op) {
        if (buffer == null) {
            throw new IllegalArgumentException("allreduce: buffer must not be null");
        }
        allreduce(MemorySegment.ofBuffer(buffer), type, elementCount("allreduce", buffer.remaining(), type), op);
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

    // ---- reduce, reduce-scatter, scan, exscan (decision 0065) ----

    /**
     * {@code root}'s {@code recv} receives the element-wise combination {@code s0 op s1 op ... op s(N-1)} of every
     * rank's {@code send} ({@code count} elements of {@code type}, native byte order); MPI_Reduce. A non-commutative
     * operator is combined in rank order. {@code recv} is only used on the root and may be null elsewhere. Every rank
     * passes the same type, count, operator and root; a disagreement fails every rank with {@link MismatchException};
     * an operator that throws fails the call with {@link OperatorFailedException} and aborts the other ranks.
     *
     * <p>On the root {@code send} and {@code recv} may be the same range (in place) but must not overlap otherwise.
     * Heap segments over any primitive array are accepted (staged through native memory).
     *
     * @throws IllegalArgumentException before anything is sent: a bad root, the operator not defined on the type, a
     *                                  negative count, a buffer smaller than {@code count} elements, a read-only or
     *                                  partly overlapping {@code recv}
     */
    void reduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root);

    /** In place on the root: {@code buffer} holds this rank's {@code count} elements and, on the root, gets the result. */
    default void reduce(MemorySegment buffer, ElementType type, long count, Operator op, int root) {
        reduce(buffer, rank() == root ? buffer : null, type, count, op, root);
    }

    /** As the segment form; the count is {@code send.length / type.sizeBytes()}; {@code recv} may be null off the root. */
    default void reduce(byte[] send, byte[] recv, ElementType type, Operator op, int root) {
        requireArray("reduce", send, "send");
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), type,
                elementCount("reduce", send.length, type), op, root);
    }

    /** As the segment form, over position to limit; {@code recv} may be null off the root. */
    default void reduce(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op, int root) {
        requireArray("reduce", send, "send");
        reduce(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), type,
                elementCount("reduce", send.remaining(), type), op, root);
    }

    /** As the segment form on INT elements, {@code send.length} of them; {@code recv} may be null off the root. */
    default void reduce(int[] send, int[] recv, Operator op, int root) {
        requireArray("reduce", send, "send");
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.INT,
                send.length, op, root);
    }

    /** As {@link #reduce(int[], int[], Operator, int)} on LONG elements. */
    default void reduce(long[] send, long[] recv, Operator op, int root) {
        requireArray("reduce", send, "send");
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.LONG,
                send.length, op, root);
    }

    /** As {@link #reduce(int[], int[], Operator, int)} on FLOAT elements. */
    default void reduce(float[] send, float[] recv, Operator op, int root) {
        requireArray("reduce", send, "send");
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.FLOAT,
                send.length, op, root);
    }

    /** As {@link #reduce(int[], int[], Operator, int)} on DOUBLE elements. */
    default void reduce(double[] send, double[] recv, Operator op, int root) {
        requireArray("reduce", send, "send");
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.DOUBLE,
                send.length, op, root);
    }

    /**
     * Starts {@link #reduce(MemorySegment, MemorySegment, ElementType, long, Operator, int)}; the buffers belong to
     * railcoll until the request finishes. Arrays other than {@code byte[]} (and the in-place form) go through memory
     * of the call's own, the result copied into {@code recv} as the request finishes (decision 0090).
     */
    Request ireduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root);

    default Request ireduce(MemorySegment buffer, ElementType type, long count, Operator op, int root) {
        return ireduce(buffer, rank() == root ? buffer : null, type, count, op, root);
    }

    default Request ireduce(byte[] send, byte[] recv, ElementType type, Operator op, int root) {
        requireArray("ireduce", send, "send");
        return ireduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), type,
                elementCount("ireduce", send.length, type), op, root);
    }

    default Request ireduce(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op, int root) {
        requireArray("ireduce", send, "send");
        return ireduce(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), type,
                elementCount("ireduce", send.remaining(), type), op, root);
    }

    default Request ireduce(int[] send, int[] recv, Operator op, int root) {
        requireArray("ireduce", send, "send");
        return ireduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.INT,
                send.length, op, root);
    }

    default Request ireduce(long[] send, long[] recv, Operator op, int root) {
        requireArray("ireduce", send, "send");
        return ireduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.LONG,
                send.length, op, root);
    }

    default Request ireduce(float[] send, float[] recv, Operator op, int root) {
        requireArray("ireduce", send, "send");
        return ireduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.FLOAT,
                send.length, op, root);
    }

    default Request ireduce(double[] send, double[] recv, Operator op, int root) {
        requireArray("ireduce", send, "send");
        return ireduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                ElementType.DOUBLE, send.length, op, root);
    }

    /**
     * Reduce-scatter with equal blocks (MPI_Reduce_scatter_block): {@code send} holds {@code size() * recvCount}
     * elements, block j (elements {@code [j*recvCount, (j+1)*recvCount)}) for rank j; rank r's {@code recv}
     * ({@code recvCount} elements) receives the combination of every rank's block r, in rank order for a
     * non-commutative operator. Agreement, failures and staging as {@link #reduce}.
     *
     * <p>In place: {@code recv} may be the start of {@code send} ({@link #reduceScatterBlock(MemorySegment,
     * ElementType, long, Operator)}); they must not overlap otherwise.
     */
    void reduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long recvCount, Operator op);

    /** In place: {@code buffer} holds the {@code size() * recvCount} elements; the result lands in its first block. */
    default void reduceScatterBlock(MemorySegment buffer, ElementType type, long recvCount, Operator op) {
        reduceScatterBlock(buffer, buffer, type, recvCount, op);
    }

    /** As the segment form; {@code recvCount} is {@code recv.length / type.sizeBytes()}. */
    default void reduceScatterBlock(byte[] send, byte[] recv, ElementType type, Operator op) {
        requireArray("reduceScatterBlock", send, "send");
        requireArray("reduceScatterBlock", recv, "recv");
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type,
                elementCount("reduceScatterBlock", recv.length, type), op);
    }

    /** As the segment form, over position to limit; {@code recvCount} is {@code recv.remaining() / type.sizeBytes()}. */
    default void reduceScatterBlock(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        requireArray("reduceScatterBlock", send, "send");
        requireArray("reduceScatterBlock", recv, "recv");
        reduceScatterBlock(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("reduceScatterBlock", recv.remaining(), type), op);
    }

    /** As the segment form on INT elements; {@code recvCount} is {@code recv.length}. */
    default void reduceScatterBlock(int[] send, int[] recv, Operator op) {
        requireArray("reduceScatterBlock", send, "send");
        requireArray("reduceScatterBlock", recv, "recv");
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.INT, recv.length, op);
    }

    /** As {@link #reduceScatterBlock(int[], int[], Operator)} on LONG elements. */
    default void reduceScatterBlock(long[] send, long[] recv, Operator op) {
        requireArray("reduceScatterBlock", send, "send");
        requireArray("reduceScatterBlock", recv, "recv");
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.LONG, recv.length, op);
    }

    /** As {@link #reduceScatterBlock(int[], int[], Operator)} on FLOAT elements. */
    default void reduceScatterBlock(float[] send, float[] recv, Operator op) {
        requireArray("reduceScatterBlock", send, "send");
        requireArray("reduceScatterBlock", recv, "recv");
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.FLOAT, recv.length, op);
    }

    /** As {@link #reduceScatterBlock(int[], int[], Operator)} on DOUBLE elements. */
    default void reduceScatterBlock(double[] send, double[] recv, Operator op) {
        requireArray("reduceScatterBlock", send, "send");
        requireArray("reduceScatterBlock", recv, "recv");
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), ElementType.DOUBLE, recv.length, op);
    }

    /** Starts {@link #reduceScatterBlock(MemorySegment, MemorySegment, ElementType, long, Operator)}; staging as {@link #ireduce}. */
    Request ireduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long recvCount, Operator op);

    default Request ireduceScatterBlock(MemorySegment buffer, ElementType type, long recvCount, Operator op) {
        return ireduceScatterBlock(buffer, buffer, type, recvCount, op);
    }

    default Request ireduceScatterBlock(byte[] send, byte[] recv, ElementType type, Operator op) {
        requireArray("ireduceScatterBlock", send, "send");
        requireArray("ireduceScatterBlock", recv, "recv");
        return ireduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type,
                elementCount("ireduceScatterBlock", recv.length, type), op);
    }

    default Request ireduceScatterBlock(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        requireArray("ireduceScatterBlock", send, "send");
        requireArray("ireduceScatterBlock", recv, "recv");
        return ireduceScatterBlock(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("ireduceScatterBlock", recv.remaining(), type), op);
    }

    default Request ireduceScatterBlock(int[] send, int[] recv, Operator op) {
        return ireduceScatterBlock(arraySegment("ireduceScatterBlock", send, "send"),
                arraySegment("ireduceScatterBlock", recv, "recv"), ElementType.INT, recv.length, op);
    }

    default Request ireduceScatterBlock(long[] send, long[] recv, Operator op) {
        return ireduceScatterBlock(arraySegment("ireduceScatterBlock", send, "send"),
                arraySegment("ireduceScatterBlock", recv, "recv"), ElementType.LONG, recv.length, op);
    }

    default Request ireduceScatterBlock(float[] send, float[] recv, Operator op) {
        return ireduceScatterBlock(arraySegment("ireduceScatterBlock", send, "send"),
                arraySegment("ireduceScatterBlock", recv, "recv"), ElementType.FLOAT, recv.length, op);
    }

    default Request ireduceScatterBlock(double[] send, double[] recv, Operator op) {
        return ireduceScatterBlock(arraySegment("ireduceScatterBlock", send, "send"),
                arraySegment("ireduceScatterBlock", recv, "recv"), ElementType.DOUBLE, recv.length, op);
    }

    /**
     * Inclusive prefix (MPI_Scan): rank r's {@code recv} receives {@code s0 op s1 op ... op sr} of the ranks'
     * {@code send} ({@code count} elements each), in rank order for a non-commutative operator. {@code send} and
     * {@code recv} may be the same range (in place). Agreement, failures and staging as {@link #reduce}.
     */
    void scan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** In place: {@code buffer} holds this rank's elements and receives its prefix. */
    default void scan(MemorySegment buffer, ElementType type, long count, Operator op) {
        scan(buffer, buffer, type, count, op);
    }

    default void scan(byte[] send, byte[] recv, ElementType type, Operator op) {
        requireArray("scan", send, "send");
        requireArray("scan", recv, "recv");
        scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type, elementCount("scan", send.length, type), op);
    }

    default void scan(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        requireArray("scan", send, "send");
        requireArray("scan", recv, "recv");
        scan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("scan", send.remaining(), type), op);
    }

    default void scan(int[] send, int[] recv, Operator op) {
        requireArray("scan", send, "send");
        scan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.INT, send.length, op);
    }

    default void scan(long[] send, long[] recv, Operator op) {
        requireArray("scan", send, "send");
        scan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.LONG, send.length, op);
    }

    default void scan(float[] send, float[] recv, Operator op) {
        requireArray("scan", send, "send");
        scan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.FLOAT, send.length, op);
    }

    default void scan(double[] send, double[] recv, Operator op) {
        requireArray("scan", send, "send");
        scan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.DOUBLE, send.length, op);
    }

    /** Starts {@link #scan(MemorySegment, MemorySegment, ElementType, long, Operator)}; staging as {@link #ireduce}. */
    Request iscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    default Request iscan(MemorySegment buffer, ElementType type, long count, Operator op) {
        return iscan(buffer, buffer, type, count, op);
    }

    default Request iscan(byte[] send, byte[] recv, ElementType type, Operator op) {
        return iscan(arraySegment("iscan", send, "send"), arraySegment("iscan", recv, "recv"), type,
                elementCount("iscan", send.length, type), op);
    }

    default Request iscan(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        requireArray("iscan", send, "send");
        requireArray("iscan", recv, "recv");
        return iscan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("iscan", send.remaining(), type), op);
    }

    default Request iscan(int[] send, int[] recv, Operator op) {
        return iscan(arraySegment("iscan", send, "send"), arraySegment("iscan", recv, "recv"), ElementType.INT,
                send.length, op);
    }

    default Request iscan(long[] send, long[] recv, Operator op) {
        return iscan(arraySegment("iscan", send, "send"), arraySegment("iscan", recv, "recv"), ElementType.LONG,
                send.length, op);
    }

    default Request iscan(float[] send, float[] recv, Operator op) {
        return iscan(arraySegment("iscan", send, "send"), arraySegment("iscan", recv, "recv"), ElementType.FLOAT,
                send.length, op);
    }

    default Request iscan(double[] send, double[] recv, Operator op) {
        return iscan(arraySegment("iscan", send, "send"), arraySegment("iscan", recv, "recv"), ElementType.DOUBLE,
                send.length, op);
    }

    /**
     * Exclusive prefix (MPI_Exscan): rank r's {@code recv} receives {@code s0 op ... op s(r-1)}; rank 0's
     * {@code recv} is not written (MPI leaves it undefined). Otherwise as {@link #scan}, in place included.
     */
    void exscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** In place: {@code buffer} holds this rank's elements and receives its exclusive prefix (untouched on rank 0). */
    default void exscan(MemorySegment buffer, ElementType type, long count, Operator op) {
        exscan(buffer, buffer, type, count, op);
    }

    default void exscan(byte[] send, byte[] recv, ElementType type, Operator op) {
        requireArray("exscan", send, "send");
        requireArray("exscan", recv, "recv");
        exscan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type, elementCount("exscan", send.length, type), op);
    }

    default void exscan(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        requireArray("exscan", send, "send");
        requireArray("exscan", recv, "recv");
        exscan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("exscan", send.remaining(), type), op);
    }

    default void exscan(int[] send, int[] recv, Operator op) {
        requireArray("exscan", send, "send");
        exscan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.INT, send.length, op);
    }

    default void exscan(long[] send, long[] recv, Operator op) {
        requireArray("exscan", send, "send");
        exscan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.LONG, send.length, op);
    }

    default void exscan(float[] send, float[] recv, Operator op) {
        requireArray("exscan", send, "send");
        exscan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.FLOAT, send.length, op);
    }

    default void exscan(double[] send, double[] recv, Operator op) {
        requireArray("exscan", send, "send");
        exscan(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.DOUBLE, send.length, op);
    }

    /** Starts {@link #exscan(MemorySegment, MemorySegment, ElementType, long, Operator)}; staging as {@link #ireduce}. */
    Request iexscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    default Request iexscan(MemorySegment buffer, ElementType type, long count, Operator op) {
        return iexscan(buffer, buffer, type, count, op);
    }

    default Request iexscan(byte[] send, byte[] recv, ElementType type, Operator op) {
        return iexscan(arraySegment("iexscan", send, "send"), arraySegment("iexscan", recv, "recv"), type,
                elementCount("iexscan", send.length, type), op);
    }

    default Request iexscan(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        requireArray("iexscan", send, "send");
        requireArray("iexscan", recv, "recv");
        return iexscan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("iexscan", send.remaining(), type), op);
    }

    default Request iexscan(int[] send, int[] recv, Operator op) {
        return iexscan(arraySegment("iexscan", send, "send"), arraySegment("iexscan", recv, "recv"), ElementType.INT,
                send.length, op);
    }

    default Request iexscan(long[] send, long[] recv, Operator op) {
        return iexscan(arraySegment("iexscan", send, "send"), arraySegment("iexscan", recv, "recv"), ElementType.LONG,
                send.length, op);
    }

    default Request iexscan(float[] send, float[] recv, Operator op) {
        return iexscan(arraySegment("iexscan", send, "send"), arraySegment("iexscan", recv, "recv"), ElementType.FLOAT,
                send.length, op);
    }

    default Request iexscan(double[] send, double[] recv, Operator op) {
        return iexscan(arraySegment("iexscan", send, "send"), arraySegment("iexscan", recv, "recv"), ElementType.DOUBLE,
                send.length, op);
    }

    // ---- scatter ----

    /**
     * Block i of {@code root}'s {@code send} ({@code [i*b, (i+1)*b)}) lands in rank i's {@code recv}, where b is the
     * recv length (the same on every rank); MPI_Scatter. {@code send} is only used on the root and may be null
     * elsewhere; the root's {@code recv} may be null (in place: its own block stays in {@code send}), and b is then
     * {@code send length / size()}.
     */
    void scatter(MemorySegment send, MemorySegment recv, int root);

    default void scatter(byte[] send, byte[] recv, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    default void scatter(ByteBuffer send, ByteBuffer recv, int root) {
        scatter(send == null ? null : MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    /** Starts {@link #scatter(MemorySegment, MemorySegment, int)}; the root's in-place form keeps its block in {@code send}. */
    Request iscatter(MemorySegment send, MemorySegment recv, int root);

    default Request iscatter(byte[] send, byte[] recv, int root) {
        return iscatter(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                root);
    }

    default Request iscatter(ByteBuffer send, ByteBuffer recv, int root) {
        return iscatter(send == null ? null : MemorySegment.ofBuffer(send),
                recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    /** A heap segment over {@code array} (a primitive array), or a refusal naming the call when it is null. */
    private static MemorySegment arraySegment(String call, Object array, String what) {
        requireArray(call, array, what);
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException(call + ": " + what + " is a "
                    + array.getClass().getSimpleName() + ", not a byte[], int[], long[], float[] or double[]");
        };
    }

    // ---- the v-variants: per-rank counts (decision 0085) ----

    /**
     * Gather with per-rank counts (MPI_Gatherv): the first {@code counts[i]} bytes of rank i's {@code send} land at
     * {@code recv[displs[i], displs[i] + counts[i])} on {@code root}. {@code displs} (bytes) is read on the root only;
     * null packs the blocks in rank order ({@code displs[i] = counts[0] + ... + counts[i-1]}). {@code recv} is only
     * used on the root and may be null elsewhere; a rank whose count is 0 may pass a null {@code send}.
     *
     * <p>Unlike MPI, where only the root knows every count, <em>every rank passes the same {@code counts}</em>: they
     * choose the algorithm (a tree needs its subtrees' sizes) and their digest travels with the call's data, so ranks
     * that pass different counts fail with a {@link MismatchException} on every rank, never with wrong data or a hang.
     *
     * <p>In place (MPI_IN_PLACE): the root passes a null {@code send}; its own block already lies at
     * {@code recv[displs[root]..]} and stays there. Receive blocks must not overlap.
     */
    void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root);

    default void gatherv(byte[] send, byte[] recv, long[] counts, long[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                counts, displs, root);
    }

    default void gatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv),
                counts, displs, root);
    }

    /**
     * Scatter with per-rank counts (MPI_Scatterv): {@code root}'s {@code send[displs[i], displs[i] + counts[i])}
     * lands in the first {@code counts[i]} bytes of rank i's {@code recv}. {@code send} and {@code displs} are read on
     * the root only (null displacements: packed in rank order); every rank passes the same {@code counts}, checked as
     * for {@link #gatherv}. In place: the root passes a null {@code recv} (its block stays in {@code send}); a rank
     * whose count is 0 may pass a null {@code recv}.
     */
    void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root);

    default void scatterv(byte[] send, long[] counts, long[] displs, byte[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), counts, displs,
                recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    default void scatterv(ByteBuffer send, long[] counts, long[] displs, ByteBuffer recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofBuffer(send), counts, displs,
                recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    /**
     * All-gather with per-rank counts (MPI_Allgatherv): the first {@code counts[i]} bytes of rank i's {@code send}
     * land at {@code recv[displs[i], displs[i] + counts[i])} on every rank (null displacements: packed). Every rank
     * passes the same counts (MPI requires it too); a disagreement is a {@link MismatchException} on every rank.
     * In place: a null {@code send}, this rank's block already at {@code recv[displs[rank]..]}.
     */
    void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs);

    default void allgatherv(byte[] send, byte[] recv, long[] counts, long[] displs) {
        allgatherv(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                counts, displs);
    }

    default void allgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        allgatherv(send == null ? null : MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv),
                counts, displs);
    }

    /**
     * All-to-all with a count per pair (MPI_Alltoallv), as MPI has it: this rank's
     * {@code send[sendDispls[j], sendDispls[j] + sendCounts[j])} lands in rank j's
     * {@code recv[recvDispls[i], recvDispls[i] + recvCounts[i])}, i being this rank (null displacements: packed).
     * Rank j's {@code recvCounts[i]} must equal rank i's {@code sendCounts[j]}: the ranks first all-gather their send
     * counts (N longs each) and a rank that expects other counts than are sent fails the call on every rank with a
     * {@link MismatchException}. In place: a null {@code send} (and send counts); {@code recv}'s blocks are sent with
     * {@code recvCounts} and replaced by what arrives.
     */
    void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts,
                   long[] recvDispls);

    default void alltoallv(byte[] send, long[] sendCounts, long[] sendDispls, byte[] recv, long[] recvCounts,
                           long[] recvDispls) {
        alltoallv(send == null ? null : MemorySegment.ofArray(send), sendCounts, sendDispls,
                recv == null ? null : MemorySegment.ofArray(recv), recvCounts, recvDispls);
    }

    default void alltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv, long[] recvCounts,
                           long[] recvDispls) {
        alltoallv(send == null ? null : MemorySegment.ofBuffer(send), sendCounts, sendDispls,
                recv == null ? null : MemorySegment.ofBuffer(recv), recvCounts, recvDispls);
    }

    /**
     * Reduce-scatter with per-rank counts (MPI_Reduce_scatter): {@code send} holds {@code recvCounts[0] + ... +
     * recvCounts[N-1]} elements on every rank; rank r's {@code recv} receives the element-wise combination of every
     * rank's block r (the {@code recvCounts[r]} elements after those of ranks 0..r-1), in rank order when the operator
     * is not commutative. Every rank passes the same counts (MPI requires it too); a disagreement is a
     * {@link MismatchException} on every rank. In place: {@code recv} is {@code send} (result in its first
     * {@code recvCounts[rank]} elements). A rank whose count is 0 may pass a null {@code recv}.
     */
    void reduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] recvCounts, Operator op);

    /** In place: {@code buffer} holds the whole vector and receives this rank's block in its first elements. */
    default void reduceScatter(MemorySegment buffer, ElementType type, long[] recvCounts, Operator op) {
        reduceScatter(buffer, buffer, type, recvCounts, op);
    }

    default void reduceScatter(byte[] send, byte[] recv, ElementType type, long[] recvCounts, Operator op) {
        requireArray("reduceScatter", send, "send");
        reduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), type, recvCounts, op);
    }

    default void reduceScatter(ByteBuffer send, ByteBuffer recv, ElementType type, long[] recvCounts, Operator op) {
        requireArray("reduceScatter", send, "send");
        reduceScatter(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), type,
                recvCounts, op);
    }

    default void reduceScatter(int[] send, int[] recv, long[] recvCounts, Operator op) {
        requireArray("reduceScatter", send, "send");
        reduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.INT,
                recvCounts, op);
    }

    default void reduceScatter(long[] send, long[] recv, long[] recvCounts, Operator op) {
        requireArray("reduceScatter", send, "send");
        reduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.LONG,
                recvCounts, op);
    }

    default void reduceScatter(float[] send, float[] recv, long[] recvCounts, Operator op) {
        requireArray("reduceScatter", send, "send");
        reduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.FLOAT,
                recvCounts, op);
    }

    default void reduceScatter(double[] send, double[] recv, long[] recvCounts, Operator op) {
        requireArray("reduceScatter", send, "send");
        reduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), ElementType.DOUBLE,
                recvCounts, op);
    }

    // ---- the v-variants, non-blocking (decision 0108) ----
    //
    // Each starts the blocking call's collective and returns at once; the arguments are checked as the blocking
    // call's are, and the count and displacement arrays copied, so they may be reused at once. A receive buffer
    // belongs to railcoll until the request finishes; a send buffer too, unless its blocks had to be packed (they
    // are then copied when the call starts). Blocks that do not lie packed, and arrays other than byte[], go through
    // memory of the call's own engine slot: packed when it starts, unpacked into the caller's buffer when its last op
    // has run and before the request counts as finished; a request that fails writes nothing there.

    /** Starts {@link #gatherv(MemorySegment, MemorySegment, long[], long[], int)}, with its in-place form. */
    Request igatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root);

    default Request igatherv(byte[] send, byte[] recv, long[] counts, long[] displs, int root) {
        return igatherv(send == null ? null : MemorySegment.ofArray(send),
                recv == null ? null : MemorySegment.ofArray(recv), counts, displs, root);
    }

    default Request igatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs, int root) {
        return igatherv(send == null ? null : MemorySegment.ofBuffer(send),
                recv == null ? null : MemorySegment.ofBuffer(recv), counts, displs, root);
    }

    /** Starts {@link #scatterv(MemorySegment, long[], long[], MemorySegment, int)}, with its in-place form. */
    Request iscatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root);

    default Request iscatterv(byte[] send, long[] counts, long[] displs, byte[] recv, int root) {
        return iscatterv(send == null ? null : MemorySegment.ofArray(send), counts, displs,
                recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    default Request iscatterv(ByteBuffer send, long[] counts, long[] displs, ByteBuffer recv, int root) {
        return iscatterv(send == null ? null : MemorySegment.ofBuffer(send), counts, displs,
                recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    /** Starts {@link #allgatherv(MemorySegment, MemorySegment, long[], long[])}, with its in-place form. */
    Request iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs);

    default Request iallgatherv(byte[] send, byte[] recv, long[] counts, long[] displs) {
        return iallgatherv(send == null ? null : MemorySegment.ofArray(send),
                recv == null ? null : MemorySegment.ofArray(recv), counts, displs);
    }

    default Request iallgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        return iallgatherv(send == null ? null : MemorySegment.ofBuffer(send),
                recv == null ? null : MemorySegment.ofBuffer(recv), counts, displs);
    }

    /**
     * Starts {@link #alltoallv(MemorySegment, long[], long[], MemorySegment, long[], long[])}, with its in-place form,
     * without waiting for anything: the request holds two collectives in a row, the all-gather of the send counts and
     * then the data, whose shape is built when the counts have arrived (decision 0108). Its
     * {@link Request#sequenceNumber()} is the data's; the count exchange has the number before it.
     */
    Request ialltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
                       long[] recvCounts, long[] recvDispls);

    default Request ialltoallv(byte[] send, long[] sendCounts, long[] sendDispls, byte[] recv, long[] recvCounts,
                               long[] recvDispls) {
        return ialltoallv(send == null ? null : MemorySegment.ofArray(send), sendCounts, sendDispls,
                recv == null ? null : MemorySegment.ofArray(recv), recvCounts, recvDispls);
    }

    default Request ialltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv,
                               long[] recvCounts, long[] recvDispls) {
        return ialltoallv(send == null ? null : MemorySegment.ofBuffer(send), sendCounts, sendDispls,
                recv == null ? null : MemorySegment.ofBuffer(recv), recvCounts, recvDispls);
    }

    /** Starts {@link #reduceScatter(MemorySegment, MemorySegment, ElementType, long[], Operator)}, in place too. */
    Request ireduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] recvCounts, Operator op);

    /** Starts the in-place reduce-scatter with per-rank counts. */
    default Request ireduceScatter(MemorySegment buffer, ElementType type, long[] recvCounts, Operator op) {
        return ireduceScatter(buffer, buffer, type, recvCounts, op);
    }

    default Request ireduceScatter(byte[] send, byte[] recv, ElementType type, long[] recvCounts, Operator op) {
        requireArray("ireduceScatter", send, "send");
        return ireduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), type,
                recvCounts, op);
    }

    default Request ireduceScatter(ByteBuffer send, ByteBuffer recv, ElementType type, long[] recvCounts,
                                   Operator op) {
        requireArray("ireduceScatter", send, "send");
        return ireduceScatter(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), type,
                recvCounts, op);
    }

    default Request ireduceScatter(int[] send, int[] recv, long[] recvCounts, Operator op) {
        requireArray("ireduceScatter", send, "send");
        return ireduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                ElementType.INT, recvCounts, op);
    }

    default Request ireduceScatter(long[] send, long[] recv, long[] recvCounts, Operator op) {
        requireArray("ireduceScatter", send, "send");
        return ireduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                ElementType.LONG, recvCounts, op);
    }

    default Request ireduceScatter(float[] send, float[] recv, long[] recvCounts, Operator op) {
        requireArray("ireduceScatter", send, "send");
        return ireduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                ElementType.FLOAT, recvCounts, op);
    }

    default Request ireduceScatter(double[] send, double[] recv, long[] recvCounts, Operator op) {
        requireArray("ireduceScatter", send, "send");
        return ireduceScatter(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                ElementType.DOUBLE, recvCounts, op);
    }

    private static void requireArray(String call, Object array, String what) {
        if (array == null) {
            throw new IllegalArgumentException(call + ": " + what + " must not be null");
        }
    }


    /**
     * Starts {@link #allreduce(MemorySegment, MemorySegment, ElementType, long, Operator)}. Heap segments over arrays
     * other than {@code byte[]} (and the in-place form) go through memory of the call's own, the result copied into
     * {@code recv} as the request finishes (decision 0090).
     */
    Request iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** Starts the in-place all-reduce; the data is copied into memory of the call's own when it starts. */
    Request iallreduce(MemorySegment buffer, ElementType type, long count, Operator op);

    default Request iallreduce(byte[] send, byte[] recv, ElementType type, Operator op) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        return iallreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), type,
                elementCount("iallreduce", send.length, type), op);
    }

    default Request iallreduce(ByteBuffer send, ByteBuffer recv, ElementType type, Operator op) {
        if (send == null || recv == null) {
            throw new IllegalArgumentException("allreduce: send and recv must not be null");
        }
        return iallreduce(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type,
                elementCount("iallreduce", send.remaining(), type), op);
    }

    default Request iallreduce(ByteBuffer buffer, ElementType type, Operator op) {
        if (buffer == null) {
            throw new IllegalArgumentException("allreduce: buffer must not be null");
        }
        return iallreduce(MemorySegment.ofBuffer(buffer), type, elementCount("iallreduce", buffer.remaining(), type), op);
    }

    /** Starts {@link #allreduce(int[], int[], Operator)}: the arrays are staged in memory of the call's own (decision 0090). */
    default Request iallreduce(int[] send, int[] recv, Operator op) {
        return iallreduce(arraySegment("iallreduce", send, "send"), arraySegment("iallreduce", recv, "recv"),
                ElementType.INT, send.length, op);
    }

    default Request iallreduce(long[] send, long[] recv, Operator op) {
        return iallreduce(arraySegment("iallreduce", send, "send"), arraySegment("iallreduce", recv, "recv"),
                ElementType.LONG, send.length, op);
    }

    default Request iallreduce(float[] send, float[] recv, Operator op) {
        return iallreduce(arraySegment("iallreduce", send, "send"), arraySegment("iallreduce", recv, "recv"),
                ElementType.FLOAT, send.length, op);
    }

    default Request iallreduce(double[] send, double[] recv, Operator op) {
        return iallreduce(arraySegment("iallreduce", send, "send"), arraySegment("iallreduce", recv, "recv"),
                ElementType.DOUBLE, send.length, op);
    }

    private static long elementCount(String call, long bytes, ElementType type) {
        if (type == null) {
            throw new IllegalArgumentException(call + ": the element type must not be null");
        }
        if (bytes % type.sizeBytes() != 0) {
            throw new IllegalArgumentException(call + ": " + bytes + " bytes are not a whole number of " + type
                    + " elements (" + type.sizeBytes() + " bytes each)");
        }
        return bytes / type.sizeBytes();
    }

    /** How messages name this communicator: {@code world}, {@code world.split#0(color 1)}, ... */
    default String name() {
        return "world";
    }

    /**
     * A new communicator of the ranks that pass the same {@code color}, numbered in the order of {@code key}, ties
     * broken by rank here (MPI_Comm_split). Collective: every rank of this communicator calls it, in the same order
     * as its other calls. A negative color ({@link #UNDEFINED}) takes part and gets none.
     *
     * @return the new communicator, which the caller closes; empty for a negative color
     * @throws MismatchException when the ranks called different things (another split, a dup, a collective)
     */
    default java.util.Optional<Communicator> split(int color, int key) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " makes no sub-communicators");
    }

    /** A new communicator of the same ranks in the same order, with a context of its own (MPI_Comm_dup). Collective. */
    default Communicator dup() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " makes no sub-communicators");
    }

    /**
     * {@link #dup()} started without waiting (MPI_Comm_idup): collective, in the order of this communicator's other
     * collectives, which may run while it is in flight. The new communicator is {@link DupInFlight#communicator()}'s
     * once {@link DupInFlight#request()} has finished.
     */
    default DupInFlight idup() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " makes no sub-communicators");
    }

    /**
     * A new communicator of the ranks on this rank's node, in the order of their ranks here
     * (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED). Collective.
     */
    default Communicator splitByNode() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " makes no sub-communicators");
    }

    /**
     * A new communicator of {@code ranks} (ranks of this communicator, distinct), numbered in that order
     * (MPI_Comm_create). Collective: every rank calls it with the same array; ranks not listed get none.
     *
     * @throws IllegalArgumentException before anything is sent: a rank out of range or listed twice
     * @throws MismatchException        when the ranks passed different arrays
     */
    default java.util.Optional<Communicator> create(int[] ranks) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " makes no sub-communicators");
    }

    /**
     * A new communicator of {@code ranks} (ranks of this communicator, distinct, this rank among them), numbered in
     * that order (MPI_Comm_create_group). Collective over those ranks only: the others do not call it, and it sends
     * them nothing. The members' calls with the same ranks and {@code tag} pair up in the order they are made; calls
     * with other tags or other ranks never pair, so threads of one rank may make several at once with distinct tags.
     * Returns when every member has made it; members that passed other ranks or another tag make it wait until the
     * deadline ({@code RAILCOLL_TIMEOUT_MS}), whose message names this call.
     *
     * @param tag a number of the caller's (>= 0) telling apart concurrent creations of the same ranks
     * @return the new communicator, which the caller closes
     * @throws IllegalArgumentException before anything is sent: a rank out of range or listed twice, this rank not
     *                                  listed, a negative tag
     * @throws MismatchException        when the members disagree on the ranks, tag or how many they made before
     */
    default Communicator createGroup(int[] ranks, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " makes no sub-communicators");
    }

    // ---- point-to-point messages (decision 0080, docs/architecture.md#point-to-point-messages) ----

    /**
     * Sends all of {@code data} to rank {@code dest} of this communicator with {@code tag} (>= 0); returns when
     * {@code data} may be reused. Never waits for the matching receive: the receiver takes every message at once,
     * into a posted receive's buffer or into memory of its own until one is posted, so ranks may send to each other
     * before receiving. Two messages from one rank to another that match the same receive are received in the order
     * they were sent (MPI's non-overtaking rule). Waits at most {@code RAILCOLL_TIMEOUT_MS}; a message names the peer,
     * tag and communicator.
     *
     * @throws IllegalArgumentException before anything is sent: a rank out of range, a negative tag, a message of
     *                                  2 GiB or more, a null or closed buffer
     * @throws PeerLostException        {@code dest} closed its communicator or was lost
     */
    default void send(MemorySegment data, int dest, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    default void send(byte[] data, int dest, int tag) {
        send(MemorySegment.ofArray(requireArray(data, "send: data")), dest, tag);
    }

    /**
     * As {@link #send}, and returns only once the receiver has matched the message with a receive that completed
     * (MPI's synchronous send).
     */
    default void ssend(MemorySegment data, int dest, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    default void ssend(byte[] data, int dest, int tag) {
        ssend(MemorySegment.ofArray(requireArray(data, "ssend: data")), dest, tag);
    }

    /**
     * Receives the earliest message from {@code source} ({@link #ANY_SOURCE}: any rank) with {@code tag}
     * ({@link #ANY_TAG}: any) into the start of {@code into}, waiting for it up to {@code RAILCOLL_TIMEOUT_MS}.
     * Receives are matched in the order they are posted ({@link #irecv} included).
     *
     * @return who sent it, its tag and its length in bytes
     * @throws IllegalArgumentException   before waiting: a source out of range, a negative tag other than
     *                                    {@link #ANY_TAG}, a null, closed or read-only buffer
     * @throws TruncatedMessageException  the message was longer than {@code into} (its first bytes were received,
     *                                    the rest dropped; the communicator stays usable)
     * @throws PeerLostException          {@code source} closed its communicator or was lost with nothing for it
     */
    default Status recv(MemorySegment into, int source, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    default Status recv(byte[] into, int source, int tag) {
        return recv(MemorySegment.ofArray(requireArray(into, "recv: the buffer")), source, tag);
    }

    /**
     * Sends {@code data} to {@code dest} and receives a message from {@code source} into {@code into}, both at once
     * (ranks may exchange with each other this way, in a ring or pairwise); returns once both are done.
     */
    default Status sendRecv(MemorySegment data, int dest, int sendTag, MemorySegment into, int source, int recvTag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    default Status sendRecv(byte[] data, int dest, int sendTag, byte[] into, int source, int recvTag) {
        return sendRecv(MemorySegment.ofArray(requireArray(data, "sendRecv: data")), dest, sendTag,
                MemorySegment.ofArray(requireArray(into, "sendRecv: the buffer")), source, recvTag);
    }

    /**
     * Starts a {@link #send}: {@code data} is railcoll's until the request has finished. Progress is made in any
     * wait, test or later call on this communicator.
     */
    default MessageRequest isend(MemorySegment data, int dest, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    default MessageRequest isend(byte[] data, int dest, int tag) {
        return isend(MemorySegment.ofArray(requireArray(data, "isend: data")), dest, tag);
    }

    /** Starts an {@link #ssend}: the request finishes once the receiver matched the message. */
    default MessageRequest issend(MemorySegment data, int dest, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    default MessageRequest issend(byte[] data, int dest, int tag) {
        return issend(MemorySegment.ofArray(requireArray(data, "issend: data")), dest, tag);
    }

    /**
     * A persistent {@link #isend} (MPI_Send_init): checked now, inactive until {@link MessageRequest#start()}, which
     * sends {@code data}'s bytes as they are then to {@code dest} with {@code tag}; a wait or test that reports the
     * round finished makes it inactive again, to be started anew. A loop of start and wait allocates nothing per
     * message (decision 0088). {@code data} is railcoll's while a round is active.
     */
    default MessageRequest sendInit(MemorySegment data, int dest, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    /** A persistent {@link #issend} (MPI_Ssend_init), as {@link #sendInit}; each round makes one operation. */
    default MessageRequest ssendInit(MemorySegment data, int dest, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    /**
     * A persistent {@link #irecv} (MPI_Recv_init), as {@link #sendInit}: each round posts a receive into {@code into}
     * from {@code source} with {@code tag} (wildcards allowed); its {@link MessageRequest#status()} is the last
     * round's.
     */
    default MessageRequest recvInit(MemorySegment into, int source, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    /**
     * Posts a {@link #recv}: {@code into} is railcoll's until the request has finished; its
     * {@link MessageRequest#status()} then says what arrived.
     */
    default MessageRequest irecv(MemorySegment into, int source, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    default MessageRequest irecv(byte[] into, int source, int tag) {
        return irecv(MemorySegment.ofArray(requireArray(into, "irecv: the buffer")), source, tag);
    }

    /**
     * Waits until a message from {@code source} ({@link #ANY_SOURCE}) with {@code tag} ({@link #ANY_TAG}) that no
     * receive has taken has arrived, and says what a receive with the same source and tag would get; the message
     * stays to be received.
     */
    default Status probe(int source, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    /** As {@link #probe}, without waiting (one round of progress): empty when no such message has arrived. */
    default Optional<Status> iprobe(int source, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    /**
     * Waits as {@link #probe} does, and takes the message out of matching (MPI's matched probe): no receive or probe,
     * of this thread or another, can take it any more; receive it with {@link MatchedMessage#recv}. Probing, then
     * receiving with the probe's source and tag, can receive another message when several threads receive at once;
     * this cannot.
     *
     * @throws IllegalArgumentException a source out of range, a negative tag other than {@link #ANY_TAG}
     * @throws PeerLostException        {@code source} closed its communicator or was lost with nothing for it
     */
    default MatchedMessage mprobe(int source, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    /** As {@link #mprobe}, without waiting (one round of progress): empty, and nothing taken, when none has arrived. */
    default Optional<MatchedMessage> improbe(int source, int tag) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no point-to-point messages");
    }

    private static byte[] requireArray(byte[] a, String what) {
        if (a == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        return a;
    }

    /** The failure that broke this communicator, if any. */
    Optional<RailcollException> failure();

    @Override
    void close();
}
