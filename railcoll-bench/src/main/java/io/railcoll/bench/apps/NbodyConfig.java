package io.railcoll.bench.apps;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The N-body app's options, parsed from {@code key=value} arguments (defaults in brackets):
 * <ul>
 *   <li>{@code bodies} [2048], {@code steps} [20], {@code dt} [0.001], {@code eps} (softening) [0.05], {@code seed} [42];</li>
 *   <li>{@code baseline} [allgather.ring] and {@code algorithm} [auto]: the two all-gather choices compared;</li>
 *   <li>{@code warmup} [1]: untimed runs with each choice first (JIT compilation, connection set-up);
 *       {@code repeats} [1]: timed runs with each choice, alternating, the fastest reported;</li>
 *   <li>{@code reference-max-bodies} [4096]: up to this many bodies rank 0 also runs the single-process reference;</li>
 *   <li>{@code momentum-tolerance} [1e-12] (relative to sum of m|v|), {@code energy-tolerance} [1e-4] (relative);</li>
 *   <li>{@code result}: file where rank 0 writes the {@link AppResult}; {@code summary} [true]: whether rank 0
 *       prints it (the {@code app} command prints a table instead);</li>
 *   <li>{@code corrupt-step} [0: off]: for tests only, the last rank shifts one received position after that step's
 *       exchange in the compared run, as a broken all-gather would, so the checks must fail.</li>
 * </ul>
 */
record NbodyConfig(int bodies, int steps, double dt, double eps, long seed, AlgorithmChoice baseline,
                   AlgorithmChoice compared, int warmup, int repeats, int referenceMaxBodies, double momentumTolerance,
                   double energyTolerance, Path result, boolean summary, int corruptStep) {

    static final Set<String> KEYS = Set.of("bodies", "steps", "dt", "eps", "seed", "baseline", "algorithm", "warmup",
            "repeats", "reference-max-bodies", "momentum-tolerance", "energy-tolerance", "result", "summary", "corrupt-step");

    static NbodyConfig parse(List<String> args) {
        AppArgs a = AppArgs.parse("nbody", args, KEYS);
        String result = a.string("result", null);
        return new NbodyConfig(a.intValue("bodies", 2048, 1), a.intValue("steps", 20, 1), a.doubleValue("dt", 1e-3),
                a.doubleValue("eps", 0.05), a.longValue("seed", 42, Long.MIN_VALUE),
                AlgorithmChoice.parse(a.string("baseline", "allgather.ring")),
                AlgorithmChoice.parse(a.string("algorithm", AlgorithmChoice.AUTO)),
                a.intValue("warmup", 1, 0), a.intValue("repeats", 1, 1), a.intValue("reference-max-bodies", 4096, 0),
                a.doubleValue("momentum-tolerance", 1e-12), a.doubleValue("energy-tolerance", 1e-4),
                result == null ? null : Path.of(result), a.bool("summary", true),
                a.intValue("corrupt-step", 0, 0));
    }

    String problem() {
        return bodies + " bodies, " + steps + " steps";
    }
}
