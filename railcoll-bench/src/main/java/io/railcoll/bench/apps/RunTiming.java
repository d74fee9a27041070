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
 * @param mainNs   time inside the compared all-gather (positions, digit counts), max over ranks
 * @param otherNs  time inside the other communication (the CG app's halo exchange), max over ranks
 * @param calls    collectives called by each rank during it (a halo exchange counts as one)
 * @param steps    iterations of the app's loop that rank 0 counted ({@link TimedCollectives#countSteps}); 0 when the app
 *                 does not count them, and then no per-step times are reported
 */
public record RunTiming(String label, long totalNs, long commNs, long mainNs, long otherNs, long calls, long steps) {

    /** A timing without a count of steps; the other communication is what the compared collective leaves. */
    public RunTiming(String label, long totalNs, long commNs, long mainNs, long calls) {
        this(label, totalNs, commNs, mainNs, Math.max(0, commNs - mainNs), calls, 0);
    }

    /**
     * Runs {@code section} on every rank after a synchronising all-gather, then agrees on the maxima with one small
     * all-gather. Starting together keeps the other ranks' set-up skew out of the first timed collective. An
     * all-gather synchronises like a barrier (no rank's result is complete before every rank has contributed) and,
     * unlike a barrier, needs no algorithm beyond the all-gather the app uses anyway.
     */
    static RunTiming measure(Communicator comm, AlgorithmChoice choice, String label, Consumer<TimedCollectives> section) {
        TimedCollectives timed = new TimedCollectives(comm, choice);
        choice.apply(comm);
        Staging.allgather(comm, MemorySegment.ofArray(new byte[1]), MemorySegment.ofArray(new byte[comm.size()]));
        long t0 = System.nanoTime();
        section.accept(timed);
        long total = System.nanoTime() - t0;
        long[] mine = {total, timed.commNs(), timed.mainNs(), timed.commNs() - timed.mainNs()};
        long[] all = new long[mine.length * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(mine), MemorySegment.ofArray(all));
        long[] max = new long[mine.length];
        for (int r = 0; r < comm.size(); r++) {
            for (int k = 0; k < mine.length; k++) {
                max[k] = Math.max(max[k], all[mine.length * r + k]);
            }
        }
        return new RunTiming(label, max[0], max[1], max[2], max[3], timed.calls(), timed.steps());
    }

    public double totalSeconds() {
        return totalNs / 1e9;
    }

    public double commSeconds() {
        return commNs / 1e9;
    }

    public double mainSeconds() {
        return mainNs / 1e9;
    }

    public double otherSeconds() {
        return otherNs / 1e9;
    }

    /** The better of two repeats of the same configuration: the one with the shorter total time. */
    RunTiming best(RunTiming other) {
        return other == null || totalNs <= other.totalNs ? this : other;
    }
}
