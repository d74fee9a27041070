package io.railcoll.bench;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Collective;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code bench} times when a collective reduces: a sum of doubles, the case MPI benchmarks time too (OSU's
 * osu_allreduce, osu_reduce_scatter, osu_scan), so railcoll, peer_bench.c and MpjBench all add the same elements. A
 * size is the vector's bytes on every rank (for reduce-scatter, each rank's block of the result, as {@code
 * Collective#REDUCE_SCATTER} defines it), so it must be a whole number of doubles. Reduce goes to the bench's root.
 */
public final class TimedReduction {
    public static final ElementType TYPE = ElementType.DOUBLE;
    public static final PredefinedOperator OPERATOR = PredefinedOperator.SUM;

    private TimedReduction() {
    }

    /** What bench times: every collective; the v-variants with every rank's count the size swept. */
    private static final Set<Collective> TIMED = EnumSet.allOf(Collective.class);

    /** Whether bench times {@code c}. */
    public static boolean timed(Collective c) {
        return TIMED.contains(c);
    }

    /**
     * Whether peer_bench.c times {@code c} too: what bench times but scatter and the v-variants. MPJ Express times
     * fewer still ({@code MpjPeer#runs}).
     */
    public static boolean peersRun(Collective c) {
        return timed(c) && c != Collective.SCATTER && !c.variable();
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
