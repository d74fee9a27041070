package io.railcoll;

import io.railcoll.bootstrap.BootstrapSource;
import io.railcoll.bootstrap.BootstrapSources;
import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.JobIdentity;
import io.railcoll.bootstrap.JobTable;
import io.railcoll.bootstrap.RankIdentity;
import io.railcoll.bootstrap.RankRecord;
import io.railcoll.engine.CollectiveEngine;
import io.railcoll.engine.ContextRouter;
import io.railcoll.transport.SharedDriver;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.topology.Placement;
import io.railcoll.transport.Transport;
import io.railcoll.transport.shm.NodeRegion;
import io.railcoll.transport.shm.ShmConfig;
import io.railcoll.transport.shm.ShmTransport;
import io.railcoll.transport.tcp.RailListeners;
import io.railcoll.transport.tcp.RailMesh;
import io.railcoll.transport.tcp.RailReconnector;
import io.railcoll.transport.tcp.RailSettings;
import io.railcoll.transport.tcp.TcpRailTransport;
import io.railcoll.transport.tcp.ThreadedRailTransport;
import io.railcoll.transport.mcast.MulticastSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.List;
import java.util.Map;

/**
 * The composition root: joins this process to its job and returns a ready {@link Communicator}. Start-up is
 * all-or-nothing: on any failure, whatever was opened is closed again before the exception leaves.
 */
public final class Railcoll {
    private Railcoll() {
    }

    /**
     * Joins the job described by the process environment: whichever launcher started this process
     * ({@link BootstrapSources}: railcoll's variables, PMIx, PMI-1, Slurm, torchrun-style) and {@link Config}.
     */
    public static Communicator init() {
        Map<String, String> env = System.getenv();
        Config config = Config.fromEnvironment(env);
        return init(BootstrapSources.open(env, System.err), config, System.err);
    }

    public static Communicator init(JobIdentity id, Config config) {
        return init(id, config, System.err);
    }

    public static Communicator init(JobIdentity id, Config config, PrintStream log) {
        return init(BootstrapSources.of(id, log), config, log);
    }

    /**
     * Joins the job through {@code source}, which the returned communicator owns (and closes); on failure it is
     * closed here.
     */
    public static Communicator init(BootstrapSource source, Config config, PrintStream log) {
        RankIdentity id;
        List<InetAddress> railAddresses;
        try {
            id = source.identity();
            railAddresses = railAddresses(source);
        } catch (RuntimeException e) {
            closeAll(e, source);
            throw e;
        }
        RailListeners listeners = null;
        Transport tcp = null;
        NodeRegion region = null;
        ShmTransport shm = null;
        CollectiveEngine engine = null;
        try {
            listeners = RailListeners.open(railAddresses, Math.max(64, id.size() * railAddresses.size()));
            // The processors this rank sees and the ranks it shares them with travel in its record, so that every
            // rank judges alike whether every rank has a processor of its own (decision 0196).
            RankRecord mine = new RankRecord(id.rank(), id.size(), ProcessHandle.current().pid(), id.node(),
                    listeners.endpoints(), io.railcoll.memory.NodeCpus.count(), io.railcoll.memory.NodeCpus.hostRanks());
            JobTable table = source.exchange(mine, config.connectTimeoutNs());
            Handshake handshake = source.handshake();
            var channels = RailMesh.connect(id.rank(), table, listeners, handshake, config.connectTimeoutNs(), log,
                    config.connectionsPerRail());
            engine = new CollectiveEngine(id.rank(), table.placement(), config.timeoutNs());
            // Every transport delivers to the router, which finds each frame's communicator by its context.
            SharedDriver driver = new SharedDriver();
            ContextRouter router = new ContextRouter(id.size(), driver);
            // The listeners stay open for the job's lifetime, so that a failed rail can be reconnected (decision
            // 0055); the rail transport owns them from here on, through its reconnector.
            RailReconnector reconnector = RailReconnector.keep(id.rank(), table, listeners, handshake, log);
            listeners = null;
            tcp = startRails(id.rank(), channels, table.rails(), config, router, log, reconnector);
            Placement placement = table.placement();
            int[] local = placement.ranksOf(placement.nodeOf(id.rank()));
            if (config.sharedMemory() && local.length > 1) {
                region = NodeRegion.open(id.jobId(), placement.nodeOf(id.rank()), placement.localRankOf(id.rank()),
                        local.length, ShmConfig.defaults().withRingBytes(config.shmRingBytes())
                                .withAttachTimeoutNs(config.connectTimeoutNs()));
                shm = new ShmTransport(id.rank(), local, id.size(), region, router, config.cma(),
                        config.cmaThresholdBytes(), config.connectTimeoutNs());
            }
            router.setTransports(shm == null ? new Transport[] {tcp} : new Transport[] {shm, tcp});
            RankTransports shared = new RankTransports(table, config, router, driver, tcp, shm);
            int[] everyone = java.util.stream.IntStream.range(0, id.size()).toArray();
            shared.attach(engine, 0, everyone, id.rank());
            driver.join();
            router.register(0, "world", engine, everyone);
            AlgorithmSelector selector = shared.selector();
            if (region != null) {
                engine.attachNodeArea(region.stepArea());
            }
            RailcollCommunicator comm = new RailcollCommunicator(id.rank(), shared, engine, region, selector, source);
            if (config.sharedMemory()) {
                // On every rank alike (selection must agree), also those alone on their node (no region).
                comm.enableNodeRegion();
                // Single copy (decision 0143): the node agrees, so that every rank of it offers the same algorithms;
                // those are one-node algorithms, so nodes that agree differently never select differently.
                if (region != null && region.agreePeerAccess(config.cma() && shm.readsEveryNodeMate(),
                        config.connectTimeoutNs())) {
                    comm.enableSingleCopy();
                }
            }
            if (config.multicast() != MulticastMode.OFF) {
                // A failed open closes what it opened itself; the catch below closes the rest.
                comm.enableMulticast(new MulticastBroadcaster(id.rank(), table, id.jobId(), handshake, engine,
                        MulticastSettings.fromEnvironment(System.getenv()), config.multicastRail(),
                        config.connectTimeoutNs(), log, comm::allgatherBlocks), config.multicast() == MulticastMode.ON);
            }
            return comm;
        } catch (IOException e) {
            closeAll(e, shm, tcp, engine, region, listeners, source);
            throw new RailcollException("rank " + id.rank() + ": start-up failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeAll(e, shm, tcp, engine, region, listeners, source);
            throw e;
        }
    }

    /** The rail engine {@link Config#engine()} asks for, over the connected channels. */
    private static Transport startRails(int rank, java.nio.channels.SocketChannel[][] channels, int rails, Config config,
                                        io.railcoll.transport.FrameSink sink, PrintStream log,
                                        RailReconnector reconnector) throws IOException {
        RailSettings settings = new RailSettings(rails, config.connectionsPerRail(), config.stripeThresholdBytes(),
                config.railTimeoutNs(), config.eagerBytes());
        return switch (config.engine()) {
            case SINGLE -> TcpRailTransport.start(rank, channels, settings, sink, log, reconnector);
            case THREADED -> ThreadedRailTransport.start(rank, channels, settings, sink, log, config.timeoutNs(),
                    reconnector);
        };
    }

    private static void closeAll(Exception primary, AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception e) {
                    primary.addSuppressed(e);
                }
            }
        }
    }

    /**
     * The rail addresses a rank joining through {@code source} listens on: those the user named
     * ({@code RAILCOLL_RAILS}); else one rail on the address that routes to the rendezvous (unless that is loopback
     * in a job the launcher says spans several nodes); else (a launcher's key-value store, no rendezvous) loopback
     * when the launcher says the whole job runs on this node, and otherwise this host's address.
     */
    public static List<InetAddress> railAddresses(BootstrapSource source) {
        if (!source.railAddresses().isEmpty()) {
            return source.railAddresses();
        }
        if (source.routeHint() != null) {
            InetAddress toward = localAddressToward(source.routeHint());
            RankIdentity id = source.identity();
            if (toward.isLoopbackAddress() && id.localSize() > 0 && !id.wholeJobOnThisNode()) {
                // Rank 0's node resolves its own name to loopback (Debian maps the host name to 127.0.1.1), but
                // ranks on other nodes must reach this one.
                return List.of(hostAddress());
            }
            return List.of(toward);
        }
        if (source.identity().wholeJobOnThisNode()) {
            return List.of(InetAddress.getLoopbackAddress());
        }
        return List.of(hostAddress());
    }

    /**
     * This host's address for a job over several nodes with no rendezvous to route toward: the host name's address
     * unless that is a loopback one (Debian maps the host name to 127.0.1.1), else the first address of an
     * interface that is up, not loopback and not virtual.
     */
    private static InetAddress hostAddress() {
        try {
            InetAddress byName = InetAddress.getLocalHost();
            if (!byName.isLoopbackAddress()) {
                return byName;
            }
            for (NetworkInterface nif : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nif.isUp() && !nif.isLoopback() && !nif.isVirtual()) {
                    for (InetAddress a : java.util.Collections.list(nif.getInetAddresses())) {
                        if (a instanceof java.net.Inet4Address) {
                            return a;
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new RailcollException("cannot tell this host's address (" + e.getMessage()
                    + "); set RAILCOLL_RAILS to this node's rail addresses", e);
        }
        throw new RailcollException("this host has no address other than loopback, and the job spans several nodes;"
                + " set RAILCOLL_RAILS to this node's rail addresses");
    }

    private static InetAddress localAddressToward(InetSocketAddress target) {
        if (target.getAddress().isLoopbackAddress()) {
            return InetAddress.getLoopbackAddress();
        }
        // A connected UDP socket sends nothing; it only asks the kernel which local address routes to the target.
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(target);
            return probe.getLocalAddress();
        } catch (IOException e) {
            throw new RailcollException("cannot tell which local address reaches the rendezvous at " + target + " ("
                    + e.getMessage() + "); set RAILCOLL_RAILS to this node's rail addresses", e);
        }
    }
}
