package io.railcoll.cli;

import io.railcoll.launcher.LoopbackNetwork;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.launcher.testbed.NetnsTestbed;
import io.railcoll.launcher.testbed.TestbedSpec;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.topology.Placement;
import io.railcoll.Config;
import io.railcoll.settings.RailcollSettings;
import io.railcoll.settings.Setting;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The emulated cluster, shared by every command that launches a job. */
final class ClusterOptions {
    /** Set by the launcher for each rank (bootstrap reads it); not a setting of its own, but harmless in a --set. */
    private static final String LAUNCHER_SET_LOCAL_RANK = "RAILCOLL_LOCAL_RANK";

    @Option(names = "--nodes", description = "Emulated nodes (default ${DEFAULT-VALUE}).", defaultValue = "4")
    int nodes;

    @Option(names = "--ranks-per-node", description = "Ranks (JVMs) per node (default ${DEFAULT-VALUE}).", defaultValue = "4")
    int ranksPerNode;

    @Option(names = "--placement", description = "Ranks per node as a list, e.g. 3,4,2 (uneven nodes), or 4x4; overrides --nodes/--ranks-per-node.")
    String placement;

    @Option(names = "--rails", description = "Rails (networks) per node (default ${DEFAULT-VALUE}).", defaultValue = "2")
    int rails;

    // These four set RAILCOLL_ENGINE, RAILCOLL_TIMEOUT_MS, RAILCOLL_STRIPE_THRESHOLD and RAILCOLL_DETERMINISTIC: parsed by those settings'
    // definitions, with their defaults (SettingDefaults). Left at the default, an option does not override a --set of
    // the same setting; given explicitly and disagreeing with one, it is an error (environment()).
    @Option(names = "--engine", converter = OptionValues.Engine.class,
            description = "Rail engine: single (one thread drives all rails) or threaded (a thread per rail) (default ${DEFAULT-VALUE}); RAILCOLL_ENGINE.")
    String engine;

    @Option(names = "--timeout-ms", converter = OptionValues.TimeoutMs.class,
            description = "Deadline of every wait inside a collective, in ms (default ${DEFAULT-VALUE}); RAILCOLL_TIMEOUT_MS.")
    String timeoutMs;

    @Option(names = "--stripe-threshold", converter = OptionValues.StripeThreshold.class,
            description = "Puts longer than this many bytes are striped over all rails (default ${DEFAULT-VALUE}); RAILCOLL_STRIPE_THRESHOLD.")
    String stripeThreshold;

    @Option(names = "--deterministic", converter = OptionValues.Deterministic.class, arity = "0..1", fallbackValue = "on",
            description = "Reductions in rank order 0..N-1, the same floating-point bits whatever the algorithm and placement: on or off (default ${DEFAULT-VALUE}; alone: on); RAILCOLL_DETERMINISTIC.")
    String deterministic;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--netns", description = "Run on the network-namespace testbed (one namespace per node, a bridge per rail; root only); same as --network netns.")
    boolean netns;

    @Option(names = "--network", description = "loopback (a loopback address per node and rail), netns (the namespace testbed, root only) or auto (netns when root, else loopback). Default: loopback for run, auto for bench.")
    String network;

    @Option(names = "--rail-rate", description = "With the netns testbed: rate limit of every rail in both directions, tc syntax, e.g. 2gbit (default: unlimited for run, 2gbit for bench).")
    String railRate;

    @Option(names = "--rail-netem", description = "With --netns: impairment of every rail, any of loss, corrupt, duplicate, reorder P%%, e.g. \"loss 5%% corrupt 1%% duplicate 1%% reorder 5%%\" (tc netem, or nftables where the kernel has no netem).")
    String railNetem;

    @Option(names = "--rail-mtu", description = "With --netns: MTU of every rail interface, 68..65535 (default 1500, plain Ethernet; 9000 is a jumbo-frame cluster).")
    Integer railMtu;

    @Option(names = "--set", description = "Extra railcoll setting for every rank, KEY=VALUE (e.g. RAILCOLL_GROUPS=4); repeatable.")
    Map<String, String> settings = new LinkedHashMap<>();

    Placement placement() {
        return placement != null ? Placement.parse(placement) : Placement.uniform(nodes, ranksPerNode);
    }

    /**
     * The railcoll settings every rank gets: the {@code --set} ones and the options above. Every value is parsed by
     * its setting's definition here, before any JVM starts; an option given explicitly that disagrees with a
     * {@code --set} of the same setting is an error, and an option left at its default leaves the {@code --set} alone.
     *
     * @throws ParameterException naming the option or the {@code --set}, the value and what is accepted
     */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>(settings);
        put(env, "--engine", RailcollSettings.ENGINE, engine);
        put(env, "--timeout-ms", RailcollSettings.TIMEOUT, timeoutMs);
        put(env, "--stripe-threshold", RailcollSettings.STRIPE_THRESHOLD, stripeThreshold);
        put(env, "--deterministic", RailcollSettings.DETERMINISTIC, deterministic);
        checkSetNames();
        try {
            RailcollSettings.checkAll(env);
            Config.fromEnvironment(env);
        } catch (IllegalArgumentException e) {
            throw usage("--set " + e.getMessage());
        }
        return env;
    }

    /** The engine the ranks run: the option's, else the --set one, else the default. */
    String engine() {
        return RailcollSettings.ENGINE.read(environment());
    }

    long stripeThreshold() {
        return RailcollSettings.STRIPE_THRESHOLD.read(environment());
    }

    /**
     * Every {@code --set} key that looks like a railcoll setting must be one, and a forced algorithm must be in the
     * catalog: a misspelt {@code RAILCOLL_TIMEOUT_M} or {@code RAILCOLL_ALGORITHM_ALLGATHR} was passed to the ranks,
     * which ignored it, and an unknown algorithm id failed every rank at its first call with a stack trace.
     */
    private void checkSetNames() {
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String key = e.getKey().strip();
            if (!key.startsWith("RAILCOLL_") || RailcollSettings.named(key).isPresent()
                    || key.equals(LAUNCHER_SET_LOCAL_RANK)) {
                continue;
            }
            if (!key.startsWith(RailcollSettings.FORCED_ALGORITHM_PREFIX)) {
                throw usage("--set " + key + " is not a railcoll setting; known: " + String.join(", ", knownNames()));
            }
            String collective = key.substring(RailcollSettings.FORCED_ALGORITHM_PREFIX.length());
            if (Arrays.stream(Collective.values()).noneMatch(c -> c.name().equals(collective))) {
                throw usage("--set " + key + " names no collective; known: " + String.join(", ",
                        Arrays.stream(Collective.values()).map(c -> RailcollSettings.FORCED_ALGORITHM_PREFIX + c.name())
                                .toList()));
            }
            String id = e.getValue() == null ? "" : e.getValue().strip();
            if (!id.isEmpty() && !id.equals("auto")) {
                try {
                    AlgorithmCatalog.standard().byId(id);
                } catch (IllegalArgumentException unknown) {
                    throw usage("--set " + key + "=" + id + ": " + unknown.getMessage());
                }
            }
        }
    }

    /** The railcoll settings a {@code --set} may name. */
    private static List<String> knownNames() {
        List<String> names = new ArrayList<>();
        RailcollSettings.ALL.forEach(s -> names.add(s.name()));
        names.add(RailcollSettings.FORCED_ALGORITHM_PREFIX + "<COLLECTIVE>");
        return names;
    }

    private <T> void put(Map<String, String> env, String option, Setting<T> setting, String optionValue) {
        boolean explicit = command != null && command.commandLine() != null
                && command.commandLine().getParseResult() != null
                && command.commandLine().getParseResult().hasMatchedOption(option);
        String set = settings.get(setting.name());
        if (set == null || set.isBlank()) {
            if (optionValue != null) {
                env.put(setting.name(), optionValue);
            }
            return;
        }
        T fromSet;
        try {
            fromSet = setting.parse(set);
        } catch (IllegalArgumentException e) {
            throw usage("--set " + e.getMessage());
        }
        if (explicit && !fromSet.equals(setting.parse(optionValue))) {
            throw usage(option + " " + optionValue + " and --set " + setting.name() + "=" + set.strip()
                    + " disagree; give the setting once");
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(command.commandLine(), message);
    }

    /** The network the job runs on, loopback unless asked otherwise; the caller closes it. */
    NodeNetwork network() {
        return network(placement(), "loopback", null);
    }

    /** The network for {@code placement} (a command that picks its own placement), loopback unless asked otherwise. */
    NodeNetwork network(Placement placement) {
        return network(placement, "loopback", null);
    }

    NodeNetwork network(String defaultMode, String defaultRate) {
        return network(placement(), defaultMode, defaultRate);
    }

    /**
     * The network the job runs on; the caller closes it (which tears a testbed down).
     *
     * @param defaultMode  used when neither --network nor --netns is given: loopback, netns or auto
     * @param defaultRate  rail rate on the testbed when --rail-rate is not given (null: unlimited)
     */
    NodeNetwork network(Placement placement, String defaultMode, String defaultRate) {
        String mode = netns ? "netns" : network != null ? network : defaultMode;
        if (mode.equals("auto")) {
            mode = NetnsTestbed.available().available() ? "netns" : "loopback";
        }
        switch (mode) {
            case "loopback" -> {
                if (railRate != null || railNetem != null || railMtu != null) {
                    throw new IllegalArgumentException("--rail-rate, --rail-netem and --rail-mtu need the netns testbed (--netns)");
                }
                return new LoopbackNetwork(placement.nodeCount(), rails);
            }
            case "netns" -> {
                TestbedSpec spec = TestbedSpec.of(placement.nodeCount(), rails);
                String rate = railRate != null ? railRate : defaultRate;
                if (rate != null && !rate.equals("unlimited")) {
                    spec = spec.withRate(rate);
                }
                if (railNetem != null) {
                    spec = spec.withNetem(railNetem);
                }
                if (railMtu != null) {
                    spec = spec.withMtu(railMtu);
                }
                return NamespaceNetwork.start(spec);
            }
            default -> throw new IllegalArgumentException("--network must be loopback, netns or auto, got '" + mode + "'");
        }
    }
}
