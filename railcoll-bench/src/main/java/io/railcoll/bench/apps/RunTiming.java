package io.railcoll.bench.apps;

import io.railcoll.Communicator;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * One timed run of an application: the slowest rank's wall time of the timed section and the slowest rank's time
 * inside collectives (max over ranks for both, so a skewed rank is not averaged away: the job is as slow as its
 * slowest rank).
 *
 * @param label    the algorithm as reports show it ({@code allgather.ring}, {@code auto:allgather.bruck})
 * @param totalNs  wall time of the timed section, max over ranks
 * @param commNs   time inside collectives during it, max over ranks
 * @param calls    collectives called by each rank during it
 */
public record RunTiming(String label, long totalNs, long commNs, long calls) {

    /**
     * Runs {@code section} on every rank between a barrier and the clock reads, then agrees on the maxima with one
     * small all-gather. The barrier makes every rank start together, so the first collective does not absorb the
     * other ranks' set-up skew.
     */
    static RunTiming measure(Communicator comm, String label, Consumer<TimedCollectives> section) {
        TimedCollectives timed = new TimedCollectives(comm);
        comm.barrier();
        long t0 = System.nanoTime();
        section.accept(timed);
        long total = System.nanoTime() - t0;
        long[] mine = {total, timed.commNs()};
        long[] all = new long[2 * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(mine), MemorySegment.ofArray(all));
        long maxTotal = 0;
        long maxComm = 0;
        for (int r = 0; r < comm.size(); r++) {
            maxTotal = Math.max(maxTotal, all[2 * r]);
            maxComm = Math.max(maxComm, all[2 * r + 1]);
        }
        return new RunTiming(label, maxTotal, maxComm, timed.calls());
    }

    public double totalSeconds() {
        return totalNs / 1e9;
    }

    public double commSeconds() {
        return commNs / 1e9;
    }

    /** The better of two repeats of the same configuration: the one with the shorter total time. */
    RunTiming best(RunTiming other) {
        return other == null || totalNs <= other.totalNs ? this : other;
    }
}
