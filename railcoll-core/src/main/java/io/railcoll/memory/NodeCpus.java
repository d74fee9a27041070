package io.railcoll.memory;

import io.railcoll.settings.RailcollSettings;

/**
 * How many processors the ranks of this node share, which decides whether a waiting rank may spin
 * ({@link WaitStrategy#forRanks}): {@code RAILCOLL_NODE_CPUS} when the launcher set it, else the
 * JVM's available processors. The launcher sets it when it binds each rank to one processor, as
 * Open MPI does when ranks do not outnumber cores: the rank's own affinity then shows one processor
 * although its node-mates each have their own.
 */
public final class NodeCpus {
    /** The variable the launcher sets to the processors of the host it binds ranks on. */
    public static final String VARIABLE = RailcollSettings.NODE_CPUS.name();
    /**
     * The variable the launcher sets to the number of ranks that share this host's processors: every rank of a job
     * whose nodes it emulates on one machine. Unset (as under mpirun or srun), a node's ranks share its processors
     * with nobody else.
     */
    public static final String HOST_RANKS_VARIABLE = RailcollSettings.HOST_RANKS.name();

    private static final int COUNT = read(System.getenv(VARIABLE));
    private static final int HOST_RANKS = readHostRanks(System.getenv(HOST_RANKS_VARIABLE));

    private NodeCpus() {
    }

    /** The processors of this node, at least 1. */
    public static int count() {
        return COUNT;
    }

    /** The ranks the launcher says share this host's processors ({@link #HOST_RANKS_VARIABLE}), 0 when unset. */
    public static int hostRanks() {
        return HOST_RANKS;
    }

    /**
     * Whether the ranks sharing this node's processors outnumber them, for a node of {@code ranksOnNode}: then a
     * waiting rank must not spin (it would hold the processor the rank it waits for needs) and the calls that make
     * every node-mate wait for the slowest cost a pass of the scheduler. On an emulated cluster the ranks of every
     * node count, not only this node's: four one-rank nodes on two processors spun each other's processors away
     * (a 1-byte all-gather 120 us; 71 us without spinning, Open MPI 63 us).
     */
    public static boolean outnumbered(int ranksOnNode) {
        return outnumbered(ranksOnNode, COUNT, HOST_RANKS);
    }

    /**
     * {@link #outnumbered(int)} for a rank that sees {@code cpus} processors and {@code hostRanks} ranks on its host
     * (0: only its node's): how a job table judges every rank by the counts each rank published (decision 0196).
     */
    public static boolean outnumbered(int ranksOnNode, int cpus, int hostRanks) {
        return ranksPerProcessor(ranksOnNode, cpus, hostRanks) > 1;
    }

    /** How many ranks share each of this node's processors, rounded up (1 while none is outnumbered), counted as {@link #outnumbered} counts. */
    public static int ranksPerProcessor(int ranksOnNode) {
        return ranksPerProcessor(ranksOnNode, COUNT, HOST_RANKS);
    }

    static int ranksPerProcessor(int ranksOnNode, int cpus, int hostRanks) {
        return Math.max(1, Math.ceilDiv(Math.max(ranksOnNode, hostRanks), cpus));
    }

    static int readHostRanks(String value) {
        return value == null || value.isBlank() ? 0 : RailcollSettings.HOST_RANKS.parse(value);
    }

    static int read(String value) {
        return value == null || value.isBlank() ? Runtime.getRuntime().availableProcessors()
                : RailcollSettings.NODE_CPUS.parse(value);
    }
}
