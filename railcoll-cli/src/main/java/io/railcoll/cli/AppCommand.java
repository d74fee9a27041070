package io.railcoll.cli;

import io.railcoll.bench.apps.AlgorithmChoice;
import io.railcoll.bench.apps.AppResult;
import io.railcoll.bench.apps.CgApp;
import io.railcoll.bench.apps.KmeansApp;
import io.railcoll.bench.apps.NbodyApp;
import io.railcoll.bench.apps.RadixApp;
import io.railcoll.schedule.Collective;
import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.settings.RailcollSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code railcoll app nbody|radix|kmeans|cg}: paper 000's Table 1 on the emulated cluster, a data-parallel k-means
 * and a conjugate-gradient solver. Launches the app on every rank, which runs its timed section with the baseline and
 * the compared collective (an all-gather; k-means and CG: an all-reduce) and checks its output; then reads rank 0's result file and prints one table
 * row: times, communication times, speedups, and whether the check passed.
 */
@Command(name = "app", mixinStandardHelpOptions = true, defaultValueProvider = SettingDefaults.class, sortOptions = false,
        description = {"Run an application benchmark with a baseline and a compared algorithm of its main collective; "
                + "print total and communication time, the speedup, and whether the output checked.",
                "  nbody: N-body simulation that all-gathers positions every step (paper 000, Table 1).",
                "  radix: radix sort that all-gathers digit counts every pass (paper 000, Table 1).",
                "  kmeans: data-parallel k-means that all-reduces per-cluster sums and counts every iteration.",
                "  cg: conjugate gradient on the 2-D Poisson stencil, rows block-distributed; two all-reduced dot products "
                        + "and one point-to-point halo exchange per iteration."})
final class AppCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Mixin
    VectorApiOption vector = new VectorApiOption();

    @Parameters(index = "0", paramLabel = "APP", description = "Application to run: nbody, radix, kmeans or cg.")
    String app;

    @Option(names = "--bodies", description = "nbody: number of bodies (default 2048).")
    Integer bodies;

    @Option(names = "--steps", description = "nbody: time steps, one all-gather each (default 20).")
    Integer steps;

    @Option(names = "--keys", description = "radix: number of keys in total (default 262144).")
    Long keys;

    @Option(names = "--bits", description = "radix: bits per key, 1..64, unsigned (default 32).")
    Integer bits;

    @Option(names = "--digit-bits", description = "radix: bits sorted per pass; counts all-gathered are 4*2^B bytes per rank (default 8; 10 gives the paper's 4 KB).")
    Integer digitBits;

    @Option(names = "--exchange", description = "radix: how keys move: alltoall, allgather, or auto (all-to-all when an algorithm for it is available) (default auto).")
    String exchange;

    @Option(names = "--points", description = "kmeans: number of points in total (default 200000, at most 4194304).")
    Integer points;

    @Option(names = "--dims", description = "kmeans: dimensions per point (default 8).")
    Integer dims;

    @Option(names = "--clusters", description = "kmeans: clusters k (default 16).")
    Integer clusters;

    @Option(names = "--iterations", description = "kmeans: Lloyd iterations, one all-reduce each (default 20).")
    Integer iterations;

    @Option(names = "--grid", description = "cg: side n of the n x n grid, n^2 unknowns (default 128).")
    Integer grid;

    @Option(names = "--tolerance", description = "cg: stop when ||r|| <= tolerance ||b||, in (0, 1) (default 1e-8).")
    Double tolerance;

    @Option(names = "--max-iterations", description = "cg: stop after this many iterations at the latest (default 10000).")
    Integer maxIterations;

    @Option(names = "--baseline", description = "Algorithm id of the app's main collective to compare against (default allgather.ring; kmeans and cg: allreduce.ring, or allreduce.deterministic with --deterministic).")
    String baseline;

    @Option(names = "--algorithm", description = "Algorithm id of the app's main collective to measure, or auto for the library's selection (default ${DEFAULT-VALUE}).", defaultValue = "auto")
    String algorithm;

    @Option(names = "--seed", description = "Seed of the initial bodies, keys, points or right-hand side (default ${DEFAULT-VALUE}).", defaultValue = "42")
    long seed;

    @Option(names = "--warmup", description = "Untimed runs with each algorithm before measuring (default ${DEFAULT-VALUE}).", defaultValue = "1")
    int warmup;

    @Option(names = "--repeats", description = "Timed runs with each algorithm, alternating; the fastest of each is reported (default ${DEFAULT-VALUE}).", defaultValue = "1")
    int repeats;

    @Option(names = "--result", description = "Also keep the result (properties file) here.")
    Path result;

    @Option(names = "--job-timeout-s", description = "Kill the job after this many seconds (default ${DEFAULT-VALUE}).", defaultValue = "1800")
    long jobTimeoutS;

    @Override
    public Integer call() throws Exception {
        Class<?> appClass = switch (app) {
            case "nbody" -> NbodyApp.class;
            case "radix" -> RadixApp.class;
            case "kmeans" -> KmeansApp.class;
            case "cg" -> CgApp.class;
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "unknown app '" + app + "': use nbody, radix, kmeans or cg");
        };
        List<String> args = appArguments();
        Path file = result != null ? result.toAbsolutePath() : Files.createTempFile("railcoll-app-", ".properties");
        Files.deleteIfExists(file);
        args.add("result=" + file);
        JobSpec job = new JobSpec(cluster.placement(), cluster.rails, appClass.getName(), args, cluster.environment(),
                vector.jvmOptions(List.of()), Duration.ofSeconds(jobTimeoutS));
        JobResult outcome;
        try (NodeNetwork network = cluster.network()) {
            System.out.println("railcoll app " + app + ": " + job.placement().size() + " ranks (" + job.placement().describe()
                    + "), " + cluster.rails + " rails, engine " + cluster.engine() + "; " + network.describe());
            outcome = new JobLauncher(System.out, System.err).run(job, network);
        }
        try {
            if (Files.exists(file)) {
                printTable(System.out, AppResult.read(file));
            }
        } finally {
            if (result == null) {
                Files.deleteIfExists(file);
            }
        }
        if (!outcome.succeeded()) {
            System.err.println("railcoll app: the job failed" + (outcome.failedRank() >= 0 ? " on rank " + outcome.failedRank() : "")
                    + ": " + outcome.failure());
            return outcome.exitCode() == 0 ? 1 : outcome.exitCode();
        }
        return 0;
    }

    /** The app's key=value arguments; options of the other apps are refused rather than silently ignored. */
    private List<String> appArguments() {
        Collective compared = app.equals("kmeans") || app.equals("cg") ? Collective.ALLREDUCE : Collective.ALLGATHER;
        boolean deterministic = RailcollSettings.DETERMINISTIC.read(cluster.environment());
        if (baseline == null) {
            baseline = compared == Collective.ALLGATHER ? "allgather.ring"
                    : AlgorithmChoice.allreduceBaseline(deterministic);
        }
        for (String id : List.of(baseline, algorithm)) {
            try {
                AlgorithmChoice.parse(compared, id);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        List<String> a = new ArrayList<>();
        // The table below says it all; rank 0's own summary would repeat it.
        a.add("summary=false");
        a.add("baseline=" + baseline);
        a.add("algorithm=" + algorithm);
        a.add("seed=" + seed);
        a.add("warmup=" + warmup);
        a.add("repeats=" + repeats);
        boolean nbody = app.equals("nbody");
        boolean radix = app.equals("radix");
        boolean kmeans = app.equals("kmeans");
        add(a, nbody, "bodies", bodies);
        add(a, nbody, "steps", steps);
        add(a, radix, "keys", keys);
        add(a, radix, "bits", bits);
        add(a, radix, "digit-bits", digitBits);
        add(a, radix, "exchange", exchange);
        add(a, kmeans, "points", points);
        add(a, kmeans, "dims", dims);
        add(a, kmeans, "clusters", clusters);
        add(a, kmeans, "iterations", iterations);
        boolean cg = app.equals("cg");
        add(a, cg, "grid", grid);
        add(a, cg, "tolerance", tolerance);
        add(a, cg, "max-iterations", maxIterations);
        if (cg || kmeans) {
            // Every option the ranks will parse, refused here rather than on every rank after the launch.
            try {
                if (cg) {
                    CgApp.checkOptions(a, deterministic);
                } else {
                    KmeansApp.checkOptions(a, deterministic);
                }
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return a;
    }

    private void add(List<String> args, boolean applies, String key, Object value) {
        if (value == null) {
            return;
        }
        if (!applies) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--" + key + " does not apply to " + app);
        }
        args.add(key + "=" + value);
    }

    static void printTable(PrintStream out, AppResult r) {
        String[] head = {"app", "placement", "rails", "baseline", "time s", "comm s", "compared", "time s", "comm s",
                "app speedup", "comm speedup", r.mainCollective() + " speedup", "check"};
        String[] row = {r.app(), r.placement(), Integer.toString(r.rails()), r.baseline().label(),
                seconds(r.baseline().totalSeconds()), seconds(r.baseline().commSeconds()), r.compared().label(),
                seconds(r.compared().totalSeconds()), seconds(r.compared().commSeconds()),
                String.format(Locale.ROOT, "%.2f", r.appSpeedup()), String.format(Locale.ROOT, "%.2f", r.commSpeedup()),
                String.format(Locale.ROOT, "%.2f", r.mainSpeedup()), r.checkPassed() ? "passed" : "FAILED"};
        StringBuilder format = new StringBuilder();
        for (int i = 0; i < head.length; i++) {
            format.append(i == 0 ? "" : "  ").append("%-").append(Math.max(head[i].length(), row[i].length())).append('s');
        }
        format.append("%n");
        out.println();
        out.printf(format.toString(), (Object[]) head);
        out.printf(format.toString(), (Object[]) row);
        out.println("problem: " + r.problem() + "; compared " + r.mainCollective() + ": " + r.blockBytes() + " B blocks, "
                + seconds(r.baseline().mainSeconds()) + " s with the baseline, " + seconds(r.compared().mainSeconds())
                + " s compared");
        r.perStep().forEach(line -> out.println(line.strip()));
        out.println((r.checkPassed() ? "checks: " : "check FAILED: ") + r.checks());
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.4f", s);
    }
}
