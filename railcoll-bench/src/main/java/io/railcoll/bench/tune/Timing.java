package io.railcoll.bench.tune;

import io.railcoll.Communicator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Timing helpers shared by the tuning experiments; called by every rank in step. */
final class Timing {
    private Timing() {
    }

    /**
     * How many repetitions of {@code once} fit in {@code budgetNs}, from one timed repetition on rank 0: broadcast,
     * so every rank runs the same count (a collective count that differed across ranks would hang).
     */
    static int agreedRepetitions(Communicator comm, long budgetNs, Runnable once) {
        comm.barrier();
        long t0 = System.nanoTime();
        once.run();
        long one = Math.max(1, System.nanoTime() - t0);
        MemorySegment est = MemorySegment.ofArray(new byte[Long.BYTES]);
        est.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, one);
        comm.broadcast(est, 0);
        long agreed = est.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        return (int) Math.clamp(budgetNs / agreed, 1, 10_000);
    }
}
