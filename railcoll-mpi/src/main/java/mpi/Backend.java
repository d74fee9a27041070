package mpi;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The collectives a {@link Comm} runs, on packed bytes: railcoll's {@link io.railcoll.Communicator} for
 * {@code COMM_WORLD} ({@link RailcollBackend}), a local copy for the one-rank {@code COMM_SELF}
 * ({@link SelfBackend}). Buffers are native segments or heap segments over {@code byte[]}, already packed; every
 * datatype question has been answered before a call reaches here. A collective railcoll-core adds (point-to-point,
 * requests) becomes one method here and one in each implementation.
 */
interface Backend {
    int rank();

    int size();

    void barrier();

    void broadcast(MemorySegment buffer, int root);

    /** {@code recv} is only used on the root. */
    void gather(MemorySegment send, MemorySegment recv, int root);

    void allgather(MemorySegment send, MemorySegment recv);

    /** In place: this rank's {@code blockBytes} already at {@code buffer[rank * blockBytes..]} (decision 0220). */
    void allgatherInPlace(MemorySegment buffer, long blockBytes);

    void alltoall(MemorySegment send, MemorySegment recv);

    /** {@code send == recv} reduces in place. */
    void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** {@code recv} is only used on the root (null elsewhere); {@code send == recv} on the root reduces in place. */
    void reduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root);

    /**
     * {@code send} holds {@code size() * count} elements, block j for rank j; {@code recv} gets this rank's
     * combined block. {@code recv} may be the start of {@code send} (in place).
     */
    void reduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** Inclusive prefix; {@code send == recv} in place. */
    void scan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** Exclusive prefix; rank 0's {@code recv} is left as it is. {@code send == recv} in place. */
    void exscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /**
     * Block i of the root's {@code send} into rank i's {@code recv} (every rank's {@code recv} the same size);
     * {@code send} is null off the root, and a null {@code recv} on the root leaves its own block where it is.
     */
    void scatter(MemorySegment send, MemorySegment recv, int root);

    // ---- non-blocking forms: the same arguments; the buffers belong to the operation until it has finished ----

    Pending ibarrier();

    Pending ibroadcast(MemorySegment buffer, int root);

    Pending igather(MemorySegment send, MemorySegment recv, int root);

    Pending iallgather(MemorySegment send, MemorySegment recv);

    Pending iallgatherInPlace(MemorySegment buffer, long blockBytes);

    Pending ialltoall(MemorySegment send, MemorySegment recv);

    Pending iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    Pending ireduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root);

    Pending ireduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    Pending iscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    Pending iexscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    Pending iscatter(MemorySegment send, MemorySegment recv, int root);

    // ---- point-to-point (decision 0083): ranks, ANY_SOURCE and ANY_TAG (-1) as railcoll's; PROC_NULL never comes here

    /** Starts sending {@code data} (railcoll's until finished); synchronous: finished once a receive matched it. */
    Pending isend(MemorySegment data, int dest, int tag, boolean synchronous);

    /** {@link #isend} and its wait: where the backend has a blocking send, that, with no request per message. */
    default void send(MemorySegment data, int dest, int tag, boolean synchronous) {
        isend(data, dest, tag, synchronous).await();
    }

    /** Posts a receive into {@code into}; its status is the message's source, tag and bytes. */
    Pending irecv(MemorySegment into, int source, int tag);

    /**
     * {@link #isend}, whose pending may be {@code reuse} (re-targeted) where the backend's messages are railcoll's
     * requests, so that a reused operation makes no adapter per message (decision 0159).
     */
    default Pending isend(MemorySegment data, int dest, int tag, boolean synchronous, MessagePending reuse) {
        return isend(data, dest, tag, synchronous);
    }

    /**
     * {@link #irecv}, its pending {@code reuse} where it can be, as
     * {@link #isend(MemorySegment, int, int, boolean, MessagePending)}.
     */
    default Pending irecv(MemorySegment into, int source, int tag, MessagePending reuse) {
        return irecv(into, source, tag);
    }

    /**
     * {@link #irecv} and its wait, the received message's status: where the backend has a blocking receive, that,
     * with no request per message. A longer message is railcoll's {@code TruncatedMessageException}, as from the wait.
     */
    default Status recv(MemorySegment into, int source, int tag) {
        Pending p = irecv(into, source, tag);
        p.await();
        return p.status();
    }

    /**
     * A persistent send or receive (MPI_Send_init, MPI_Recv_init; decision 0185): set up once, each {@link #start()}
     * a round with the arguments it was made with.
     */
    interface Persistent {
        /**
         * Starts a round (the last one finished, reported by a wait or test of what it returned); what the round's
         * wait and test drive. The same object every round where the backend's messages are railcoll's persistent
         * requests, so a round allocates nothing.
         */
        Pending start();
    }

    /**
     * A persistent {@link #isend} of {@code data} (its bytes as they are at each start). The default starts a new
     * {@link #isend} each round.
     */
    default Persistent sendInit(MemorySegment data, int dest, int tag, boolean synchronous) {
        return () -> isend(data, dest, tag, synchronous);
    }

    /** A persistent {@link #irecv} into {@code into}. The default posts a new {@link #irecv} each round. */
    default Persistent recvInit(MemorySegment into, int source, int tag) {
        return () -> irecv(into, source, tag);
    }

    /** What a receive would get now, or null when no message matches yet. */
    Status iprobe(int source, int tag);

    /** Waits for a message that matches, and says what a receive would get. */
    Status probe(int source, int tag);

    /**
     * A message a matched probe took out of matching (MPI_Mprobe): no other receive or probe sees it; only
     * {@link #irecv} receives it, once.
     */
    interface Matched {
        /** Its source, tag and bytes. */
        Status status();

        /** Receives it into {@code into}; its status as a receive's (truncation as a receive's). */
        Pending irecv(MemorySegment into);
    }

    /** Takes the earliest message that matches out of matching, or null when none has arrived (nothing taken). */
    Matched improbe(int source, int tag);

    /** Waits for a message that matches and takes it out of matching. */
    Matched mprobe(int source, int tag);

    /**
     * The v-variants of railcoll-core (decision 0085), on packed buffers: block i of {@code counts[i]} bytes right
     * after block i-1. Every rank passes the same counts; ranks that pass different ones fail with a mismatch.
     * {@code recv} is null off the root of a gatherv, {@code send} off the root of a scatterv.
     */
    void gatherv(MemorySegment send, MemorySegment recv, long[] counts, int root);

    /** Packed scatterv: the root's block i ({@code counts[i]} bytes) into rank i's {@code recv}. */
    void scatterv(MemorySegment send, long[] counts, MemorySegment recv, int root);

    /** Packed all-gatherv: every rank's {@code counts[rank]} bytes into every {@code recv}, in rank order. */
    void allgatherv(MemorySegment send, MemorySegment recv, long[] counts);

    /**
     * All-gatherv into the program's memory: every rank's {@code counts[rank]} bytes into every {@code recv}, rank i's
     * at byte {@code displs[i]} (decision 0160).
     */
    void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs);

    /**
     * Starts {@link #allgatherv(MemorySegment, MemorySegment, long[], long[])}: the blocks land in {@code recv} (the
     * program's memory) at their byte displacements. The arrays are read only during this call (decision 0087).
     */
    Pending iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs);

    /** Packed all-to-allv: {@code sendCounts[j]} bytes to rank j, {@code recvCounts[i]} bytes from rank i. */
    void alltoallv(MemorySegment send, long[] sendCounts, MemorySegment recv, long[] recvCounts);

    /**
     * Starts the packed all-to-allv (decision 0108: the count exchange and the data chained in railcoll's engine, so
     * nothing waits here). The non-blocking gatherv and scatterv are all-to-allvs too: their ranks know only their
     * own counts, and the count exchange tells each rank the others' (decision 0109). {@code send} and {@code recv}
     * are never null (empty for nothing).
     */
    Pending ialltoallv(MemorySegment send, long[] sendCounts, MemorySegment recv, long[] recvCounts);

    /** Reduce-scatter with per-rank counts (elements): this rank's block of every rank's vector, combined. */
    void reduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] counts, Operator op);

    /** MPI_Comm_split over these ranks: empty for a negative color. Collective; the caller closes the result. */
    Optional<Backend> split(int color, int key);

    /** The same ranks in the same order, with a context of their own (MPI_Comm_dup). Collective. */
    Backend dup();

    /**
     * {@link #dup()} started without waiting (MPI_Comm_idup), in the order of this backend's collectives: the new
     * backend is {@link DupStart#made()}'s once {@link DupStart#pending()} has finished.
     */
    DupStart idup();

    /** A duplication in flight: the collective that makes it, and the new backend once that has finished. */
    record DupStart(Pending pending, java.util.function.Supplier<Backend> made) {
    }

    /** The ranks on this rank's node, in the order of their ranks here. Collective. */
    Backend splitByNode();

    /** {@code ranks} (ranks here, distinct) in that order; empty where this rank is not listed. Collective. */
    Optional<Backend> create(int[] ranks);

    /**
     * {@code ranks} (ranks here, distinct, this one among them) in that order, made by them alone
     * (MPI_Comm_create_group): the other ranks do not call it. Calls with the same ranks and tag pair up in order.
     */
    Backend createGroup(int[] ranks, int tag);

    /** Leaves the job: says goodbye to the other ranks and releases what the backend holds. */
    void close();
}
