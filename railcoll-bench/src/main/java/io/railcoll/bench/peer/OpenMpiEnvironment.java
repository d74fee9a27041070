package io.railcoll.bench.peer;

import java.util.List;
import java.util.Map;

/**
 * The environment Open MPI's peer runs in: the caller's, less every variable that sets an MCA parameter of Open MPI
 * ({@code OMPI_MCA_*}) or of PMIx ({@code PMIX_MCA_*}). The peer runs Open MPI's defaults plus the settings the bench
 * puts on mpirun's command line, on any machine.
 *
 * <p>Why (decision 0198): the 16-processor machine's image exports {@code OMPI_MCA_plm=isolated},
 * {@code OMPI_MCA_btl_vader_single_copy_mechanism=none} and {@code PMIX_MCA_gds=hash}, as container images do. The
 * isolated launcher starts no remote daemon: mpirun mapped every rank of the testbed onto its own node, in node 0's
 * namespace, the agent was never called, the ranks talked through shared memory and the rails carried 0 bytes, while
 * the figures claimed 4 nodes. And with single copy off, the one-node peer's large messages went through two copies.
 * Stateless.
 */
public final class OpenMpiEnvironment {
    private static final List<String> DROPPED_PREFIXES = List.of("OMPI_MCA_", "PMIX_MCA_");

    private OpenMpiEnvironment() {
    }

    /** Whether the peer runs without {@code name}. */
    public static boolean dropped(String name) {
        return DROPPED_PREFIXES.stream().anyMatch(name::startsWith);
    }

    /** The variables of {@code environment} the peer runs without, as {@code NAME=value}, sorted. */
    public static List<String> droppedFrom(Map<String, String> environment) {
        return environment.entrySet().stream().filter(e -> dropped(e.getKey())).map(e -> e.getKey() + "=" + e.getValue())
                .sorted().toList();
    }

    /** Removes from {@code environment} (a process builder's) every variable the peer runs without. */
    public static void scrub(Map<String, String> environment) {
        environment.keySet().removeIf(OpenMpiEnvironment::dropped);
    }

    /** One line for the run's output naming what this process's environment set and the peer ignores; empty if none. */
    public static String note() {
        List<String> dropped = droppedFrom(System.getenv());
        return dropped.isEmpty() ? "" : "peer: ignoring the environment's " + String.join(" ", dropped)
                + " (the peer runs Open MPI's defaults and the bench's own settings)";
    }
}
