package io.railcoll.bench.apps;

import io.railcoll.Communicator;

import java.lang.foreign.MemorySegment;

/**
 * The collectives an application's timed section calls, each timed, so the app can report its communication time
 * (wall time inside collectives, waiting for late peers included, as an MPI profiler would count it). One per run;
 * used by the rank's single application thread. Buffers over non-byte arrays are staged ({@link Staging}) outside
 * the timed part.
 */
final class TimedCollectives {
    private final Communicator comm;
    private final Staging staging = new Staging();
    private long allgatherNs;
    private long alltoallNs;
    private long calls;

    TimedCollectives(Communicator comm) {
        this.comm = comm;
    }

    void allgather(MemorySegment send, MemorySegment recv) {
        MemorySegment s = staging.send(send);
        MemorySegment r = staging.recv(recv);
        long t0 = System.nanoTime();
        comm.allgather(s, r);
        allgatherNs += System.nanoTime() - t0;
        calls++;
        Staging.received(r, recv);
    }

    void alltoall(MemorySegment send, MemorySegment recv) {
        MemorySegment s = staging.send(send);
        MemorySegment r = staging.recv(recv);
        long t0 = System.nanoTime();
        comm.alltoall(s, r);
        alltoallNs += System.nanoTime() - t0;
        calls++;
        Staging.received(r, recv);
    }

    long allgatherNs() {
        return allgatherNs;
    }

    long commNs() {
        return allgatherNs + alltoallNs;
    }

    long calls() {
        return calls;
    }
}
