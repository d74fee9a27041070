package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;
import io.railcoll.settings.RailcollSettings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Data-parallel k-means (Lloyd's algorithm), the pattern of distributed training loops: points are split evenly over
 * ranks; every iteration each rank assigns its points to the nearest centroid and sums them per cluster, one
 * all-reduce of {@code clusters * (dims + 1)} doubles adds those partial sums and counts over every rank, and every
 * rank computes the same new centroids. The timed section runs once with the baseline all-reduce and once with the
 * compared one; options in {@link KmeansConfig}.
 *
 * <p>The data make every sum exact ({@link KmeansPoints}), so the checks ask for bits, not tolerances: every rank
 * holds the same centroids, both algorithms give the same centroids, the counts add up to the number of points in
 * every iteration, and, up to {@code reference-max-points}, the centroids equal a single-process run's.
 */
public final class KmeansApp implements RankApp {

    /** One run's timing and what the checks need of it. */
    private record Outcome(String name, RunTiming timing, double[] centroids, long hash, String countProblem) {
    }

    /**
     * Parses the ranks' {@code key=value} options as a rank would, so a launcher can refuse bad ones (a baseline that
     * does not add in rank order in a deterministic job, among others) before starting anything.
     *
     * @throws IllegalArgumentException naming the option that is wrong
     */
    public static void checkOptions(List<String> args, boolean deterministic) {
        KmeansConfig.parse(args, deterministic);
    }

    @Override
    public void run(Communicator comm, List<String> args) throws Exception {
        KmeansConfig c = KmeansConfig.parse(args, RailcollSettings.DETERMINISTIC.read(System.getenv()));
        BlockSplit split = new BlockSplit(c.points(), comm.size());
        double[] mine = KmeansPoints.range(c.seed(), split.start(comm.rank()), split.count(comm.rank()), c.dims(),
                c.clusters());
        long vectorBytes = (long) Double.BYTES * c.vectorLength();
        if (comm.rank() == 0) {
            System.out.println("kmeans: " + c.problem() + " on " + comm.size() + " ranks (" + comm.placement().describe()
                    + "), one all-reduce of " + vectorBytes + " B per iteration, " + split.count(0) + " points on rank 0");
        }
        for (int w = 0; w < c.warmup(); w++) {
            cluster(comm, c, mine, split, "warm-up", c.baseline(), false);
            cluster(comm, c, mine, split, "warm-up", c.compared(), false);
        }
        List<Outcome> outcomes = new ArrayList<>();
        RunTiming baseline = null;
        RunTiming compared = null;
        for (int rep = 0; rep < c.repeats(); rep++) {
            String repeat = c.repeats() > 1 ? " (repeat " + (rep + 1) + ")" : "";
            Outcome b = cluster(comm, c, mine, split, "baseline" + repeat, c.baseline(), false);
            Outcome k = cluster(comm, c, mine, split, "compared" + repeat, c.compared(), c.corruptIteration() > 0);
            baseline = b.timing().best(baseline);
            compared = k.timing().best(compared);
            outcomes.add(b);
            outcomes.add(k);
            if (comm.rank() == 0) {
                System.out.printf(Locale.ROOT, "kmeans: repeat %d: %s %.4f s, %s %.4f s%n", rep + 1,
                        b.timing().label(), b.timing().totalSeconds(), k.timing().label(), k.timing().totalSeconds());
            }
        }
        c.baseline().apply(comm);
        List<String> problems = RankVerdicts.gather(comm, check(comm, c, outcomes));
        String checks = problems.isEmpty() ? passedText(c, comm.size()) : String.join("; ", problems);
        AppResult result = new AppResult("kmeans", comm.placement().describe(), comm.size(), comm.rails(), c.problem(),
                "allreduce", vectorBytes, baseline, compared, problems.isEmpty(), checks);
        AppReporting.report(comm, result, c.result(), c.summary());
    }

    private static Outcome cluster(Communicator comm, KmeansConfig c, double[] mine, BlockSplit split, String role,
                                   AlgorithmChoice choice, boolean corrupt) {
        choice.apply(comm);
        int length = c.vectorLength();
        String label = choice.label(comm, (long) Double.BYTES * length);
        double[] centroids = KmeansPoints.range(c.seed(), 0, c.clusters(), c.dims(), c.clusters());
        double[] totals = new double[length];
        String[] countProblem = {null};
        boolean victim = corrupt && comm.rank() == comm.size() - 1;
        RunTiming timing;
        try (Arena arena = Arena.ofShared()) {
            // Native memory the communicator's progress threads may touch too: the all-reduce reads and writes it in
            // place, with nothing staged.
            MemorySegment vector = arena.allocate((long) Double.BYTES * length, 64);
            timing = RunTiming.measure(comm, choice, label, timed -> {
                for (int it = 1; it <= c.iterations(); it++) {
                    Arrays.fill(totals, 0);
                    KmeansStep.accumulate(mine, split.count(comm.rank()), c.dims(), centroids, c.clusters(), totals);
                    MemorySegment.copy(totals, 0, vector, ValueLayout.JAVA_DOUBLE, 0, length);
                    timed.allreduceSum(vector, length);
                    MemorySegment.copy(vector, ValueLayout.JAVA_DOUBLE, 0, totals, 0, length);
                    if (victim && it == c.corruptIteration()) {
                        totals[c.clusters() * c.dims()] += 1; // as if the reduction had counted a point twice
                    }
                    double counted = KmeansStep.pointsCounted(totals, c.dims(), c.clusters());
                    if (counted != c.points() && countProblem[0] == null) {
                        countProblem[0] = "iteration " + it + " counted " + (long) counted + " points, not " + c.points();
                    }
                    KmeansStep.update(totals, c.dims(), c.clusters(), centroids);
                    timed.countSteps(1);
                }
            });
        }
        return new Outcome(role + " " + label, timing, centroids, Hashing.of(centroids), countProblem[0]);
    }

    /** This rank's findings; comparisons with the first run and the reference are made by rank 0 only. */
    private static List<String> check(Communicator comm, KmeansConfig c, List<Outcome> outcomes) {
        List<String> problems = new ArrayList<>();
        long[] mine = new long[outcomes.size()];
        for (int i = 0; i < outcomes.size(); i++) {
            mine[i] = outcomes.get(i).hash();
            if (outcomes.get(i).countProblem() != null) {
                problems.add(outcomes.get(i).name() + ": " + outcomes.get(i).countProblem());
            }
        }
        long[] all = new long[mine.length * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(mine), MemorySegment.ofArray(all));
        for (int i = 0; i < outcomes.size(); i++) {
            for (int r = 0; r < comm.size(); r++) {
                if (all[r * mine.length + i] != mine[i]) {
                    problems.add(outcomes.get(i).name() + ": centroids differ from rank " + r + "'s");
                    break;
                }
            }
        }
        if (comm.rank() != 0) {
            return problems;
        }
        Outcome first = outcomes.getFirst();
        for (Outcome o : outcomes) {
            String diff = difference(first.centroids(), o.centroids(), c.dims());
            if (diff != null) {
                problems.add(o.name() + ": centroids differ from " + first.name() + "'s: " + diff);
            }
        }
        if (c.points() <= c.referenceMaxPoints()) {
            double[] reference = KmeansStep.reference(c);
            for (Outcome o : outcomes) {
                String diff = difference(reference, o.centroids(), c.dims());
                if (diff != null) {
                    problems.add(o.name() + ": differs from the single-process reference: " + diff);
                }
            }
        }
        return problems;
    }

    /** Null when bit-identical; otherwise the first differing coordinate and how many differ. */
    static String difference(double[] expected, double[] actual, int dims) {
        int first = -1;
        int differing = 0;
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
                differing++;
                if (first < 0) {
                    first = i;
                }
            }
        }
        return first < 0 ? null : String.format(Locale.ROOT, "centroid %d dim %d is %s, expected %s (%d of %d values differ)",
                first / dims, first % dims, actual[first], expected[first], differing, expected.length);
    }

    private static String passedText(KmeansConfig c, int ranks) {
        return ranks + " ranks agree bit for bit, both algorithms give the same centroids, every iteration counted all "
                + c.points() + " points, " + (c.points() <= c.referenceMaxPoints() ? "single-process reference matches"
                : "reference skipped (more than " + c.referenceMaxPoints() + " points)");
    }
}
