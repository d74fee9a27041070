package io.railcoll.cli;

import io.railcoll.bench.report.CsvRows;
import io.railcoll.bench.tune.Calibration;
import io.railcoll.bench.tune.HockneyFit;
import io.railcoll.bench.tune.PingPongApp;
import io.railcoll.bench.tune.RegretReport;
import io.railcoll.bench.tune.RuleDerivation;
import io.railcoll.bench.tune.SweepApp;
import io.railcoll.bench.tune.SweepResults;
import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.select.Explanation;
import io.railcoll.select.Rule;
import io.railcoll.select.SelectionSettings;
import io.railcoll.select.Tuning;
import io.railcoll.select.TuningFile;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.CpuScope;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.RailLimit;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code railcoll tune}: measures the current placement and writes a tuning file, or, with {@code --regret}, measures
 * how close the default choice comes to the fastest algorithm. The experiments run inside ranks
 * ({@code io.railcoll.bench.tune}); this command launches them, fits and reports (see docs/selection.md).
 */
@Command(name = "tune", mixinStandardHelpOptions = true, defaultValueProvider = SettingDefaults.class, sortOptions = false,
        description = {"Measure this placement and write a tuning file: a cost model fitted to ping-pong and collective "
                + "timings, and with --rules the sizes where a measured winner beats the model's choice.",
                "With --regret: time every algorithm and the default choice in one run and print the regret per size "
                + "bucket and the simulator's error."})
final class TuneCommand implements Callable<Integer> {
    static final String ALL_COLLECTIVES = "allgather,alltoall,broadcast,gather,barrier";
    /** How fits and rules summarise a point's samples: the least disturbed one (see SweepResults.Statistic). */
    private static final SweepResults.Statistic STATISTIC = SweepResults.Statistic.MIN;
    /** Complete rounds a sweep needs before its samples are used. */
    private static final int MIN_ROUNDS = 3;
    /** Jobs a sweep may take to complete its rounds when jobs are stopped from outside. */
    private static final int ATTEMPTS = 3;

    @Spec
    private CommandSpec spec;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Mixin
    VectorApiOption vector = new VectorApiOption();

    @Option(names = "--out", description = "Tuning file to write (default ${DEFAULT-VALUE}).", defaultValue = "tuning.properties")
    Path out;

    @Option(names = "--rules", description = "Also sweep every algorithm at --sweep-sizes and write rules where the model's choice measured slower than the fastest by more than --rule-margin.")
    boolean rules;

    @Option(names = "--rule-margin", description = "With --rules: how much slower the model's choice must measure before a rule overrides it (default ${DEFAULT-VALUE}).", defaultValue = "0.10")
    double ruleMargin;

    @Option(names = "--regret", description = "Measure instead of tune: every algorithm and the default choice at --sweep-sizes; print regret per bucket and the simulator's error.")
    boolean regret;

    @Option(names = "--tuning", description = "With --regret: the tuning file the default choice uses (default: RAILCOLL_TUNING, else the built-in table).")
    Path tuning;

    @Option(names = "--report", description = "With --regret: also write the tables as Markdown to this file.")
    Path report;

    @Option(names = "--collectives", description = "Collectives to time (default ${DEFAULT-VALUE}).", defaultValue = ALL_COLLECTIVES)
    String collectives;

    @Option(names = "--sweep-sizes", description = "Block sizes of the sweeps (default ${DEFAULT-VALUE}).", defaultValue = BenchCommand.DEFAULT_SIZES)
    String sweepSizes;

    // Every size the regret is judged at: a fit to 64 B, 4 KiB, 64 KiB and 512 KiB alone missed the sizes between
    // (fitted on whole regret sweeps instead, the simulator came within 25% at 76-85 points of 107 on runs it had not
    // seen, against 56-74; docs/results/selection.md).
    @Option(names = "--probe-sizes", description = "Block sizes of the collective timings that calibrate the model without --rules (default ${DEFAULT-VALUE}).", defaultValue = BenchCommand.DEFAULT_SIZES)
    String probeSizes;

    @Option(names = "--ping-sizes", description = "Message sizes of the ping-pongs (default ${DEFAULT-VALUE}).", defaultValue = "1,64,1024,4096,16384,65536,262144,1048576")
    String pingSizes;

    @Option(names = "--samples", description = "Samples per point; medians are used (default ${DEFAULT-VALUE}).", defaultValue = "5")
    int samples;

    // 100 ms, not 30: the max over ranks of short means is biased and noisy with ranks outnumbering processors; three
    // regret runs each way, alternating (2026-11-26), left 1-2 points that no model could hold within 25% across the
    // runs at 100 ms against 8 at 30 ms (docs/results/selection.md). A run takes about 7 minutes instead of 4.5.
    @Option(names = "--budget-ms", description = "Target duration of one sample in ms (default ${DEFAULT-VALUE}).", defaultValue = "100")
    long budgetMs;

    @Option(names = "--work", description = "Directory for the experiments' raw files (default ${DEFAULT-VALUE}).", defaultValue = "tune-out")
    Path work;

    @Option(names = "--reuse", description = "Fit (or report) from the raw files an earlier run left in --work instead of measuring again.")
    boolean reuse;

    @Override
    public Integer call() throws Exception {
        if (samples < MIN_ROUNDS && !reuse) {
            // Refused before anything runs: the sweep would time every point and then have too few rounds to use.
            throw new CommandLine.ParameterException(spec.commandLine(), "--samples must be at least " + MIN_ROUNDS
                    + " (a sweep's medians need that many complete rounds), got " + samples);
        }
        checkCollectives();
        Files.createDirectories(work);
        Placement placement = cluster.placement();
        int ports = cluster.rails;
        try (NodeNetwork network = cluster.network()) {
            System.out.println("railcoll tune: " + placement.size() + " ranks (" + placement.describe() + "), " + ports
                    + " rails, engine " + cluster.engine() + "; " + network.describe());
            return regret ? regret(network, placement, ports) : tune(network, placement, ports);
        }
    }

    /** Every name in --collectives is a collective tune times, checked before any rank starts. */
    private void checkCollectives() {
        for (String name : collectives.split(",")) {
            Collective c;
            try {
                c = Collective.fromId(name.strip());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--collectives: " + e.getMessage());
            }
            if (c.reduces() || c.variable()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--collectives: tune does not time "
                        + c.id() + " yet; accepted: " + ALL_COLLECTIVES);
            }
        }
    }

    private int tune(NodeNetwork network, Placement placement, int ports) throws Exception {
        Map<String, String> measured = new LinkedHashMap<>();
        measured.put("placement", placement.describe());
        measured.put("rails", Integer.toString(ports));
        measured.put("network", cluster.netns ? "netns" + (cluster.railRate == null ? "" : " rate " + cluster.railRate) : "loopback");
        measured.put("engine", cluster.engine());
        measured.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        measured.put("date", LocalDate.now().toString());
        measured.put("command", "bin/railcoll " + String.join(" ", RailcollCli.arguments()));
        HockneyFit shm = null;
        HockneyFit rail = null;
        if (placement.maxRanksPerNode() >= 2) {
            shm = pingPong(network, Placement.singleNode(2), "shm");
            measured.put("pingpong.shm", describe(shm));
        }
        if (placement.nodeCount() >= 2) {
            rail = pingPong(network, Placement.uniform(2, 1), "rail");
            measured.put("pingpong.rail", describe(rail));
        }
        // Whatever ping-pong could not measure (one node, or one rank per node) starts from the other link.
        HockneyFit shmStart = shm != null ? shm : rail;
        HockneyFit railStart = rail != null ? rail : shm;
        // Loopback rails are kernel copies and shared memory is user copies: mostly processor time; on the netns
        // testbed the rails have a wire of their own. Only a starting point: the calibration fits the share.
        double railCpu = cluster.netns ? 0.5 : 0.9;
        int cores = Runtime.getRuntime().availableProcessors();
        CostModel start = new CostModel(Map.of(
                LinkClass.SHARED_MEMORY, new LinkCost(shmStart.alphaNs(), shmStart.nsPerByte(), railCpu),
                LinkClass.RAIL, new LinkCost(railStart.alphaNs(), railStart.nsPerByte(), railCpu)),
                shmStart.nsPerByte() / 2, cluster.stripeThreshold(), 0, cores, CpuScope.HOST);
        // A rate-limited rail is a token bucket the testbed sets up, not something to fit: it goes in as configured.
        if (network.railRateBitsPerSecond().isPresent()) {
            start = start.withRailLimit(RailLimit.ofRate(network.railRateBitsPerSecond().getAsLong(),
                    network.railBurstBytes().orElse(0)));
        }

        String sizes = rules ? sweepSizes : probeSizes;
        SweepResults sweep = sweep(network, placement, "all", sizes, Map.of(), "probes");
        List<Calibration.Probe> probes = Calibration.probes(sweep, placement, ports, STATISTIC);
        System.out.println("fitting the model to " + probes.size() + " timed collectives...");
        Calibration.Result fit = Calibration.fit(start, probes);
        String timedSizes = probes.stream().map(p -> p.shape().blockBytes()).distinct().sorted().map(String::valueOf)
                .collect(Collectors.joining(","));
        measured.put("calibration", String.format(Locale.ROOT, "%d collectives timed at sizes %s, fitted to each point's fastest sample; rms of ln(predicted/measured) %.2f",
                probes.size(), timedSizes, fit.rmsLogError()));
        Tuning tuned = new Tuning(fit.model(), List.of(), new TreeMap<>(measured), out.toString());
        if (rules) {
            List<Rule> derived = RuleDerivation.derive(sweep, STATISTIC, tuned, placement, ports, ruleMargin,
                    out.toString());
            tuned = tuned.withRules(derived);
            System.out.println(derived.size() + " rules where the model's choice measured more than "
                    + Math.round(ruleMargin * 100) + "% slower than the fastest");
        }
        TuningFile.write(tuned, out);
        // Read back: what is written must load (rules checked against their algorithms) before anyone relies on it.
        TuningFile.load(out);
        System.out.println(TuningFile.format(tuned));
        System.out.println("wrote " + out + "; use it with RAILCOLL_TUNING=" + out.toAbsolutePath());
        return 0;
    }

    private int regret(NodeNetwork network, Placement placement, int ports) throws Exception {
        Tuning t = tuning != null ? TuningFile.load(tuning) : SelectionSettings.fromEnvironment(System.getenv()).load();
        Map<String, String> env = new LinkedHashMap<>();
        if (tuning != null) {
            env.put(SelectionSettings.TUNING_VARIABLE, tuning.toAbsolutePath().toString());
        }
        SweepResults sweep = sweep(network, placement, "all,auto", sweepSizes, env, "regret");
        StringBuilder text = new StringBuilder();
        for (SweepResults.Statistic statistic : SweepResults.Statistic.values()) {
            String name = statistic.name().toLowerCase(Locale.ROOT);
            text.append("## Regret per size bucket, each point's ").append(name).append(" sample\n\n")
                    .append(RegretReport.regretMarkdown(RegretReport.regret(sweep, statistic, t, placement, ports), 0.10))
                    .append('\n');
        }
        for (SweepResults.Statistic statistic : SweepResults.Statistic.values()) {
            String name = statistic.name().toLowerCase(Locale.ROOT);
            text.append("## Simulator vs measured ").append(name).append(", 4 KiB and up\n\n")
                    .append(RegretReport.simulatedMarkdown(
                            RegretReport.simulated(sweep, statistic, t, placement, ports, 4096), 0.25))
                    .append('\n');
        }
        System.out.println("tuning: " + t.source());
        System.out.println(text);
        if (report != null) {
            Files.writeString(report, "Command: `bin/railcoll " + String.join(" ", RailcollCli.arguments()) + "`\n\n"
                    + "Tuning: " + t.source() + "\n\n" + text);
            System.out.println("report: " + report);
        }
        return 0;
    }

    private HockneyFit pingPong(NodeNetwork network, Placement pair, String label) throws Exception {
        Path raw = work.resolve("pingpong-" + label + ".csv");
        List<String> args = List.of("sizes=" + sizes(pingSizes), "samples=" + samples, "warmup=200",
                "budget-ms=" + budgetMs, "out=" + raw.toAbsolutePath());
        if (!reuse) {
            System.out.println("ping-pong over " + label + " (" + pair.describe() + ")...");
            run(network, new JobSpec(pair, cluster.rails, PingPongApp.class.getName(), args, cluster.environment(),
                    List.of(), Duration.ofMinutes(20)));
        }
        HockneyFit fit = HockneyFit.of(oneWayNsBySize(raw));
        System.out.println("  " + label + ": " + describe(fit));
        return fit;
    }

    /**
     * {@link PingPongApp}'s samples ({@code size_bytes,one_way_ns} a line) by size, sizes in increasing order. A last
     * line that a stopped job left unfinished (read with {@code --reuse}, say) is passed over; any other malformed line
     * is an error naming it.
     */
    static Map<Long, long[]> oneWayNsBySize(Path raw) throws IOException {
        Map<Long, List<Long>> bySize = new TreeMap<>();
        CsvRows.forEachFinished(raw, List.of("size_bytes", "one_way_ns"), row ->
                bySize.computeIfAbsent(row.wholeNumber(0), k -> new ArrayList<>()).add(row.wholeNumber(1)));
        Map<Long, long[]> samplesBySize = new TreeMap<>();
        bySize.forEach((size, list) -> samplesBySize.put(size, list.stream().mapToLong(Long::longValue).toArray()));
        return samplesBySize;
    }

    /**
     * Times every algorithm at {@code sizes}, all points interleaved in rounds (see {@link SweepApp}). A job stopped
     * from outside (this machine is shared) keeps its complete rounds, and a new job runs the rounds still missing,
     * up to {@link #ATTEMPTS} jobs; each job writes its own file. {@code --reuse} reads the files an earlier run left.
     */
    private SweepResults sweep(NodeNetwork network, Placement placement, String algorithms, String sizes,
                               Map<String, String> extraEnv, String label) throws Exception {
        List<Path> files = new ArrayList<>();
        if (reuse) {
            try (var listing = Files.list(work)) {
                listing.filter(p -> p.getFileName().toString().matches("sweep-" + label + "(-\\d+)?\\.csv")).sorted()
                        .forEach(files::add);
            }
            if (!files.isEmpty()) {
                return SweepResults.read(files);
            }
        }
        Map<String, String> env = new LinkedHashMap<>(cluster.environment());
        env.putAll(extraEnv);
        int done = 0;
        for (int attempt = 1; attempt <= ATTEMPTS && done < samples; attempt++) {
            Path raw = work.resolve("sweep-" + label + (attempt == 1 ? "" : "-" + attempt) + ".csv");
            files.add(raw);
            int rounds = samples - done;
            List<String> args = List.of("collectives=" + collectives, "algorithms=" + algorithms, "sizes=" + sizes(sizes),
                    "samples=" + rounds, "warmup=3", "budget-ms=" + budgetMs, "out=" + raw.toAbsolutePath());
            System.out.println("timing " + collectives + " (" + algorithms + ") at " + sizes + " on "
                    + placement.describe() + ", " + rounds + " rounds...");
            int[] completed = {0};
            JobResult result = run(network, new JobSpec(placement, cluster.rails, SweepApp.class.getName(), args, env,
                    vector.jvmOptions(List.of()), Duration.ofHours(2)), completed);
            done += completed[0];
            if (!result.succeeded()) {
                System.out.println("the sweep stopped after " + completed[0] + " of " + rounds + " rounds (rank "
                        + result.failedRank() + ": " + result.failure() + ")");
            }
        }
        if (done < MIN_ROUNDS) {
            throw new IllegalStateException("the sweep completed only " + done + " rounds in " + ATTEMPTS + " jobs");
        }
        return SweepResults.read(files);
    }

    private void run(NodeNetwork network, JobSpec spec) throws Exception {
        JobResult result = run(network, spec, new int[1]);
        if (!result.succeeded()) {
            throw new IllegalStateException("the tuning job " + spec.appClass() + " failed on rank " + result.failedRank()
                    + ": " + result.failure());
        }
    }

    /** Runs a job, echoing rank 0's progress lines and counting the rounds it reports complete. */
    private JobResult run(NodeNetwork network, JobSpec spec, int[] rounds) throws Exception {
        PrintStream routed = LineRouter.printStream(line -> {
            if (line.startsWith("[r0] PROGRESS ")) {
                String what = line.substring("[r0] PROGRESS ".length());
                if (what.startsWith("round ")) {
                    rounds[0]++;
                }
                System.out.println("  " + what);
                return true;
            }
            return false;
        }, System.out);
        return new JobLauncher(routed, System.err).run(spec, network);
    }

    private static String sizes(String spec) {
        return String.join(",", BenchCommand.parseSizes(spec).stream().map(String::valueOf).toList());
    }

    private static String describe(HockneyFit fit) {
        return String.format(Locale.ROOT, "alpha %s, %.4g ns/B", Explanation.formatNs(fit.alphaNs()), fit.nsPerByte());
    }
}
