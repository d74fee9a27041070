package io.railcoll;

import io.railcoll.bootstrap.JobTable;
import io.railcoll.engine.CollectiveEngine;
import io.railcoll.engine.ContextRouter;
import io.railcoll.engine.PointToPoint;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.topology.Placement;
import io.railcoll.transport.Blocker;
import io.railcoll.transport.ContextTransport;
import io.railcoll.transport.SharedDriver;
import io.railcoll.transport.Transport;
import io.railcoll.transport.shm.DoorbellBlocker;
import io.railcoll.transport.shm.ShmTransport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every communicator of one rank shares: the rails and the node's shared-memory rings (no communicator opens
 * sockets or rings of its own), the router that hands incoming frames to the right communicator's engine, the
 * driver lock that lets communicators used by different threads take turns at the transports, and the settings a
 * new communicator starts from. Builds each communicator's engine over views of the transports
 * ({@link ContextTransport}) and registers it with the router (decision 0070).
 *
 * <p>Threading: any thread. Lifetime: built by {@link Railcoll}, owned by the world communicator, which closes the
 * transports; {@link #open} lists the sub-communicators still open, which the world closes first.
 */
final class RankTransports {
    final JobTable table;
    final Config config;
    final ContextRouter router;
    final SharedDriver driver;
    final Transport rails;
    /** The node's shared-memory rings, or null (alone on the node, or RAILCOLL_SHM=off). */
    final ShmTransport shm;
    final int ports;
    /** Sub-communicators open on this rank. */
    final Set<RailcollCommunicator> open = ConcurrentHashMap.newKeySet();

    RankTransports(JobTable table, Config config, ContextRouter router, SharedDriver driver, Transport rails,
                   ShmTransport shm) {
        this.table = table;
        this.config = config;
        this.router = router;
        this.driver = driver;
        this.rails = rails;
        this.shm = shm;
        this.ports = config.ports() == 0 ? table.rails() : config.ports();
    }

    /** One communicator's views of the transports for one of its contexts: per rank, and every distinct one. */
    private record Views(Transport[] route, Transport[] all) {
    }

    /**
     * Views of the rank's transports for frames of {@code context} of the communicator whose rank i is job rank
     * {@code jobRanks[i]}: node-mates through shared memory, the others through the rails.
     */
    private Views views(long context, int[] jobRanks, int jobRank) {
        Runnable replay = () -> router.replay(context);
        Transport railView = new ContextTransport(rails, context, jobRanks, driver, replay);
        Transport shmView = shm == null ? null : new ContextTransport(shm, context, jobRanks, driver, replay);
        Transport[] route = new Transport[jobRanks.length];
        for (int p = 0; p < jobRanks.length; p++) {
            route[p] = jobRanks[p] == jobRank ? null : shm != null && shm.reaches(jobRanks[p]) ? shmView : railView;
        }
        return new Views(route, shm == null ? new Transport[] {railView} : new Transport[] {shmView, railView});
    }

    /** Attaches {@code engine}, the engine of the communicator of {@code context}, to views of the transports. */
    void attach(CollectiveEngine engine, long context, int[] jobRanks, int jobRank) {
        Views v = views(context, jobRanks, jobRank);
        engine.attach(v.route(), v.all(), shm == null ? Blocker.parkOwner() : new DoorbellBlocker(shm.doorbell()));
    }

    /**
     * The point-to-point messages of the communicator of {@code context} (decision 0080), under a context of their
     * own, registered: messages reach it from now on. Unregistered with {@link SplitPlan#pointToPointContext}.
     */
    PointToPoint pointToPoint(CollectiveEngine engine, long context, String name, int[] jobRanks, int rank) {
        long own = SplitPlan.pointToPointContext(context);
        PointToPoint p2p = new PointToPoint(rank, name, engine, views(own, jobRanks, jobRanks[rank]).route());
        router.register(own, name + " (point-to-point)", engine, p2p, jobRanks);
        return p2p;
    }

    /**
     * A new communicator's engine, attached and registered: frames of {@code context} reach it from now on.
     *
     * @throws IllegalStateException when the context collides with one open on this rank
     */
    CollectiveEngine engine(int rank, Placement placement, long context, String name, int[] jobRanks) {
        int jobRank = jobRanks[rank];
        CollectiveEngine engine = new CollectiveEngine(rank, placement, config.timeoutNs(),
                "rank " + rank + " of " + name + " (job rank " + jobRank + ")");
        attach(engine, context, jobRanks, jobRank);
        driver.join();
        try {
            router.register(context, name, engine, jobRanks);
        } catch (RuntimeException e) {
            driver.leave();
            engine.close();
            throw e;
        }
        return engine;
    }

    /**
     * A new communicator's algorithm selection: the settings' forced algorithms and tuning, nothing enabled yet, and
     * whether every rank of the job has a processor of its own, judged from the job table every rank holds alike
     * (decision 0196): a sub-communicator keeps the world's verdict, so its ranks agree as the world's do.
     */
    AlgorithmSelector selector() {
        AlgorithmSelector s = AlgorithmSelector.fromEnvironment(config.forcedAlgorithms(), System.getenv(),
                config.deterministic());
        s.everyRankHasAProcessor(table.everyRankHasAProcessor());
        return s;
    }
}
