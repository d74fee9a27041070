package io.railcoll.cli;

import io.railcoll.launcher.LoopbackNetwork;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.topology.Placement;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/** The emulated cluster, shared by every command that launches a job. */
final class ClusterOptions {
    @Option(names = "--nodes", description = "Emulated nodes (default ${DEFAULT-VALUE}).", defaultValue = "4")
    int nodes;

    @Option(names = "--ranks-per-node", description = "Ranks (JVMs) per node (default ${DEFAULT-VALUE}).", defaultValue = "4")
    int ranksPerNode;

    @Option(names = "--placement", description = "Ranks per node as a list, e.g. 3,4,2 (uneven nodes), or 4x4; overrides --nodes/--ranks-per-node.")
    String placement;

    @Option(names = "--rails", description = "Rails (networks) per node (default ${DEFAULT-VALUE}).", defaultValue = "2")
    int rails;

    @Option(names = "--engine", description = "Rail engine: single (one thread drives all rails) or threaded (a thread per rail) (default ${DEFAULT-VALUE}).", defaultValue = "single")
    String engine;

    @Option(names = "--timeout-ms", description = "Deadline of every wait inside a collective, in ms (default ${DEFAULT-VALUE}).", defaultValue = "30000")
    long timeoutMs;

    @Option(names = "--stripe-threshold", description = "Puts longer than this many bytes are striped over all rails (default ${DEFAULT-VALUE}).", defaultValue = "1024")
    long stripeThreshold;

    @Option(names = "--set", description = "Extra railcoll setting for every rank, KEY=VALUE (e.g. RAILCOLL_GROUPS=4); repeatable.")
    Map<String, String> settings = new LinkedHashMap<>();

    Placement placement() {
        return placement != null ? Placement.parse(placement) : Placement.uniform(nodes, ranksPerNode);
    }

    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>(settings);
        env.put("RAILCOLL_ENGINE", engine);
        env.put("RAILCOLL_TIMEOUT_MS", Long.toString(timeoutMs));
        env.put("RAILCOLL_STRIPE_THRESHOLD", Long.toString(stripeThreshold));
        return env;
    }

    NodeNetwork network() {
        return new LoopbackNetwork(placement().nodeCount(), rails);
    }
}
