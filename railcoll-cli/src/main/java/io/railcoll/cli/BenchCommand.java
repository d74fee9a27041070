package io.railcoll.cli;

import io.railcoll.bench.BenchApp;
import io.railcoll.bench.SweepPoints;
import io.railcoll.bench.peer.MpjPeer;
import io.railcoll.bench.peer.OpenMpiPeer;
import io.railcoll.bench.peer.PeerResults;
import io.railcoll.bench.peer.PeerRun;
import io.railcoll.bench.rails.RailAccounts;
import io.railcoll.bench.report.AddedToBarrierSamples;
import io.railcoll.bench.report.BenchReport;
import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.report.ConsoleTableWriter;
import io.railcoll.bench.report.CsvResults;
import io.railcoll.bench.report.MachineFacts;
import io.railcoll.bench.report.ProgressBar;
import io.railcoll.bench.report.ResultTable;
import io.railcoll.bench.report.RailSummary;
import io.railcoll.bench.report.RawSamples;
import io.railcoll.bench.report.RunFacts;
import io.railcoll.bench.report.RunHeader;
import io.railcoll.bench.report.Samples;
import io.railcoll.bench.report.Series;
import io.railcoll.bench.report.TableOptions;
import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.launcher.VectorApiModule;
import io.railcoll.bench.TimedReduction;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code railcoll bench}: the main job. Sweeps algorithms of one collective over message sizes on an emulated
 * cluster, measured the OSU way, and prints a table (best per size, its speedup over the best flat algorithm, the
 * ratio to the peer), then writes CSV, a Markdown report and log-log plots.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, defaultValueProvider = SettingDefaults.class,
        description = "Benchmark collective algorithms on an emulated cluster (default: every all-gather algorithm, 1 B..1 MiB, 4 nodes x 4 ranks x 2 rails).")
final class BenchCommand implements Callable<Integer> {
    /** The testbed's rail rate when bench picks the testbed itself: the rate of issue 5's figures. */
    static final String DEFAULT_RAIL_RATE = "2gbit";
    /** The samples every point gets first with --samples auto. */
    static final int AUTO_BASE_SAMPLES = 5;
    /** Rank 0's samples of what a call adds to a loop of barriers, beside raw-samples.csv (decision 0232). */
    static final String RAW_ADDED = "raw-added-to-barrier.csv";
    static final String DEFAULT_SIZES = "1,4,16,64,256,1024,4096,16384,65536,262144,1048576";

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--collective", description = "Collective to measure: allgather, gather, scatter, broadcast, alltoall, barrier; "
            + "allreduce, reduce, reduce-scatter, scan, exscan (sums of doubles: sizes in whole doubles, the vector per rank, "
            + "for reduce-scatter each rank's block); gatherv, scatterv, allgatherv, alltoallv, reduce-scatterv (every rank's "
            + "count the size, buffers as their uniform collective's; no peer times them); "
            + "or paper 004's point-to-point benchmarks between rank 0 and a rank on another node: bandwidth, bibandwidth, "
            + "latency (then --iterations is the window, default sizes 8 B..4 MiB, 2 nodes x 1 rank); "
            + "or local-reduce: the local reduction loops (sum on int, long, float, double) against a plain copy on this machine, "
            + "with and without C2's vectorisation (default sizes 8 KiB..64 MiB) (default ${DEFAULT-VALUE}).",
            defaultValue = "allgather")
    String collective;

    @Option(names = "--configs", description = "With bandwidth|bibandwidth|latency: rail configurations measured one after "
            + "the other on the same testbed, RAILS:ENGINE,... e.g. 1:single,2:single,2:threaded (default: --rails and --engine).")
    String configs;

    @Option(names = "--algorithms", description = "Comma-separated algorithm ids, 'all' (every one that runs at least one of the sizes on the placement) and/or 'auto' (what selection picks); a size an algorithm refuses (e.g. allreduce.shm-doubling above what its node-buffer slots hold) is skipped and reads n/a (default ${DEFAULT-VALUE}).", defaultValue = "all")
    String algorithms;

    @Option(names = "--sizes", converter = OptionValues.Sizes.class, description = "Comma-separated message sizes in bytes (per-rank block) (default ${DEFAULT-VALUE}).", defaultValue = DEFAULT_SIZES)
    String sizes;

    @Option(names = "--root", converter = OptionValues.NotNegative.class, description = "Root rank for rooted collectives (default ${DEFAULT-VALUE}).", defaultValue = "0")
    int root;

    @Option(names = "--warmup", converter = OptionValues.NotNegative.class, description = "Untimed calls before each size, at most; fewer for large messages, as for --iterations (default ${DEFAULT-VALUE}).", defaultValue = "200")
    int warmup;

    @Option(names = "--iterations", converter = OptionValues.AtLeastOne.class, description = "Timed calls per sample, at most; fewer for large messages so a sample stays near --sample-ms. The peer gets the same counts (default ${DEFAULT-VALUE}, OSU's count for small messages).", defaultValue = "1000")
    int iterations;

    @Option(names = "--samples", converter = OptionValues.SamplesOrAuto.class, description = "Samples per size, or auto: 5, then more for every railcoll point whose samples "
            + "spread more than 2x, until its median is stable to 10%% or --auto-budget-s is spent (peers take 5). The table "
            + "shows the median with min and max; points spread more than 2x are marked (default ${DEFAULT-VALUE}).",
            defaultValue = "5")
    String samplesOption;

    @Option(names = "--auto-budget-s", converter = OptionValues.PositiveLong.class, description = "With --samples auto: the most time spent on extra samples, in seconds "
            + "(default ${DEFAULT-VALUE}).", defaultValue = "120")
    long autoBudgetS;

    /** Samples per point (the base count with --samples auto). */
    int samples;
    /** Whether --samples auto asked for more samples of widely spread points. */
    boolean autoSamples;

    @Option(names = "--sample-ms", converter = OptionValues.PositiveLong.class, description = "Target duration of one sample in ms (default ${DEFAULT-VALUE}).", defaultValue = "100")
    long sampleMs;

    @Option(names = "--jit-warmup-ms", converter = OptionValues.NotNegativeLong.class, description = "Time spent running every algorithm (a barrier before each call, as timed) before anything is timed, so the JVM has compiled the library; longer, up to 5x, until 6000 calls were made, and then, up to 40x, until no rank's compilers were busy for more than 5%% of a round (default ${DEFAULT-VALUE}).", defaultValue = "3000")
    long jitWarmupMs;

    @Option(names = "--added-to-barrier-below", converter = OptionValues.OneSize.class, paramLabel = "SIZE",
            description = "Sizes below this also get a second figure, measured in the same samples by railcoll and the "
            + "Open MPI peer: what one call adds to a loop of barriers (a loop of barrier + call less a loop of the same "
            + "barrier alone, per call, the slowest rank's), which unlike the OSU figure does not depend on which rank "
            + "the barrier lets out first; 0 for none (default ${DEFAULT-VALUE}: OSU's small messages).",
            defaultValue = "8k")
    long addedBelowBytes;

    @Option(names = "--check", description = "Verify every result byte for byte before timing; fail loudly if one is wrong.")
    boolean check;

    @Option(names = "--csv", description = "Also write the results as CSV to this file.")
    Path csv;

    @Option(names = "--out", description = "Directory for results.csv, report.md and plots (default ${DEFAULT-VALUE}).", defaultValue = "bench-out")
    Path out;

    @Option(names = "--jvm-option", paramLabel = "OPTION", description = "Extra JVM option for every railcoll rank, "
            + "e.g. --jvm-option=-Xmx1g; repeatable.")
    List<String> jvmOptions = new ArrayList<>();

    @Mixin
    VectorApiOption vector = new VectorApiOption();

    @Option(names = "--peer", description = "Also run the same sweep through these peers in the same run, comma-separated: "
            + "openmpi (Open MPI, found on the PATH), mpj (MPJ Express: multicore device on one node, niodev across the testbed's nodes).")
    String peer;

    @Option(names = "--peer-route", description = "On the testbed, where the peers' ranks run: rails (node n's ranks in node n's "
            + "namespace, as railcoll's) or loopback (a control: every rank in node 0's namespace, so the bytes avoid the rails; "
            + "rail accounting must mark its figures impossible and the bench exits non-zero) (default ${DEFAULT-VALUE}).",
            defaultValue = "rails")
    String peerRoute;

    @Option(names = "--intra-node", description = "How ranks of one node talk: shm (shared memory), rails (through the rail sockets, as paper 000 Fig. 2/3 compare) or both (two sweeps in one run) (default ${DEFAULT-VALUE}).", defaultValue = "shm")
    String intraNode;

    @Option(names = "--no-report", description = "Print the table only; write no report or plots.")
    boolean noReport;

    /** What rail accounting found, filled as the sweeps run. */
    private RailAccounting accounting;
    /** What the JIT warm-ups said (rank 0's line per sweep). */
    private final List<String> jitWarmups = new ArrayList<>();
    /** What --samples auto did (rank 0's line per sweep). */
    private final List<String> samplingNotes = new ArrayList<>();
    /** One line per point an algorithm refused, and per algorithm 'all' left out (SweepPoints#notes). */
    private final List<String> refusals = new ArrayList<>();
    /** One line per peer: identity or why it did not run. */
    private final List<String> peerLines = new ArrayList<>();

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec command;

    @Override
    public Integer call() throws Exception {
        parseSamples();
        if (PointToPointBench.isMode(collective)) {
            return new PointToPointBench(this, collective).run();
        }
        if (LocalReduceRun.MODE.equals(collective)) {
            return new LocalReduceRun(this).run();
        }
        String loadBefore = RunFacts.loadNow();
        Collective c = Collective.fromId(collective);
        if (!TimedReduction.timed(c)) {
            throw new picocli.CommandLine.ParameterException(command.commandLine(), "--collective: '" + collective
                    + "' is not timed by bench yet (it is checked by the test suite); accepted: allgather,"
                    + " gather, scatter, broadcast, alltoall, allreduce, reduce, reduce-scatter, scan, exscan, barrier,"
                    + " gatherv, scatterv, allgatherv, alltoallv, reduce-scatterv (every count the size),"
                    + " bandwidth, bibandwidth, latency, local-reduce");
        }
        List<String> variants = intraNodeVariants();
        cluster.environment(); // every setting checked before any JVM starts
        Placement placement = cluster.placement();
        algorithms = AlgorithmList.resolve(algorithms, c, new io.railcoll.schedule.Shape(c, placement, cluster.rails, 1, root),
                io.railcoll.settings.RailcollSettings.DETERMINISTIC.read(cluster.environment()));
        // A barrier moves no bytes: one point, at size 0, which is where the peer reports its barrier too.
        List<Long> sizeList = c == Collective.BARRIER ? List.of(0L) : sizesFor(c);
        List<String> peers = peers();
        if (!peers.isEmpty() && !TimedReduction.peersRun(c)) {
            throw new picocli.CommandLine.ParameterException(command.commandLine(), "--peer: the peers do not time "
                    + c.id() + " yet; bench times it for railcoll alone");
        }
        if (peers.contains(MpjPeer.NAME) && !MpjPeer.runs(c)) {
            throw new picocli.CommandLine.ParameterException(command.commandLine(), "--peer mpj: MPJ Express 0.44 cannot"
                    + " time " + c.id() + " (it has no Exscan, and its Reduce_scatter returns wrong sums); use --peer openmpi");
        }
        // Every sweep's points before any JVM starts: an algorithm that runs none of the sizes is a bad option here,
        // and the points it refuses are what the ranks skip (they compute the same, decision 0223).
        Map<String, SweepPoints> sweeps = new LinkedHashMap<>();
        for (String variant : variants) {
            Map<String, String> env = envFor(variant);
            try {
                sweeps.put(variant, SweepPoints.of(c, placement, cluster.rails, root, List.of(algorithms.split(",")),
                        sizeList.stream().mapToLong(Long::longValue).toArray(), env));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(command.commandLine(), "--algorithms: "
                        + e.getMessage() + (variants.size() > 1 ? " (--intra-node " + variant + ")" : ""));
            }
        }
        Files.createDirectories(out);
        accounting = new RailAccounting(c, placement, root, cluster.rails);
        List<BenchResult> results = new ArrayList<>();
        Map<String, List<Long>> refused = new LinkedHashMap<>();
        for (String variant : variants) {
            boolean both = intraNode.equals("both");
            Map<String, String> env = envFor(variant);
            String suffix = both ? " (" + variant + ")" : "";
            SweepPoints points = sweeps.get(variant);
            points.refusedSizes().forEach((alg, sizes) -> refused.put(alg + suffix, sizes));
            points.notes().forEach(note -> refusals.add(suffix.isEmpty() ? note : suffix.strip() + " " + note));
            List<BenchResult> sweep = runSweep(c, placement, sizeList, env, suffix, points);
            if (sweep == null) {
                return 1;
            }
            results.addAll(sweep);
        }
        Set<String> flat = new LinkedHashSet<>();
        for (BenchResult r : results) {
            if (isFlat(r.series().algorithm())) {
                flat.add(r.series().algorithm());
            }
        }
        List<String> ran = new ArrayList<>();
        for (String name : peers) {
            if (runPeer(name, c, placement, sizeList, results)) {
                ran.add(name);
            }
        }
        RailAccounts accounts = accounting.judge(results);
        TableOptions options = TableOptions.withoutPeer(flat).withPeers(ran).withAccounts(accounts).withRefused(refused);
        MachineFacts machine = MachineFacts.current(Clock.systemDefaultZone());
        RunFacts facts = new RunFacts(machine, loadBefore, RunFacts.loadNow(), RunFacts.commitOf(codeLocation()),
                jitWarmups, samplingNotes, peerLines, accounts).withRefusals(refusals);
        System.out.println();
        System.out.print(RunHeader.render(facts));
        ConsoleTableWriter.write(System.out, ResultTable.build(results, options));
        RailSummary.print(System.out, results, accounts);
        if (csv != null) {
            CsvResults.write(csv, results, accounts);
            System.out.println("CSV: " + csv);
        }
        if (!noReport) {
            BenchReport.Written w = BenchReport.writeAll(out, results, options, commandLine(), facts);
            System.out.println("report: " + w.markdown() + ", CSV: " + w.csv() + ", plots: " + w.plots());
        }
        List<String> impossible = accounts.impossible();
        if (!impossible.isEmpty()) {
            System.err.println("railcoll bench: " + impossible.size() + " IMPOSSIBLE figure(s), refuted by rail accounting:");
            impossible.forEach(i -> System.err.println("  " + i));
            return 3;
        }
        return 0;
    }

    private void parseSamples() {
        // Both options were range-checked by their converters (OptionValues.SamplesOrAuto, PositiveLong).
        autoSamples = samplesOption.strip().equals("auto");
        samples = autoSamples ? AUTO_BASE_SAMPLES : Integer.parseInt(samplesOption.strip());
    }

    private List<String> peers() {
        if (peer == null || peer.isBlank()) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (String p : peer.split(",")) {
            String name = p.strip();
            if (!name.equals(OpenMpiPeer.NAME) && !name.equals(MpjPeer.NAME)) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "unknown peer '" + name
                        + "': --peer takes openmpi, mpj or both (openmpi,mpj)");
            }
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        if (!peerRoute.equals("rails") && !peerRoute.equals("loopback")) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--peer-route must be rails or loopback, got '" + peerRoute + "'");
        }
        return names;
    }

    private static Path codeLocation() {
        try {
            return Path.of(BenchCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of(".");
        }
    }

    /** One job sweeping every algorithm and size; null when the job failed (the reason is on stderr). */
    private List<BenchResult> runSweep(Collective c, Placement placement, List<Long> sizeList, Map<String, String> env,
                                       String labelSuffix, SweepPoints points) throws Exception {
        Path raw = out.resolve("raw-samples.csv");
        Path rawAdded = out.resolve(RAW_ADDED);
        Path counters = out.resolve("rail-counters.csv");
        List<String> args = new ArrayList<>(List.of("collective=" + c.id(), "algorithms=" + algorithms,
                "sizes=" + sizeList.stream().map(String::valueOf).collect(Collectors.joining(",")),
                "warmup=" + warmup, "iterations=" + iterations, "samples=" + samples, "root=" + root,
                "check=" + check, "out=" + raw.toAbsolutePath(), "budget-ms=" + sampleMs, "jit-warmup-ms=" + jitWarmupMs,
                "auto-samples-ms=" + (autoSamples ? autoBudgetS * 1000 : 0), "added-below=" + addedBelowBytes,
                "added-out=" + rawAdded.toAbsolutePath()));
        try (NodeNetwork network = cluster.network("auto", DEFAULT_RAIL_RATE)) {
            accounting.network(network);
            List<String> railInterfaces = accounting.interfaces();
            if (!railInterfaces.isEmpty()) {
                // Every node's first rank counts its node's rails around each point, into <counters>.n<node>.
                args.add("rail-interfaces=" + String.join(",", railInterfaces));
                args.add("rail-out=" + counters.toAbsolutePath());
                for (int node = 0; node < placement.nodeCount(); node++) {
                    Files.deleteIfExists(out.resolve("rail-counters.csv.n" + node));
                }
            }
            JobSpec spec = new JobSpec(placement, cluster.rails, BenchApp.class.getName(), args, env,
                    vector.jvmOptions(jvmOptions), Duration.ofHours(2));
            System.out.println("railcoll bench: " + c.id() + " on " + placement.size() + " ranks (" + placement.describe()
                    + "), " + cluster.rails + " rails, engine " + cluster.engine() + ", intra-node traffic over "
                    + (env.get("RAILCOLL_SHM").equals("on") ? "shared memory" : "the rails") + "; " + network.describe()
                    + (c.reduces() ? "; combining with " + (VectorApiModule.requested(spec.jvmOptions())
                            ? "the Vector API" : "the staged loops") : ""));
            ProgressBar bar = ProgressBar.forStdout(c.id() + labelSuffix, Math.max(1, points.runnable() * samples));
            PrintStream routed = LineRouter.printStream(line -> {
                if (line.startsWith("[r0] PROGRESS ")) {
                    bar.step(line.substring("[r0] PROGRESS ".length()));
                    return true;
                }
                if (line.startsWith("[r0] AUTO SAMPLES: ")) {
                    samplingNotes.add((labelSuffix.isEmpty() ? "" : labelSuffix.strip() + " ")
                            + line.substring("[r0] AUTO SAMPLES: ".length()));
                }
                if (line.startsWith("[r0] JIT warm-up: ")) {
                    jitWarmups.add((labelSuffix.isEmpty() ? "" : labelSuffix.strip() + " ")
                            + line.substring("[r0] JIT warm-up: ".length()));
                }
                return false;
            }, System.out);
            JobResult result = new JobLauncher(routed, System.err).run(spec, network);
            bar.finish();
            if (!result.succeeded()) {
                System.err.println("railcoll bench: the benchmark job failed on rank " + result.failedRank() + ": " + result.failure());
                return null;
            }
        }
        List<String> counterLines = new ArrayList<>();
        for (int node = 0; node < placement.nodeCount(); node++) {
            Path file = out.resolve("rail-counters.csv.n" + node);
            if (Files.exists(file)) {
                counterLines.addAll(Files.readAllLines(file));
            }
        }
        accounting.addRailcollLines(counterLines, labelSuffix);
        return readRaw(raw, rawAdded, c, placement, labelSuffix);
    }

    /** The ranks' settings for one --intra-node variant. */
    private Map<String, String> envFor(String variant) {
        Map<String, String> env = new LinkedHashMap<>(cluster.environment());
        env.put("RAILCOLL_SHM", variant.equals("shm") ? "on" : "off");
        if (List.of(algorithms.split(",")).contains("broadcast.multicast")) {
            // Naming it asks for it: enable the multicast transport unless --set chose a mode already.
            env.putIfAbsent("RAILCOLL_MCAST", "auto");
        }
        return env;
    }

    private List<String> intraNodeVariants() {
        // --intra-node sets RAILCOLL_SHM: left at its default it yields to a --set of it; given, it must agree.
        String set = cluster.settings.get(io.railcoll.settings.RailcollSettings.SHM.name());
        if (set != null && !set.isBlank()) {
            String fromSet;
            try {
                fromSet = io.railcoll.settings.RailcollSettings.SHM.parse(set) ? "shm" : "rails";
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(command.commandLine(), "--set " + e.getMessage());
            }
            boolean explicit = command != null && command.commandLine().getParseResult() != null
                    && command.commandLine().getParseResult().hasMatchedOption("--intra-node");
            if (!explicit) {
                intraNode = fromSet;
            } else if (!intraNode.equals(fromSet)) {
                throw new picocli.CommandLine.ParameterException(command.commandLine(), "--intra-node " + intraNode
                        + " and --set RAILCOLL_SHM=" + set.strip() + " disagree; give the setting once");
            }
        }
        return switch (intraNode) {
            case "shm" -> List.of("shm");
            case "rails" -> List.of("rails");
            case "both" -> List.of("shm", "rails");
            default -> throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--intra-node must be shm, rails or both, got '" + intraNode + "'");
        };
    }

    /**
     * Runs peer {@code name}'s sweep (on the testbed when bench runs there, on this host otherwise), adds its points to
     * {@code results} and its rail counters to the accounting; returns whether it produced any point. A peer that is
     * not installed or fails is named in the report, and the run goes on.
     */
    private boolean runPeer(String name, Collective c, Placement placement, List<Long> sizeList, List<BenchResult> results)
            throws Exception {
        PeerResults got;
        try (NodeNetwork network = cluster.network("auto", DEFAULT_RAIL_RATE)) {
            OpenMpiOverRails.Route route = peerRoute.equals("loopback") ? OpenMpiOverRails.Route.LOOPBACK
                    : OpenMpiOverRails.Route.RAILS;
            if (network instanceof NamespaceNetwork ns) {
                System.out.println("peer " + name + ": the same sweep on the testbed (" + placement.describe() + ", "
                        + cluster.rails + " rails" + (route == OpenMpiOverRails.Route.LOOPBACK
                        ? "; CONTROL: every rank in node 0's namespace, bytes over its loopback" : "") + ")");
                got = name.equals(OpenMpiPeer.NAME)
                        ? OpenMpiOverRails.runCollective(peerRun(c, placement, sizeList).build(), ns,
                        "tcp btl over " + cluster.rails + " rails", route)
                        : MpjPeer.locate().runOnTestbed(
                        peerRun(c, placement, sizeList).railInterfaces(accounting.interfaces()).build(),
                        nodePrefixes(ns, placement), nodeAddresses(ns, placement), route == OpenMpiOverRails.Route.LOOPBACK);
            } else {
                got = name.equals(OpenMpiPeer.NAME) ? openMpiOnThisHost(c, placement, sizeList)
                        : MpjPeer.locate().runOnThisHost(peerRun(c, placement, sizeList).build());
            }
        } catch (RuntimeException | java.io.IOException e) {
            String why = name + ": FAILED: " + e.getMessage();
            System.err.println("peer " + why);
            peerLines.add(why.length() > 600 ? why.substring(0, 600) + "..." : why);
            return false;
        }
        peerLines.add(name + ": " + got.identity() + (got.failures().isEmpty() ? "" : "; " + String.join("; ", got.failures())));
        results.addAll(got.results());
        accounting.addPeerLines(name, got.railLines());
        return !got.results().isEmpty();
    }

    private static List<List<String>> nodePrefixes(NamespaceNetwork ns, Placement placement) {
        List<List<String>> out = new ArrayList<>();
        for (int n = 0; n < placement.nodeCount(); n++) {
            out.add(ns.commandPrefix(n));
        }
        return out;
    }

    private static List<String> nodeAddresses(NamespaceNetwork ns, Placement placement) {
        List<String> out = new ArrayList<>();
        for (int n = 0; n < placement.nodeCount(); n++) {
            out.add(ns.railAddress(n, 0).getHostAddress());
        }
        return out;
    }

    private PeerResults openMpiOnThisHost(Collective c, Placement placement, List<Long> sizeList) {
        OpenMpiPeer.Lookup lookup = OpenMpiPeer.locate(OpenMpiPeer.defaultCacheDir());
        System.out.println(lookup.message());
        if (lookup.peer().isEmpty()) {
            return new PeerResults(OpenMpiPeer.NAME, lookup.message(), List.of(), List.of(), List.of());
        }
        System.out.println("peer openmpi: running the same sweep through Open MPI on " + placement.size()
                + " ranks of this host (its shared-memory path between all of them: loopback emulation has no nodes for it)");
        return lookup.peer().get().measure(peerRun(c, placement, sizeList).build());
    }

    /**
     * The peer's sweep with railcoll's counts: as many calls per sample as fit --sample-ms, up to --iterations, after
     * up to --warmup. A sample's latency is the slowest rank's mean, and with ranks outnumbering processors the max of
     * short means is biased upward: the same 16-rank gather measured 136-142 us in samples of 100 calls and 50-77 us
     * in samples of 1000 (2026-11-26), so unequal counts alone would move the ratio by up to 2x. Left to build, so
     * that MPJ on the testbed can add the rail interfaces it counts itself.
     */
    private PeerRun.Builder peerRun(Collective c, Placement placement, List<Long> sizeList) {
        return PeerRun.builder(c, placement, sizeList).rails(cluster.rails).samples(samples).check(check)
                .counts(warmup, iterations, warmup, iterations).budgetPerSample(Duration.ofMillis(sampleMs))
                .addedToBarrierBelowBytes(addedBelowBytes);
    }

    /**
     * The points of rank 0's raw files: {@code raw} has one line per sample ({@code algorithm,size_bytes,sample_us}),
     * {@code rawAdded} one per sample of the points that measured what a call adds to a loop of barriers, in the same
     * form (decision 0232; kept apart so that scripts reading the first keep working). A malformed line fails the run
     * naming its file and line ({@link RawSamples}).
     */
    private List<BenchResult> readRaw(Path raw, Path rawAdded, Collective c, Placement placement, String labelSuffix)
            throws IOException {
        Map<String, Map<Long, Samples>> byAlg = RawSamples.read(raw, RawSamples.SAMPLE_US, Samples::new,
                Samples::addUs);
        Map<String, Map<Long, AddedToBarrierSamples>> addedByAlg = Files.exists(rawAdded)
                ? RawSamples.read(rawAdded, RawSamples.ADDED_US, AddedToBarrierSamples::new, AddedToBarrierSamples::addUs)
                : Map.of();
        List<BenchResult> out = new ArrayList<>();
        for (var e : byAlg.entrySet()) {
            Series series = Series.of(c, e.getKey() + labelSuffix, placement, cluster.rails, cluster.engine());
            Map<Long, AddedToBarrierSamples> added = addedByAlg.getOrDefault(e.getKey(), Map.of());
            for (var s : e.getValue().entrySet()) {
                out.add(BenchResult.of(series, s.getKey(), s.getValue(), added.get(s.getKey())));
            }
        }
        return out;
    }

    /** Flat algorithms ignore the node structure; SMP-aware and multi-connection ones do not. */
    static boolean isFlat(String algorithm) {
        String id = algorithm.startsWith("auto:") ? algorithm.substring(5) : algorithm;
        return !algorithm.startsWith("auto:") && !id.contains(".smp-") && !id.contains(".mc-");
    }

    /**
     * The sizes to sweep for {@code c}. A reduction adds doubles, so without {@code --sizes} its default is the
     * default list with each size rounded up to whole doubles (duplicates dropped), and a given size that is not a
     * whole number of them is refused naming it.
     */
    private List<Long> sizesFor(Collective c) {
        List<Long> list = parseSizes(sizes);
        if (c.reduces() && !command.commandLine().getParseResult().hasMatchedOption("--sizes")) {
            long unit = TimedReduction.TYPE.sizeBytes();
            list = list.stream().map(s -> (s + unit - 1) / unit * unit).distinct().toList();
        }
        String problem = TimedReduction.sizeProblem(c, list);
        if (problem != null) {
            throw new picocli.CommandLine.ParameterException(command.commandLine(), "--sizes: " + problem);
        }
        return list;
    }

    /** The sizes of a size list (1,4k,1m); a bad entry is an {@link IllegalArgumentException} naming it. */
    static List<Long> parseSizes(String spec) {
        try {
            return OptionValues.sizes(spec);
        } catch (picocli.CommandLine.TypeConversionException e) {
            throw new IllegalArgumentException("sizes: " + e.getMessage(), e);
        }
    }

    private static String commandLine() {
        return "bin/railcoll " + String.join(" ", RailcollCli.arguments());
    }
}
