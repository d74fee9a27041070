package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.MessageRequest;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Collective;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The collectives an application's timed section calls, each timed, so the app can report its communication time
 * (wall time inside collectives, waiting for late peers included, as an MPI profiler would count it).
 *
 * <p>The <em>main</em> collective is the one the run compares (the all-gather of positions or digit counts, the
 * all-reduce of k-means' partial sums): it uses the run's {@link AlgorithmChoice}. Any other all-gather (the radix sort's fallback key exchange) uses automatic selection in
 * every run, and all-to-all is never forced, so baseline and compared runs differ only in the main all-gather, as in
 * paper 000's Table 1. Forcing is per collective, so the choice is re-applied when the kind of all-gather changes.
 *
 * <p>One per run; used by the rank's single application thread. Buffers over non-byte arrays are staged
 * ({@link Staging}) outside the timed part.
 */
final class TimedCollectives {
    private final Communicator comm;
    private final AlgorithmChoice main;
    private final Staging staging = new Staging();
    /** The tag of {@link #exchange}'s messages. */
    static final int EXCHANGE_TAG = 22;
    private AlgorithmChoice applied;
    private long mainNs;
    private long otherNs;
    private long calls;
    private long steps;

    TimedCollectives(Communicator comm, AlgorithmChoice main) {
        this.comm = comm;
        this.main = main;
    }

    /** The compared all-gather, with the run's algorithm. */
    void allgather(MemorySegment send, MemorySegment recv) {
        use(main);
        mainNs += allgatherNs(send, recv);
    }

    /**
     * The compared all-reduce, with the run's algorithm: {@code count} doubles of {@code buffer} (native memory, so
     * nothing is staged) summed over every rank, in place.
     */
    void allreduceSum(MemorySegment buffer, long count) {
        use(main);
        long t0 = System.nanoTime();
        comm.allreduce(buffer, ElementType.DOUBLE, count, PredefinedOperator.SUM);
        mainNs += System.nanoTime() - t0;
        calls++;
    }

    /** An all-gather outside the comparison, with automatic selection in every run. */
    void otherAllgather(MemorySegment send, MemorySegment recv) {
        use(AlgorithmChoice.automatic(Collective.ALLGATHER));
        otherNs += allgatherNs(send, recv);
    }

    /**
     * Point-to-point messages outside the comparison (the CG app's halo exchange): receives from every
     * {@code peers[k]} into {@code recvs[k]} and sends it {@code sends[k]}, all posted at once (receives first, so
     * every message finds its buffer), then waits for all. Empty buffers are skipped. Native segments only; one call.
     */
    void exchange(int[] peers, MemorySegment[] sends, MemorySegment[] recvs) {
        List<MessageRequest> requests = new ArrayList<>(2 * peers.length);
        long t0 = System.nanoTime();
        for (int k = 0; k < peers.length; k++) {
            if (recvs[k].byteSize() > 0) {
                requests.add(comm.irecv(recvs[k], peers[k], EXCHANGE_TAG));
            }
        }
        for (int k = 0; k < peers.length; k++) {
            if (sends[k].byteSize() > 0) {
                requests.add(comm.isend(sends[k], peers[k], EXCHANGE_TAG));
            }
        }
        for (MessageRequest r : requests) {
            r.await();
        }
        otherNs += System.nanoTime() - t0;
        calls++;
    }

    void alltoall(MemorySegment send, MemorySegment recv) {
        MemorySegment s = staging.send(send);
        MemorySegment r = staging.recv(recv);
        long t0 = System.nanoTime();
        comm.alltoall(s, r);
        otherNs += System.nanoTime() - t0;
        calls++;
        Staging.received(r, recv);
    }

    private long allgatherNs(MemorySegment send, MemorySegment recv) {
        MemorySegment s = staging.send(send);
        MemorySegment r = staging.recv(recv);
        long t0 = System.nanoTime();
        comm.allgather(s, r);
        long ns = System.nanoTime() - t0;
        calls++;
        Staging.received(r, recv);
        return ns;
    }

    private void use(AlgorithmChoice choice) {
        if (!choice.equals(applied)) {
            choice.apply(comm);
            applied = choice;
        }
    }

    /** Time inside the compared collective. */
    long mainNs() {
        return mainNs;
    }

    /** Time inside every collective. */
    long commNs() {
        return mainNs + otherNs;
    }

    long calls() {
        return calls;
    }

    /** Counts {@code n} steps of the app's loop (iterations, time steps), for the per-step times of the report. */
    void countSteps(long n) {
        steps += n;
    }

    long steps() {
        return steps;
    }
}
