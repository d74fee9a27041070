package mpi;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;

import java.lang.foreign.MemorySegment;

/**
 * The collectives a {@link Comm} runs, on packed bytes: railcoll's {@link io.railcoll.Communicator} for
 * {@code COMM_WORLD} ({@link RailcollBackend}), a local copy for the one-rank {@code COMM_SELF}
 * ({@link SelfBackend}). Buffers are native segments or heap segments over {@code byte[]}, already packed; every
 * datatype question has been answered before a call reaches here. A collective railcoll-core adds (reduce, scatter,
 * scan, point-to-point, requests) becomes one method here and one in each implementation.
 */
interface Backend {
    int rank();

    int size();

    void barrier();

    void broadcast(MemorySegment buffer, int root);

    /** {@code recv} is only used on the root. */
    void gather(MemorySegment send, MemorySegment recv, int root);

    void allgather(MemorySegment send, MemorySegment recv);

    void alltoall(MemorySegment send, MemorySegment recv);

    /** {@code send == recv} reduces in place. */
    void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op);

    /** Leaves the job: says goodbye to the other ranks and releases what the backend holds. */
    void close();
}
