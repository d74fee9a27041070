package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;
import io.railcoll.settings.RailcollSettings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Conjugate gradient on a distributed sparse matrix, the pattern of implicit solvers: the 2-D Poisson 5-point
 * stencil on an n x n grid ({@link PoissonGrid}), rows block-distributed over the ranks ({@link BlockSplit}, uneven
 * counts allowed). Every iteration does one matrix product after a point-to-point halo exchange with the ranks whose
 * rows the stencil reaches ({@link HaloPlan}), and two dot products, each one all-reduce of a single double
 * ({@link DistributedCgSpace}). The timed section (the whole solve) runs once with the baseline all-reduce and once
 * with the compared one; options in {@link CgConfig}.
 *
 * <p>Checks ({@link CgChecks}): every rank ends with the same iterations and residual; rank 0 gathers each run's
 * solution and, up to {@code reference-max-rows}, compares it with single-process solves of the same problem: in
 * deterministic mode (RAILCOLL_DETERMINISTIC=on) bit for bit with the rank-order reference, and in every mode within
 * the bounds that CG's residual criterion gives against the sequential one. Beyond the reference, the true residual
 * of each solution is still checked.
 */
public final class CgApp implements RankApp {

    /** One run's timing and result (x whole on rank 0, this rank's part elsewhere). */
    private record Outcome(String name, RunTiming timing, CgSolver.Solution solution, double[] whole) {
    }

    @Override
    public void run(Communicator comm, List<String> args) throws Exception {
        CgConfig c = CgConfig.parse(args, RailcollSettings.DETERMINISTIC.read(System.getenv()));
        BlockSplit split = new BlockSplit(c.grid().rows(), comm.size());
        double[] b = PoissonGrid.rhs(c.seed(), (int) split.start(comm.rank()), split.count(comm.rank()));
        HaloPlan plan = HaloPlan.of(c.grid(), split, comm.rank());
        if (comm.rank() == 0) {
            System.out.println("cg: " + c.problem() + " on " + comm.size() + " ranks (" + comm.placement().describe()
                    + "); per iteration two all-reduces of 8 B and one halo exchange (rank 0: " + split.count(0)
                    + " rows, " + plan.peers().size() + " peers, " + plan.received() + " values in)");
        }
        for (int w = 0; w < c.warmup(); w++) {
            solve(comm, c, split, b, "warm-up", c.baseline(), false);
            solve(comm, c, split, b, "warm-up", c.compared(), false);
        }
        List<Outcome> outcomes = new ArrayList<>();
        RunTiming baseline = null;
        RunTiming compared = null;
        for (int rep = 0; rep < c.repeats(); rep++) {
            String repeat = c.repeats() > 1 ? " (repeat " + (rep + 1) + ")" : "";
            Outcome o1 = solve(comm, c, split, b, "baseline" + repeat, c.baseline(), false);
            Outcome o2 = solve(comm, c, split, b, "compared" + repeat, c.compared(), c.corruptProduct() > 0);
            baseline = o1.timing().best(baseline);
            compared = o2.timing().best(compared);
            outcomes.add(o1);
            outcomes.add(o2);
            if (comm.rank() == 0) {
                System.out.printf(Locale.ROOT, "cg: repeat %d: %s %.4f s (%d iterations), %s %.4f s (%d iterations)%n",
                        rep + 1, o1.timing().label(), o1.timing().totalSeconds(), o1.solution().iterations(),
                        o2.timing().label(), o2.timing().totalSeconds(), o2.solution().iterations());
            }
        }
        c.baseline().apply(comm);
        List<String> problems = RankVerdicts.gather(comm, check(comm, c, outcomes));
        String checks = problems.isEmpty() ? passedText(c, comm.size(), outcomes) : String.join("; ", problems);
        AppResult result = new AppResult("cg", comm.placement().describe(), comm.size(), comm.rails(), c.problem(),
                "allreduce", Double.BYTES, baseline, compared, problems.isEmpty(), checks, "halo point-to-point");
        AppReporting.report(comm, result, c.result(), c.summary());
    }

    /**
     * Parses the ranks' {@code key=value} options as a rank would, so a launcher can refuse bad ones before starting
     * anything.
     *
     * @throws IllegalArgumentException naming the option that is wrong
     */
    public static void checkOptions(List<String> args, boolean deterministic) {
        CgConfig.parse(args, deterministic);
    }

    private static Outcome solve(Communicator comm, CgConfig c, BlockSplit split, double[] b, String role,
                                 AlgorithmChoice choice, boolean corrupt) {
        choice.apply(comm);
        String label = choice.label(comm, Double.BYTES);
        boolean victim = corrupt && comm.rank() == comm.size() - 1;
        CgSolver.Solution[] solution = new CgSolver.Solution[1];
        RunTiming timing;
        try (Arena arena = Arena.ofShared()) {
            timing = RunTiming.measure(comm, choice, label, timed -> {
                DistributedCgSpace space = new DistributedCgSpace(c.grid(), split, comm.rank(), timed, arena,
                        victim ? c.corruptProduct() : 0);
                solution[0] = CgSolver.solve(space, b, c.tolerance(), c.maxIterations());
                timed.countSteps(solution[0].iterations());
            });
        }
        return new Outcome(role + " " + label, timing, solution[0], gather(comm, split, solution[0].x()));
    }

    /** The whole solution on rank 0 (one gatherv of every rank's part); null elsewhere. */
    private static double[] gather(Communicator comm, BlockSplit split, double[] mine) {
        long[] counts = new long[comm.size()];
        for (int r = 0; r < comm.size(); r++) {
            counts[r] = (long) Double.BYTES * split.count(r);
        }
        // Shared: the communicator's progress threads touch the buffers too.
        try (Arena arena = Arena.ofShared()) {
            MemorySegment send = mine.length == 0 ? null : arena.allocate((long) Double.BYTES * mine.length, 8);
            if (send != null) {
                MemorySegment.copy(mine, 0, send, ValueLayout.JAVA_DOUBLE, 0, mine.length);
            }
            MemorySegment recv = comm.rank() == 0 ? arena.allocate(Math.max(8, Double.BYTES * split.total()), 8) : null;
            comm.gatherv(send, recv, counts, null, 0);
            return comm.rank() == 0 ? recv.asSlice(0, Double.BYTES * split.total()).toArray(ValueLayout.JAVA_DOUBLE) : null;
        }
    }

    /** This rank's findings; comparisons with the references are made by rank 0 only. */
    private static List<String> check(Communicator comm, CgConfig c, List<Outcome> outcomes) {
        List<String> problems = new ArrayList<>();
        // Every rank must have stopped after the same iterations with the same residual bits: the all-reduce gives
        // every rank the same dot products.
        long[] mine = new long[2 * outcomes.size()];
        for (int i = 0; i < outcomes.size(); i++) {
            mine[2 * i] = outcomes.get(i).solution().iterations();
            mine[2 * i + 1] = Double.doubleToRawLongBits(outcomes.get(i).solution().relativeResidual());
        }
        long[] all = new long[mine.length * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(mine), MemorySegment.ofArray(all));
        for (int i = 0; i < outcomes.size(); i++) {
            for (int r = 0; r < comm.size(); r++) {
                if (all[r * mine.length + 2 * i] != mine[2 * i] || all[r * mine.length + 2 * i + 1] != mine[2 * i + 1]) {
                    problems.add(outcomes.get(i).name() + ": rank " + r + " stopped elsewhere (iterations or residual differ)");
                    break;
                }
            }
        }
        if (comm.rank() != 0) {
            return problems;
        }
        double[] b = PoissonGrid.rhs(c.seed(), 0, c.grid().rows());
        if (c.grid().rows() > c.referenceMaxRows()) {
            for (Outcome o : outcomes) {
                double residual = CgChecks.trueResidual(c.grid(), b, o.whole()) / CgChecks.norm(b);
                if (!(residual <= 2 * c.tolerance())) {
                    problems.add(String.format(Locale.ROOT, "%s: true residual %.3e, above 2 x tolerance", o.name(), residual));
                }
            }
            return problems;
        }
        CgChecks.Judged sequential = CgChecks.Judged.of("sequential",
                RankOrderCgSpace.solve(c.grid(), 1, c.seed(), c.tolerance(), c.maxIterations()));
        CgChecks.Judged rankOrder = CgChecks.Judged.of("rank-order",
                RankOrderCgSpace.solve(c.grid(), comm.size(), c.seed(), c.tolerance(), c.maxIterations()));
        for (Outcome o : outcomes) {
            CgChecks.Judged run = new CgChecks.Judged(o.name(), o.whole(), o.solution().iterations(),
                    o.solution().relativeResidual());
            problems.addAll(CgChecks.judge(run, c.grid(), b, c.tolerance(), sequential, rankOrder, c.deterministic()));
        }
        return problems;
    }

    private static String passedText(CgConfig c, int ranks, List<Outcome> outcomes) {
        CgSolver.Solution first = outcomes.getFirst().solution();
        String reference = c.grid().rows() > c.referenceMaxRows()
                ? "true residual within 2 x tolerance; references skipped (more than " + c.referenceMaxRows() + " unknowns)"
                : c.deterministic()
                ? "bit-identical to the rank-order reference (iterations, residual, x) and within the CG bounds of the sequential one"
                : "within the CG bounds of the sequential reference (true residual, ||x - x_ref||, iterations +-"
                + CgChecks.ITERATION_SLACK + ")";
        return String.format(Locale.ROOT, "%d ranks stopped alike, %d iterations to residual %.3e, %s", ranks,
                first.iterations(), first.relativeResidual(), reference);
    }
}
