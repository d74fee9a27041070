package io.railcoll.memory;

/**
 * How many processors the ranks of this node share, which decides whether a waiting rank may spin
 * ({@link WaitStrategy#forRanks}): {@code RAILCOLL_NODE_CPUS} when the launcher set it, else the
 * JVM's available processors. The launcher sets it when it binds each rank to one processor, as
 * Open MPI does when ranks do not outnumber cores: the rank's own affinity then shows one processor
 * although its node-mates each have their own.
 */
public final class NodeCpus {
    /** The variable the launcher sets to the processors of the host it binds ranks on. */
    public static final String VARIABLE = "RAILCOLL_NODE_CPUS";

    private static final int COUNT = read(System.getenv(VARIABLE));

    private NodeCpus() {
    }

    /** The processors of this node, at least 1. */
    public static int count() {
        return COUNT;
    }

    static int read(String value) {
        if (value == null || value.isBlank()) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(VARIABLE + " must be a positive number of processors, got '" + value + "'");
    }
}
