package io.railcoll.bench;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Collective;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code bench} times when a collective reduces: a sum of doubles, the case MPI benchmarks time too (OSU's
 * osu_allreduce), so railcoll, peer_bench.c and MpjBench all add the same elements. A size is the vector's bytes on
 * every rank, so it must be a whole number of doubles.
 */
public final class TimedReduction {
    public static final ElementType TYPE = ElementType.DOUBLE;
    public static final PredefinedOperator OPERATOR = PredefinedOperator.SUM;

    private TimedReduction() {
    }

    /** What bench times; the other collectives are checked by the test suite only. */
    private static final Set<Collective> TIMED = EnumSet.of(Collective.BARRIER, Collective.BROADCAST, Collective.GATHER,
            Collective.SCATTER, Collective.ALLGATHER, Collective.ALLTOALL, Collective.ALLREDUCE);

    /** Whether bench times {@code c}. */
    public static boolean timed(Collective c) {
        return TIMED.contains(c);
    }

    /** Whether peer_bench.c and MpjBench time {@code c} too: what bench times but scatter. */
    public static boolean peersRun(Collective c) {
        return timed(c) && c != Collective.SCATTER;
    }

    /** Null when every size suits {@code c}; otherwise what is wrong, naming the first size that does not. */
    public static String sizeProblem(Collective c, List<Long> sizes) {
        if (!c.reduces()) {
            return null;
        }
        for (long s : sizes) {
            if (s % TYPE.sizeBytes() != 0) {
                return c.id() + " sums " + TYPE + " elements of " + TYPE.sizeBytes()
                        + " bytes, so every size must be a multiple of " + TYPE.sizeBytes() + "; " + s + " is not";
            }
        }
        return null;
    }

    /**
     * The element {@code source} contributes at {@code index}: a small integer (below 1024), so that every sum over
     * ranks is exact in any order of addition and a missing, doubled or misplaced contribution changes it.
     */
    public static double term(int seed, int source, long index) {
        return Patterns.value(seed, source, 0, index) & 0x3FF;
    }
}
