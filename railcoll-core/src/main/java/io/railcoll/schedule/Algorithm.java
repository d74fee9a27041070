package io.railcoll.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A collective algorithm: a pure function from a {@link Shape} to each rank's {@link RankProgram}.
 *
 * <p>Implementations import no sockets, threads, clocks or randomness, so every algorithm can be checked for any
 * shape in milliseconds, costed and simulated. They are stateless and thread-safe.
 */
public interface Algorithm {

    /** Stable id used in configuration, the CLI and reports, e.g. {@code allgather.bruck}. */
    String id();

    Collective collective();

    /** Why this algorithm cannot run {@code shape}, or empty when it can. */
    default Optional<String> unsupportedReason(Shape shape) {
        return Optional.empty();
    }

    /** The program of {@code rank} for {@code shape}; only called when {@link #unsupportedReason} is empty. */
    RankProgram program(Shape shape, int rank);

    /**
     * Whether a reduction by this algorithm combines every element in the fixed order of a sequential loop over the
     * ranks, {@code ((s0 op s1) op s2) ... op s(N-1)}, so that its floating-point bits do not depend on the
     * placement, the rails or k; the communicator's deterministic option runs only such reductions (decision 0091).
     */
    default boolean deterministic() {
        return false;
    }

    /** One line for {@code railcoll info}: restrictions, cost formula, paper and section. */
    String summary();

    /**
     * The cost of running {@code shape}; only called when {@link #unsupportedReason} is empty.
     *
     * <p>The default measures the programs themselves, which the {@link ScheduleChecker} cannot hold against
     * anything; an algorithm should instead state its own closed form (steps, beta bytes, bytes per link class),
     * which the checker then verifies against its programs.
     */
    default CostTerms cost(Shape shape) {
        return measuredCost(shape, "measured from the programs of " + id());
    }

    /**
     * The cost terms measured from this algorithm's programs for {@code shape} ({@link Traffic}), stated with
     * {@code formula}: for an algorithm whose phases depend on the placement too much for one closed form.
     */
    default CostTerms measuredCost(Shape shape, String formula) {
        List<RankProgram> programs = new ArrayList<>(shape.size());
        for (int r = 0; r < shape.size(); r++) {
            programs.add(program(shape, r));
        }
        return Traffic.of(programs).cost(shape.placement(), shape.ports(), formula);
    }
}
