package io.railcoll.bench.apps;

import io.railcoll.schedule.Collective;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The k-means app's options, parsed from {@code key=value} arguments (defaults in brackets):
 * <ul>
 *   <li>{@code points} [200000] (at most {@link KmeansPoints#MAX_POINTS}), {@code dims} [8], {@code clusters} [16],
 *       {@code iterations} [20], {@code seed} [42];</li>
 *   <li>{@code baseline} [allreduce.ring; with RAILCOLL_DETERMINISTIC=on allreduce.deterministic] and {@code algorithm} [auto]: the two all-reduce choices compared;</li>
 *   <li>{@code warmup} [1] and {@code repeats} [1], as the other apps;</li>
 *   <li>{@code reference-max-points} [200000]: up to this many points rank 0 also runs the single-process
 *       reference;</li>
 *   <li>{@code result}, {@code summary}: as the other apps;</li>
 *   <li>{@code corrupt-iteration} [0: off]: for tests only, the last rank adds one to a cluster's count after that
 *       iteration's all-reduce in the compared run, as a broken reduction would, so the checks must fail.</li>
 * </ul>
 */
record KmeansConfig(int points, int dims, int clusters, int iterations, long seed, AlgorithmChoice baseline,
                    AlgorithmChoice compared, int warmup, int repeats, int referenceMaxPoints, Path result,
                    boolean summary, int corruptIteration, boolean deterministic) {

    static final Set<String> KEYS = Set.of("points", "dims", "clusters", "iterations", "seed", "baseline", "algorithm",
            "warmup", "repeats", "reference-max-points", "result", "summary", "corrupt-iteration");

    KmeansConfig {
        AlgorithmChoice.requireDeterministic("kmeans", deterministic, baseline, compared);
        if (points > KmeansPoints.MAX_POINTS) {
            throw new IllegalArgumentException("kmeans: points must be at most " + KmeansPoints.MAX_POINTS
                    + " (beyond that the sums are no longer exact in doubles), got " + points);
        }
        if (clusters > points) {
            throw new IllegalArgumentException("kmeans: clusters (" + clusters + ") must not exceed points (" + points
                    + "): the first points are the initial centroids");
        }
    }

    /** @param deterministic RAILCOLL_DETERMINISTIC of this job */
    static KmeansConfig parse(List<String> args, boolean deterministic) {
        AppArgs a = AppArgs.parse("kmeans", args, KEYS);
        String result = a.string("result", null);
        return new KmeansConfig(a.intValue("points", 200_000, 1), a.intValue("dims", 8, 1), a.intValue("clusters", 16, 1),
                a.intValue("iterations", 20, 1), a.longValue("seed", 42, Long.MIN_VALUE),
                AlgorithmChoice.parse(Collective.ALLREDUCE, a.string("baseline", AlgorithmChoice.allreduceBaseline(deterministic))),
                AlgorithmChoice.parse(Collective.ALLREDUCE, a.string("algorithm", AlgorithmChoice.AUTO)),
                a.intValue("warmup", 1, 0), a.intValue("repeats", 1, 1), a.intValue("reference-max-points", 200_000, 0),
                result == null ? null : Path.of(result), a.bool("summary", true), a.intValue("corrupt-iteration", 0, 0), deterministic);
    }

    /** Doubles in one all-reduce: each cluster's coordinate sums, then each cluster's count. */
    int vectorLength() {
        return clusters * (dims + 1);
    }

    String problem() {
        return points + " points, " + dims + " dims, " + clusters + " clusters, " + iterations + " iterations";
    }
}
