package io.railcoll.settings;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every railcoll setting, with its range, default and meaning, in one place. {@code Config},
 * {@code MulticastSettings}, {@code JobIdentity}, {@code SelectionSettings}, {@code NodeCpus}, the launcher and the
 * CLI read their values through these definitions, so a value is parsed and range-checked the same way wherever it
 * comes from. A range is what the value's type and its use allow: a time-out's nanoseconds plus the clock still fit
 * a long (docs/decisions/0035-one-parser-for-every-setting.md).
 */
public final class RailcollSettings {
    private RailcollSettings() {
    }

    /** The longest time-out any setting accepts, in milliseconds: one year. */
    public static final long MAX_TIMEOUT_MS = 365L * 24 * 3600 * 1000;

    // --- the communicator (io.railcoll.Config) ---

    public static final Setting<Long> TIMEOUT = Setting.millisAsNanos("RAILCOLL_TIMEOUT_MS", 1, MAX_TIMEOUT_MS, 30_000,
            "how long any single wait of a collective may last before it fails naming what it awaited");
    public static final Setting<Long> CONNECT_TIMEOUT = Setting.millisAsNanos("RAILCOLL_CONNECT_TIMEOUT_MS", 1,
            MAX_TIMEOUT_MS, 60_000, "how long start-up (rendezvous, rail connections, shared memory) may take");
    public static final Setting<Long> STRIPE_THRESHOLD = Setting.bytes("RAILCOLL_STRIPE_THRESHOLD", 0, Long.MAX_VALUE,
            1024, "a put longer than this is split evenly over all rails; shorter puts go whole on one rail");
    public static final Setting<String> ENGINE = Setting.choice("RAILCOLL_ENGINE", "single",
            "how rail I/O is driven: one selector driven by the calling thread, or a thread per rail",
            List.of("single", "threaded"), Map.of("non-threaded", "single", "nonthreaded", "single"));
    public static final Setting<Integer> PORTS = Setting.integer("RAILCOLL_PORTS", 0, 1024, 0, "0 = one per rail",
            "k, the number of puts an algorithm keeps in flight per step");
    public static final Setting<Integer> GROUPS = Setting.integer("RAILCOLL_GROUPS", 1, 1024, 2, "",
            "master groups per node for the multi-connection all-gathers");
    public static final Setting<Boolean> SHM = Setting.onOff("RAILCOLL_SHM", true,
            "whether ranks of one node talk through shared memory (off: through the rail sockets)");
    public static final Setting<Integer> SHM_RING_BYTES = Setting.powerOfTwoBytes("RAILCOLL_SHM_RING_BYTES", 4096,
            1 << 30, 256 * 1024, "bytes of each shared-memory ring between two ranks of a node");
    public static final Setting<Integer> CONNECTIONS_PER_RAIL = Setting.integer("RAILCOLL_CONNECTIONS_PER_RAIL", 1, 16,
            1, "", "TCP connections per (peer, rail)");
    public static final Setting<Long> RAIL_TIMEOUT = Setting.millisAsNanos("RAILCOLL_RAIL_TIMEOUT_MS", 10,
            MAX_TIMEOUT_MS, 4_000, "a rail connection that hears nothing this long is given up and its traffic re-sent"
                    + " on the peer's other rails (heartbeats go every eighth of it)");
    public static final Setting<Integer> EAGER_BYTES = Setting.intBytes("RAILCOLL_EAGER_BYTES", 0, 1 << 20, 16 * 1024,
            "a rail put of at most this many bytes is copied when queued and completes once written (0 = off)");
    public static final Setting<Boolean> CMA = Setting.onOff("RAILCOLL_CMA", true,
            "whether a put of native memory to a node-mate may go single-copy (process_vm_readv)");
    public static final Setting<Long> CMA_THRESHOLD = Setting.bytes("RAILCOLL_CMA_THRESHOLD", 1, Long.MAX_VALUE,
            64 * 1024, "smallest put that goes single-copy");
    public static final Setting<Boolean> THREAD_SAFE = Setting.onOff("RAILCOLL_THREAD_SAFE", false,
            "whether any thread may call the communicator at any time (calls ordered as their threads arrive); off: one"
                    + " thread at a time, a second concurrent caller is refused");
    public static final Setting<Boolean> DETERMINISTIC = Setting.onOff("RAILCOLL_DETERMINISTIC", false,
            "whether reductions combine in rank order 0..N-1 whatever the algorithm and placement, so floating-point"
                    + " results have the same bits everywhere (decision 0091); costs latency, not bandwidth");
    /** {@code RAILCOLL_ALGORITHM_<COLLECTIVE>}: an algorithm id, or {@code auto}; checked against the catalog by Config. */
    public static final String FORCED_ALGORITHM_PREFIX = "RAILCOLL_ALGORITHM_";
    public static final Setting<String> MCAST = Setting.choice("RAILCOLL_MCAST", "off",
            "whether broadcasts may go by reliable UDP multicast", List.of("off", "auto", "on"),
            Map.of("false", "off", "no", "off", "0", "off", "true", "on", "yes", "on", "1", "on"));
    public static final Setting<Integer> MCAST_RAIL = Setting.integer("RAILCOLL_MCAST_RAIL", 0, 63, 0, "",
            "the rail whose interface carries the multicast group");

    // --- the multicast protocol (transport.mcast.MulticastSettings) ---

    public static final Setting<Integer> MCAST_CHANNELS = Setting.integer("RAILCOLL_MCAST_CHANNELS", 1, 64, 16, "",
            "C, broadcasts that pipeline before a delayed synchronization");
    public static final Setting<Integer> MCAST_PAYLOAD = Setting.intBytes("RAILCOLL_MCAST_PAYLOAD", 1, 65_000, 1400,
            "payload per datagram");
    public static final Setting<String> MCAST_CHECKSUM = Setting.choice("RAILCOLL_MCAST_CHECKSUM", "crc32c",
            "integrity check of datagrams", List.of("crc32c", "additive"), Map.of("crc", "crc32c", "sum", "additive"));
    public static final Setting<Boolean> MCAST_RELIABLE = Setting.onOff("RAILCOLL_MCAST_RELIABLE", true,
            "checksums, NACKs, retransmission and fail-over (off only to measure their cost)");
    public static final Setting<Integer> MCAST_BUFFERED_LIMIT = Setting.intBytes("RAILCOLL_MCAST_BUFFERED_LIMIT", 0,
            Integer.MAX_VALUE, 65536, "the root keeps a copy of a message up to this size and returns at once");
    public static final Setting<Long> MCAST_NACK_DELAY = Setting.microsAsNanos("RAILCOLL_MCAST_NACK_DELAY_US", 1,
            60_000_000L, 2_000, "a receiver that made no progress this long sends a NACK");
    public static final Setting<Long> MCAST_SYNC_TIMEOUT = Setting.millisAsNanos("RAILCOLL_MCAST_SYNC_TIMEOUT_MS", 1,
            3_600_000L, 200, "a root waiting this long in a synchronization re-sends what it sent since the last one");
    public static final Setting<Integer> MCAST_MAX_RETRANSMISSIONS = Setting.integer(
            "RAILCOLL_MCAST_MAX_RETRANSMISSIONS", 1, 30_000, 40, "",
            "re-sends of one datagram after which multicast is taken as failing and fails over");
    public static final Setting<Integer> MCAST_TREE_RADIX = Setting.integer("RAILCOLL_MCAST_TREE_RADIX", 2, 64, 4, "",
            "k of the k-nomial trees used for synchronization and fail-over");
    public static final Setting<Integer> MCAST_TREE_CHUNK = Setting.intBytes("RAILCOLL_MCAST_TREE_CHUNK", 1,
            Integer.MAX_VALUE, 65536, "fail-over data moves in control messages of at most this many bytes");
    public static final Setting<Integer> MCAST_RCVBUF = Setting.intBytes("RAILCOLL_MCAST_RCVBUF", 1, Integer.MAX_VALUE,
            4 << 20, "SO_RCVBUF asked for the multicast socket");
    public static final Setting<String> MCAST_FAULTS = Setting.text("RAILCOLL_MCAST_FAULTS", "",
            "a fault plan (transport.mcast.FaultPlan)", "faults injected on the multicast receive path, for tests");

    // --- selection ---

    public static final Setting<String> TUNING = Setting.text("RAILCOLL_TUNING", "", "a path to a tuning file",
            "the tuning file whose cost model and rules selection uses (bin/railcoll tune writes one)");

    // --- the job (bootstrap.JobIdentity) ---

    public static final Setting<Integer> RANK = Setting.integer("RAILCOLL_RANK", 0, Integer.MAX_VALUE - 1, 0, "",
            "this process's rank (set by bin/railcoll run)");
    public static final Setting<Integer> SIZE = Setting.integer("RAILCOLL_SIZE", 1, Integer.MAX_VALUE, 1, "",
            "the job's rank count (set by bin/railcoll run)");
    public static final Setting<String> RENDEZVOUS = Setting.text("RAILCOLL_RENDEZVOUS", "", "host:port",
            "host:port of the job's rendezvous");
    public static final Setting<String> RENDEZVOUS_SERVER = Setting.choice("RAILCOLL_RENDEZVOUS_SERVER", "launcher",
            "who serves the rendezvous: the launcher, or rank 0 at RAILCOLL_RENDEZVOUS (for mpirun and srun)",
            List.of("launcher", "rank0"), Map.of("none", "launcher"));
    public static final Setting<String> SECRET = Setting.text("RAILCOLL_SECRET", "", "any non-empty text",
            "the job secret every connection proves it knows");
    public static final Setting<String> JOB_ID = Setting.text("RAILCOLL_JOB_ID", "", "any text",
            "names the job in handshakes and shared-memory files (default: derived from the secret)");
    public static final Setting<String> NODE = Setting.text("RAILCOLL_NODE", "", "any text",
            "a key shared by the ranks of one node (default: the host name)");
    public static final Setting<String> RAILS = Setting.text("RAILCOLL_RAILS", "",
            "addresses, interface names or globs, CIDR blocks, auto, ^exclusions; comma-separated",
            "which local interfaces carry the rails, one rail per selected address (bootstrap.RailDiscovery)");
    public static final Setting<String> BOOTSTRAP = Setting.choice("RAILCOLL_BOOTSTRAP", "auto",
            "where a rank learns who it is and meets the others: chosen from the launcher's variables, or forced",
            List.of("auto", "railcoll", "pmix", "pmi1", "slurm", "torchrun"), Map.of());
    public static final Setting<String> SECRET_FILE = Setting.text("RAILCOLL_SECRET_FILE", "", "a path",
            "a file holding the job secret (instead of RAILCOLL_SECRET) where no launcher shares one");
    public static final Setting<Integer> RENDEZVOUS_PORT = Setting.integer("RAILCOLL_RENDEZVOUS_PORT", 0, 65535, 0,
            "0 = derived from the Slurm job, or MASTER_PORT",
            "the port of rank 0's rendezvous under the slurm and torchrun sources");
    public static final Setting<String> PMIX_LIBRARY = Setting.text("RAILCOLL_PMIX_LIBRARY", "", "a path",
            "the libpmix file to load, instead of searching for it");
    public static final Setting<Integer> NODE_CPUS = Setting.integer("RAILCOLL_NODE_CPUS", 1, 1 << 20,
            Math.max(1, Runtime.getRuntime().availableProcessors()), "processors",
            "the processors of the host the launcher binds ranks on; also decides the tuning rules' processors=own|shared"
                    + " (decision 0196)");
    public static final Setting<Integer> HOST_RANKS = Setting.integer("RAILCOLL_HOST_RANKS", 1, Integer.MAX_VALUE, 1,
            "ranks", "ranks that share this host's processors (set by the launcher on an emulated cluster)");

    // --- the launcher ---

    public static final Setting<String> BIND = Setting.choice("RAILCOLL_BIND", "auto",
            "whether the launcher binds each rank to a processor", List.of("auto", "core", "none"), Map.of());

    /** Every setting above, for documentation and for checking a {@code --set} before anything starts. */
    public static final List<Setting<?>> ALL = List.of(TIMEOUT, CONNECT_TIMEOUT, STRIPE_THRESHOLD, ENGINE, PORTS, GROUPS,
            SHM, SHM_RING_BYTES, CONNECTIONS_PER_RAIL, RAIL_TIMEOUT, EAGER_BYTES, CMA, CMA_THRESHOLD, THREAD_SAFE, DETERMINISTIC, MCAST,
            MCAST_RAIL,
            MCAST_CHANNELS, MCAST_PAYLOAD, MCAST_CHECKSUM, MCAST_RELIABLE, MCAST_BUFFERED_LIMIT, MCAST_NACK_DELAY,
            MCAST_SYNC_TIMEOUT, MCAST_MAX_RETRANSMISSIONS, MCAST_TREE_RADIX, MCAST_TREE_CHUNK, MCAST_RCVBUF,
            MCAST_FAULTS, TUNING, RANK, SIZE, RENDEZVOUS, RENDEZVOUS_SERVER, SECRET, JOB_ID, NODE, RAILS, BOOTSTRAP,
            SECRET_FILE, RENDEZVOUS_PORT, PMIX_LIBRARY, NODE_CPUS,
            HOST_RANKS, BIND);

    /** The definition named {@code name}, if there is one. */
    public static Optional<Setting<?>> named(String name) {
        for (Setting<?> s : ALL) {
            if (s.name().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * Parses every setting of {@code env} that has a definition, so a bad value fails before anything starts
     * (the CLI runs this over {@code --set} and the environment it passes to ranks).
     */
    public static void checkAll(Map<String, String> env) {
        for (Setting<?> s : ALL) {
            s.read(env);
        }
    }
}
