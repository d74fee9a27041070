package io.railcoll.cli;

import io.railcoll.Config;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.ResourceTable;
import io.railcoll.schedule.Shape;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.select.Explanation;
import io.railcoll.select.ModelCost;
import io.railcoll.select.SelectionSettings;
import io.railcoll.select.Tuning;
import io.railcoll.select.TuningFile;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.CpuScope;
import io.railcoll.sim.Crossovers;
import io.railcoll.topology.Placement;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;

/**
 * {@code railcoll info}: every algorithm, one line each, starting with its id. With {@code --explain} it says which
 * algorithm a job would run for one shape and why; with {@code --simulate} it predicts every algorithm of a
 * collective over block sizes on any placement, and where the fastest changes.
 */
@Command(name = "info", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"List every algorithm: id, then collective, restrictions, cost formula, paper and section.",
                "--explain COLLECTIVE: which algorithm runs for one shape, why (forced, rule or cost), and the model's "
                        + "prediction for every alternative.",
                "--simulate COLLECTIVE: the simulator's prediction for every algorithm over block sizes, on any "
                        + "placement (e.g. 1024x64), and the predicted crossover points.",
                "--resources ID,...: paper 002's Table 1 computed from the schedules for --placement.",
                "--env: how a rank started here would join its job: which launcher, rank, size, local rank, node, rails."})
final class InfoCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--env", description = "Show how a rank started with this environment joins its job (run it under "
            + "the launcher, e.g. mpirun -np 2 bin/railcoll info --env).")
    boolean env;

    @Option(names = "--explain", paramLabel = "COLLECTIVE", description = "Explain the choice for this collective.")
    String explain;

    @Option(names = "--simulate", paramLabel = "COLLECTIVE", description = "Simulate every algorithm of this collective.")
    String simulate;

    @Option(names = "--resources", split = ",", paramLabel = "ID", description = "Paper 002's Table 1 (connections, network volume, shared-memory traffic per node and phase) for these all-gather ids, or 'all'.")
    List<String> resources;

    @Option(names = "--size", description = "With --explain: block size in bytes, e.g. 4096 or 4k (default ${DEFAULT-VALUE}).", defaultValue = "4096")
    String size;

    @Option(names = "--processors", paramLabel = "own|shared", description = "With --explain: whether every rank has a"
            + " processor of its own (the tuning rules' processors= condition, decision 0196); default: as a job of"
            + " this placement emulated on this machine would find (its ranks against this machine's processors).")
    String processors;

    @Option(names = "--sizes", converter = OptionValues.Sizes.class, description = "With --simulate: block sizes (default ${DEFAULT-VALUE}).", defaultValue = "1,4,16,64,256,1k,4k,16k,64k,256k,1m")
    String sizes;

    @Option(names = "--placement", description = "Nodes x ranks per node (4x4) or ranks per node (3,4,2) (default ${DEFAULT-VALUE}).", defaultValue = "4x4")
    String placement;

    @Option(names = "--rails", description = "Rails per node, the ports k (default ${DEFAULT-VALUE}).", defaultValue = "2")
    int rails;

    @Option(names = "--root", description = "Root rank of gather, broadcast, reduce and scatter (default ${DEFAULT-VALUE}).", defaultValue = "0")
    int root;

    @Option(names = "--groups", description = "Master groups per node of the multi-connection all-gathers (default ${DEFAULT-VALUE}).", defaultValue = "2")
    int groups;

    @Option(names = "--tuning", description = "Tuning file (default: RAILCOLL_TUNING, else the built-in table).")
    Path tuning;

    @Option(names = "--cores-per-node", description = "With --simulate: processor cores of every node (default: the tuning's, "
            + "except that a tuning measured on one host with emulated nodes gives each rank a core of its own).")
    Double coresPerNode;

    @Option(names = "--max-ops", description = "With --simulate: most ops one event simulation may hold; a schedule over it "
            + "gets the closed-form analytic estimate instead, labelled so (default ${DEFAULT-VALUE}: about a second each here).",
            defaultValue = "1000000")
    long maxOps;

    @Option(names = "--refine", description = "With --simulate: bisection steps per crossover (default ${DEFAULT-VALUE}).", defaultValue = "3")
    int refine;

    @Override
    public Integer call() {
        if (env) {
            return LaunchEnvironmentReport.print(System.getenv(), System.out, System.err);
        }
        if (explain != null && simulate != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --explain or --simulate, not both");
        }
        if (explain != null) {
            return explain();
        }
        if (simulate != null) {
            return simulate();
        }
        if (resources != null) {
            return resources();
        }
        for (Algorithm a : AlgorithmCatalog.standard().all()) {
            System.out.println(a.id() + "  " + a.summary());
        }
        return 0;
    }

    private int resources() {
        Placement p = Placement.parse(placement);
        List<ResourceTable> tables = new java.util.ArrayList<>();
        for (String id : resources) {
            if (id.equals("all")) {
                for (Algorithm a : AlgorithmCatalog.standard().forCollective(Collective.ALLGATHER)) {
                    // 'all' means every point-to-point one that can run here (a multicast stream has no connections)
                    if (!(a instanceof io.railcoll.schedule.MulticastUser)
                            && a.unsupportedReason(new Shape(Collective.ALLGATHER, p, Math.max(1, rails), 1, 0)).isEmpty()) {
                        tables.add(ResourceTable.of(a, p, rails, groups));
                    }
                }
            } else {
                tables.add(ResourceTable.of(AlgorithmCatalog.standard().byId(id), p, rails, groups));
            }
        }
        for (ResourceTable t : tables) {
            System.out.println(t.format());
        }
        if (tables.size() > 1) {
            System.out.println(ResourceTable.compare(tables, 0));
        }
        return 0;
    }

    private int explain() {
        Collective c = Collective.fromId(explain);
        Tuning t = tuning();
        // What a job started with this environment would do: its forced algorithms and its tuning.
        Config config = Config.fromEnvironment(System.getenv());
        AlgorithmSelector selector = new AlgorithmSelector(config.forcedAlgorithms(), t, config.deterministic());
        if (config.multicast() != io.railcoll.MulticastMode.OFF) {
            selector.enableTransport(io.railcoll.algorithm.broadcast.MulticastBroadcastAlgorithm.TRANSPORT); // RAILCOLL_MCAST
        }
        if (config.sharedMemory()) {
            selector.enableTransport(io.railcoll.schedule.NodeRegionUser.TRANSPORT); // RAILCOLL_SHM
        }
        long bytes = BenchCommand.parseSizes(size).getFirst();
        Placement p = Placement.parse(placement);
        boolean own = everyRankHasAProcessor(processors, p, io.railcoll.memory.NodeCpus.count());
        selector.everyRankHasAProcessor(own);
        Shape shape = new Shape(c, p, rails, bytes, c.hasRoot() ? root : 0, groups);
        System.out.println("processors: " + (own ? "own" : "shared") + (processors == null ? " (" + p.size()
                + " ranks of an emulated job on this machine's " + io.railcoll.memory.NodeCpus.count()
                + " processors; --processors to say otherwise)" : " (--processors)"));
        System.out.print(selector.explain(shape).render());
        return 0;
    }

    /**
     * The verdict {@code --explain} selects with: {@code option} (own or shared) when given, else what a job of
     * {@code placement} emulated on a machine of {@code cpus} processors would find: one node counts its ranks, an
     * emulated cluster every rank of the job, as the job table does (decision 0196).
     *
     * @throws IllegalArgumentException for an option other than own or shared
     */
    static boolean everyRankHasAProcessor(String option, Placement placement, int cpus) {
        if (option != null) {
            return switch (option) {
                case "own" -> true;
                case "shared" -> false;
                default -> throw new IllegalArgumentException("--processors takes own or shared, not '" + option
                        + "'");
            };
        }
        int hostRanks = placement.nodeCount() > 1 ? placement.size() : 0;
        return !io.railcoll.memory.NodeCpus.outnumbered(placement.maxRanksPerNode(), cpus, hostRanks);
    }

    private int simulate() {
        Collective c = Collective.fromId(simulate);
        Tuning t = tuning();
        Placement p = Placement.parse(placement);
        CostModel model = t.model();
        String coreNote;
        if (coresPerNode != null) {
            model = model.withCpu(coresPerNode, CpuScope.NODE);
            coreNote = fmt(coresPerNode) + " cores per node (--cores-per-node)";
        } else if (model.cpuScope() == CpuScope.HOST && !p.describe().equals(t.measured().get("placement"))) {
            model = model.withCpu(p.maxRanksPerNode(), CpuScope.NODE);
            coreNote = "a core per rank (" + p.maxRanksPerNode() + " per node): the tuning's " + fmt(t.model().cpuCores())
                    + " cores are the one host its emulated nodes shared; --cores-per-node to change";
        } else {
            coreNote = model.cpuCores() == 0 ? "a core per rank"
                    : fmt(model.cpuCores()) + " cores per " + model.cpuScope().key();
        }
        int r = c.hasRoot() ? root : 0;
        List<Long> sizeList = BenchCommand.parseSizes(sizes);
        System.out.println("simulating " + c.id() + " on " + p.describe() + " (" + p.size() + " ranks), k=" + rails
                + (r != 0 ? ", root " + r : "") + "; tuning " + t.source() + "; " + coreNote);
        List<Algorithm> algorithms = AlgorithmCatalog.standard().forCollective(c);
        long start = System.nanoTime();
        // The prediction selection ranks by: node steps and multicast by their own models, every schedule simulated.
        CostModel costs = model;
        Crossovers.Predictor predictor = (a, shape) -> {
            Explanation.Candidate e = ModelCost.predict(a, shape, costs, maxOps);
            return new Crossovers.Estimate(e.predictedNs(), e.detail());
        };
        Crossovers.Sweep sweep = Crossovers.sweep(algorithms, b -> new Shape(c, p, rails, b, r, groups), predictor,
                sizeList, refine, id -> System.err.printf(Locale.ROOT, "  simulating %s (%.0f s so far)%n", id,
                        (System.nanoTime() - start) / 1e9));
        printTable(sweep);
        System.out.println();
        if (sweep.crossovers().isEmpty()) {
            System.out.println("no crossover between these sizes");
        }
        for (Crossovers.Crossover x : sweep.crossovers()) {
            System.out.println("crossover: " + x.from() + " up to " + x.belowBytes() + " B, " + x.to() + " from "
                    + x.aboveBytes() + " B");
        }
        System.out.println();
        for (Map.Entry<String, String> e : sweep.notes().entrySet()) {
            System.out.println(e.getKey() + ": " + e.getValue());
        }
        return 0;
    }

    private static void printTable(Crossovers.Sweep sweep) {
        List<String> ids = List.copyOf(sweep.timesNs().keySet());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-8s", "size"));
        for (String id : ids) {
            header.append(String.format(Locale.ROOT, "  %12s", shortId(id)));
        }
        System.out.println(header.append("  fastest"));
        for (int i = 0; i < sweep.sizes().size(); i++) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-8s", sizeLabel(sweep.sizes().get(i))));
            String best = sweep.fastest(i);
            for (String id : ids) {
                OptionalDouble ns = sweep.timesNs().get(id).get(i);
                String cell = ns.isPresent() ? Explanation.formatNs(ns.getAsDouble()) : "-";
                row.append(String.format(Locale.ROOT, "  %12s", cell + (id.equals(best) ? "*" : "")));
            }
            System.out.println(row.append("  ").append(best == null ? "-" : shortId(best)));
        }
    }

    private Tuning tuning() {
        return tuning != null ? TuningFile.load(tuning) : SelectionSettings.fromEnvironment(System.getenv()).load();
    }

    private static String shortId(String id) {
        return id.substring(id.indexOf('.') + 1);
    }

    private static String sizeLabel(long b) {
        if (b >= 1 << 20 && b % (1 << 20) == 0) {
            return b / (1 << 20) + "M";
        }
        if (b >= 1 << 10 && b % (1 << 10) == 0) {
            return b / (1 << 10) + "K";
        }
        return b + "B";
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
