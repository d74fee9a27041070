package io.railcoll;

import io.railcoll.schedule.Collective;
import io.railcoll.settings.RailcollSettings;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every tunable of a communicator. Each component names the environment variable that sets it when the
 * communicator is built from the environment ({@link #fromEnvironment(Map)}); the variables' ranges, defaults and
 * parsing are defined once in {@link RailcollSettings}, and a Config built in code is held to the same ranges.
 *
 * @param timeoutNs            how long any single wait of a collective may last before it fails naming what it
 *                             awaited ({@code RAILCOLL_TIMEOUT_MS}, default 30 s)
 * @param connectTimeoutNs     how long start-up (rendezvous, rail connections, shared memory) may take
 *                             ({@code RAILCOLL_CONNECT_TIMEOUT_MS}, default 60 s: sixteen JVMs starting on two
 *                             cores take a while)
 * @param stripeThresholdBytes a put longer than this is split evenly over all rails; shorter puts go whole on one
 *                             rail, round-robin ({@code RAILCOLL_STRIPE_THRESHOLD}, default 1024 as in paper 000)
 * @param engine               how rail I/O is driven ({@code RAILCOLL_ENGINE}=single|threaded, default single)
 * @param ports                k, the number of puts an algorithm keeps in flight per step; 0 means one per rail
 *                             ({@code RAILCOLL_PORTS})
 * @param groups               master groups per node for the multi-connection all-gathers ({@code RAILCOLL_GROUPS},
 *                             default 2)
 * @param sharedMemory         whether ranks of one node talk through shared memory ({@code RAILCOLL_SHM}=on|off,
 *                             default on); off sends intra-node traffic through the rail sockets, to compare
 * @param shmRingBytes         bytes of each shared-memory ring between two ranks of a node, a power of two
 *                             ({@code RAILCOLL_SHM_RING_BYTES}, default 256 KiB)
 * @param connectionsPerRail   TCP connections per (peer, rail) ({@code RAILCOLL_CONNECTIONS_PER_RAIL}, default 1):
 *                             more keep more bytes in flight per rail (paper 002; NCCL's sockets per thread)
 * @param railTimeoutNs        a rail connection that hears nothing (no data, acknowledgement or heartbeat) this long
 *                             is given up and its traffic re-sent on the peer's other rails
 *                             ({@code RAILCOLL_RAIL_TIMEOUT_MS}, default 4 s; heartbeats go every eighth of it)
 * @param eagerBytes           a rail put of at most this many bytes is copied when it is queued and completes once
 *                             written, instead of when the receiver acknowledges it ({@code RAILCOLL_EAGER_BYTES},
 *                             default 16 KiB, 0 turns it off): the acknowledgement's round trip leaves the critical
 *                             path of small collectives, and the copy still lets a failed rail's data be re-sent
 * @param cma                  whether a put of native memory to a node-mate may go single-copy: the receiver reads
 *                             it straight from the sender's memory with process_vm_readv ({@code RAILCOLL_CMA}=on|off,
 *                             default on; used per pair only where the kernel allows it, docs/shared-memory.md)
 * @param cmaThresholdBytes    smallest put that goes single-copy ({@code RAILCOLL_CMA_THRESHOLD}, default 64 KiB,
 *                             docs/decisions/0009-single-copy-threshold-and-heap-buffers.md); heap memory (byte[],
 *                             heap ByteBuffers and segments) always goes through the rings
 * @param forcedAlgorithms     per collective, an algorithm id that must be used
 *                             ({@code RAILCOLL_ALGORITHM_ALLGATHER=allgather.bruck} and so on); a forced algorithm that
 *                             cannot run a shape is an error, never a silent fall-back
 * @param multicast            whether broadcasts may go by reliable UDP multicast ({@code RAILCOLL_MCAST}=off|auto|on,
 *                             default off; see {@link MulticastMode} and docs/multicast.md)
 * @param multicastRail        the rail whose interface carries the multicast group ({@code RAILCOLL_MCAST_RAIL},
 *                             default 0); the other {@code RAILCOLL_MCAST_*} variables tune the protocol
 * @param threadSafe           whether any thread may call the communicator at any time ({@code RAILCOLL_THREAD_SAFE}
 *                             =on|off, default off: one thread at a time, concurrent use refused with an
 *                             {@link IllegalStateException}); on, calls are serialized by a fair lock in the order
 *                             their threads enter (what {@code MPI_THREAD_MULTIPLE} maps to; decision 0042)
 * @param deterministic        whether reductions (all-reduce, reduce, reduce-scatter, scan, exscan) combine every
 *                             element in rank order 0..N-1, so floating-point results have the same bits whatever
 *                             the algorithm, placement, rails or ports ({@code RAILCOLL_DETERMINISTIC}=on|off,
 *                             default off; decision 0091). Only the {@code *.deterministic} algorithms run them then,
 *                             and forcing another is refused. Every rank must set it alike.
 */
public record Config(
        long timeoutNs,
        long connectTimeoutNs,
        long stripeThresholdBytes,
        EngineMode engine,
        int ports,
        int groups,
        boolean sharedMemory,
        int shmRingBytes,
        int connectionsPerRail,
        long railTimeoutNs,
        int eagerBytes,
        boolean cma,
        long cmaThresholdBytes,
        Map<Collective, String> forcedAlgorithms,
        MulticastMode multicast,
        int multicastRail,
        boolean threadSafe,
        boolean deterministic) {

    // The defaults live with the settings (io.railcoll.settings.RailcollSettings); these name them for code.
    public static final long DEFAULT_TIMEOUT_NS = RailcollSettings.TIMEOUT.defaultValue();
    public static final long DEFAULT_CONNECT_TIMEOUT_NS = RailcollSettings.CONNECT_TIMEOUT.defaultValue();
    public static final long DEFAULT_STRIPE_THRESHOLD = RailcollSettings.STRIPE_THRESHOLD.defaultValue();

    public static final long DEFAULT_RAIL_TIMEOUT_NS = RailcollSettings.RAIL_TIMEOUT.defaultValue();
    public static final int DEFAULT_EAGER_BYTES = RailcollSettings.EAGER_BYTES.defaultValue();
    /** Above this a copy costs more than the acknowledgement's round trip saves, and pins that much per frame. */
    public static final int MAX_EAGER_BYTES = 1024 * 1024;
    public static final long DEFAULT_CMA_THRESHOLD = RailcollSettings.CMA_THRESHOLD.defaultValue();

    /** The settings before the rail fail-over ones, with those at their defaults. */
    public Config(long timeoutNs, long connectTimeoutNs, long stripeThresholdBytes, EngineMode engine, int ports,
                  int groups, boolean sharedMemory, int shmRingBytes, Map<Collective, String> forcedAlgorithms) {
        this(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes, 1,
                DEFAULT_RAIL_TIMEOUT_NS, forcedAlgorithms);
    }

    /** The settings before the eager, single-copy and multicast ones, with those at their defaults. */
    public Config(long timeoutNs, long connectTimeoutNs, long stripeThresholdBytes, EngineMode engine, int ports,
                  int groups, boolean sharedMemory, int shmRingBytes, int connectionsPerRail, long railTimeoutNs,
                  Map<Collective, String> forcedAlgorithms) {
        this(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, DEFAULT_EAGER_BYTES, true, DEFAULT_CMA_THRESHOLD, forcedAlgorithms,
                MulticastMode.OFF, 0);
    }

    /** The settings before the thread contract, with one thread at a time. */
    public Config(long timeoutNs, long connectTimeoutNs, long stripeThresholdBytes, EngineMode engine, int ports,
                  int groups, boolean sharedMemory, int shmRingBytes, int connectionsPerRail, long railTimeoutNs,
                  int eagerBytes, boolean cma, long cmaThresholdBytes, Map<Collective, String> forcedAlgorithms,
                  MulticastMode multicast, int multicastRail) {
        this(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, cma, cmaThresholdBytes, forcedAlgorithms, multicast,
                multicastRail, false);
    }

    /** The settings before the deterministic option, which is off. */
    public Config(long timeoutNs, long connectTimeoutNs, long stripeThresholdBytes, EngineMode engine, int ports,
                  int groups, boolean sharedMemory, int shmRingBytes, int connectionsPerRail, long railTimeoutNs,
                  int eagerBytes, boolean cma, long cmaThresholdBytes, Map<Collective, String> forcedAlgorithms,
                  MulticastMode multicast, int multicastRail, boolean threadSafe) {
        this(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, cma, cmaThresholdBytes, forcedAlgorithms, multicast,
                multicastRail, threadSafe, false);
    }

    public Config {
        // The same ranges, and the same messages, as the settings these components are read from.
        if (engine == null) {
            throw new IllegalArgumentException("the engine must not be null");
        }
        if (multicast == null) {
            throw new IllegalArgumentException("the multicast mode must not be null");
        }
        RailcollSettings.TIMEOUT.check(timeoutNs);
        RailcollSettings.CONNECT_TIMEOUT.check(connectTimeoutNs);
        RailcollSettings.STRIPE_THRESHOLD.check(stripeThresholdBytes);
        RailcollSettings.PORTS.check(ports);
        RailcollSettings.GROUPS.check(groups);
        RailcollSettings.SHM_RING_BYTES.check(shmRingBytes);
        RailcollSettings.CONNECTIONS_PER_RAIL.check(connectionsPerRail);
        RailcollSettings.RAIL_TIMEOUT.check(railTimeoutNs);
        RailcollSettings.EAGER_BYTES.check(eagerBytes);
        RailcollSettings.CMA_THRESHOLD.check(cmaThresholdBytes);
        RailcollSettings.MCAST_RAIL.check(multicastRail);
        EnumMap<Collective, String> copy = new EnumMap<>(Collective.class);
        copy.putAll(forcedAlgorithms);
        for (Map.Entry<Collective, String> e : copy.entrySet()) {
            if (!e.getValue().startsWith(e.getKey().id() + ".")) {
                throw new IllegalArgumentException("algorithm '" + e.getValue() + "' forced for " + e.getKey().id()
                        + " is not a " + e.getKey().id() + " algorithm");
            }
        }
        forcedAlgorithms = Map.copyOf(copy);
    }

    public static Config defaults() {
        return fromEnvironment(Map.of());
    }

    /**
     * Reads the variables named on each component through their {@link RailcollSettings} definitions; absent ones
     * keep their default. A bad value is a {@link io.railcoll.settings.SettingException} naming the variable, the
     * value and the accepted range.
     */
    public static Config fromEnvironment(Map<String, String> env) {
        EnumMap<Collective, String> forced = new EnumMap<>(Collective.class);
        for (Collective col : Collective.values()) {
            String v = env.get(RailcollSettings.FORCED_ALGORITHM_PREFIX + col.name());
            if (v != null && !v.isBlank() && !v.strip().equals("auto")) {
                forced.put(col, v.strip());
            }
        }
        return new Config(
                RailcollSettings.TIMEOUT.read(env),
                RailcollSettings.CONNECT_TIMEOUT.read(env),
                RailcollSettings.STRIPE_THRESHOLD.read(env),
                EngineMode.parse(RailcollSettings.ENGINE.read(env)),
                RailcollSettings.PORTS.read(env),
                RailcollSettings.GROUPS.read(env),
                RailcollSettings.SHM.read(env),
                RailcollSettings.SHM_RING_BYTES.read(env),
                RailcollSettings.CONNECTIONS_PER_RAIL.read(env),
                RailcollSettings.RAIL_TIMEOUT.read(env),
                RailcollSettings.EAGER_BYTES.read(env),
                RailcollSettings.CMA.read(env),
                RailcollSettings.CMA_THRESHOLD.read(env),
                forced,
                MulticastMode.parse(RailcollSettings.MCAST.read(env)),
                RailcollSettings.MCAST_RAIL.read(env),
                RailcollSettings.THREAD_SAFE.read(env),
                RailcollSettings.DETERMINISTIC.read(env));
    }

    public Config withTimeoutNs(long ns) {
        return new Config(ns, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, cma, cmaThresholdBytes, forcedAlgorithms, multicast,
                multicastRail, threadSafe, deterministic);
    }

    /** With single-copy puts and single-copy node steps on or off ({@code RAILCOLL_CMA}). */
    public Config withCma(boolean on) {
        return new Config(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, on, cmaThresholdBytes, forcedAlgorithms, multicast,
                multicastRail, threadSafe, deterministic);
    }

    public Config withForcedAlgorithm(Collective collective, String id) {
        EnumMap<Collective, String> m = new EnumMap<>(Collective.class);
        m.putAll(forcedAlgorithms);
        m.put(collective, id);
        return new Config(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, cma, cmaThresholdBytes, m, multicast, multicastRail,
                threadSafe, deterministic);
    }

    public Config withMulticast(MulticastMode mode, int rail) {
        return new Config(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, cma, cmaThresholdBytes, forcedAlgorithms, mode, rail,
                threadSafe, deterministic);
    }

    /** The same settings, with any thread allowed to call at any time ({@code threadSafe}) or one at a time. */
    public Config withThreadSafe(boolean on) {
        return new Config(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, cma, cmaThresholdBytes, forcedAlgorithms, multicast,
                multicastRail, on, deterministic);
    }

    /** The same settings, with reductions in rank order everywhere ({@code deterministic}) or not (decision 0091). */
    public Config withDeterministic(boolean on) {
        return new Config(timeoutNs, connectTimeoutNs, stripeThresholdBytes, engine, ports, groups, sharedMemory, shmRingBytes,
                connectionsPerRail, railTimeoutNs, eagerBytes, cma, cmaThresholdBytes, forcedAlgorithms, multicast,
                multicastRail, threadSafe, on);
    }

    public Optional<String> forcedAlgorithm(Collective collective) {
        return Optional.ofNullable(forcedAlgorithms.get(collective));
    }
}
