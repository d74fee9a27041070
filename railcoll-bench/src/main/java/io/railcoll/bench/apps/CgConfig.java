package io.railcoll.bench.apps;

import io.railcoll.schedule.Collective;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The CG app's options, parsed from {@code key=value} arguments (defaults in brackets):
 * <ul>
 *   <li>{@code grid} [128]: the side n of the n x n Poisson grid, n^2 unknowns (at most {@link PoissonGrid#MAX_N});</li>
 *   <li>{@code tolerance} [1e-8]: stop when {@code ||r|| <= tolerance ||b||}, in (0, 1);</li>
 *   <li>{@code max-iterations} [10000]: stop there at the latest;</li>
 *   <li>{@code seed} [42]: of the right-hand side;</li>
 *   <li>{@code baseline} [allreduce.ring; with RAILCOLL_DETERMINISTIC=on allreduce.deterministic] and
 *       {@code algorithm} [auto]: the two all-reduce choices compared (the dot products);</li>
 *   <li>{@code warmup} [1] and {@code repeats} [1], as the other apps;</li>
 *   <li>{@code reference-max-rows} [262144]: up to this many unknowns rank 0 also runs the single-process
 *       references;</li>
 *   <li>{@code result}, {@code summary}: as the other apps;</li>
 *   <li>{@code corrupt-product} [0: off]: for tests only, the last rank adds one to a received halo value before that
 *       matrix product in the compared run, as a corrupted message would, so the checks must fail.</li>
 * </ul>
 *
 * @param deterministic whether this job's reductions fold in rank order (RAILCOLL_DETERMINISTIC, decision 0091)
 */
record CgConfig(PoissonGrid grid, double tolerance, int maxIterations, long seed, AlgorithmChoice baseline,
                AlgorithmChoice compared, int warmup, int repeats, int referenceMaxRows, Path result, boolean summary,
                int corruptProduct, boolean deterministic) {

    static final Set<String> KEYS = Set.of("grid", "tolerance", "max-iterations", "seed", "baseline", "algorithm",
            "warmup", "repeats", "reference-max-rows", "result", "summary", "corrupt-product");

    CgConfig {
        if (!(tolerance < 1)) {
            throw new IllegalArgumentException("cg: tolerance must be below 1 (a relative residual), got " + tolerance);
        }
        AlgorithmChoice.requireDeterministic("cg", deterministic, baseline, compared);
    }

    /** @param deterministic RAILCOLL_DETERMINISTIC of this job */
    static CgConfig parse(List<String> args, boolean deterministic) {
        AppArgs a = AppArgs.parse("cg", args, KEYS);
        String result = a.string("result", null);
        String baseline = a.string("baseline", AlgorithmChoice.allreduceBaseline(deterministic));
        return new CgConfig(new PoissonGrid(a.intValue("grid", 128, 1)), a.doubleValue("tolerance", 1e-8),
                a.intValue("max-iterations", 10_000, 1), a.longValue("seed", 42, Long.MIN_VALUE),
                AlgorithmChoice.parse(Collective.ALLREDUCE, baseline),
                AlgorithmChoice.parse(Collective.ALLREDUCE, a.string("algorithm", AlgorithmChoice.AUTO)),
                a.intValue("warmup", 1, 0), a.intValue("repeats", 1, 1), a.intValue("reference-max-rows", 1 << 18, 0),
                result == null ? null : Path.of(result), a.bool("summary", true), a.intValue("corrupt-product", 0, 0),
                deterministic);
    }

    String problem() {
        return String.format(Locale.ROOT, "2-D Poisson %dx%d (%d unknowns), tolerance %.1e, at most %d iterations%s",
                grid.n(), grid.n(), grid.rows(), tolerance, maxIterations, deterministic ? ", deterministic" : "");
    }
}
