package io.railcoll;

import io.railcoll.bootstrap.JobIdentity;

import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Real communicators of one job, one per rank, built in this JVM on threads of their own: each rank its own "node",
 * connected by TCP over loopback (one rail), rank 0 serving the rendezvous. For API tests that need several ranks
 * but no process boundaries. Closes every communicator it opened.
 */
final class InProcessRanks implements AutoCloseable {
    private final List<Communicator> comms;
    private final ExecutorService pool;

    private InProcessRanks(List<Communicator> comms, ExecutorService pool) {
        this.comms = comms;
        this.pool = pool;
    }

    static InProcessRanks start(int size, Config config) throws Exception {
        return start(size, r -> config);
    }

    /** As {@link #start(int, Config)}, but every rank on one node: they share a node region in /dev/shm. */
    static InProcessRanks startOnOneNode(int size, Config config) throws Exception {
        oneNode = true;
        try {
            return start(size, r -> config);
        } finally {
            oneNode = false;
        }
    }

    /** Read by {@link #startOnce}: whether the ranks started now share a node. Test threads start one job at a time. */
    private static volatile boolean oneNode;

    /**
     * As {@link #start(int, Config)}, rank r on node {@code nodeOf[r]}: ranks of one node share a node region, the
     * nodes are joined by the rail.
     */
    static InProcessRanks startOnNodes(int[] nodeOf, Config config) throws Exception {
        nodes = nodeOf.clone();
        try {
            return start(nodeOf.length, r -> config);
        } finally {
            nodes = null;
        }
    }

    /** Read by {@link #startOnce}: each rank's node, or null (then {@link #oneNode} decides). */
    private static volatile int[] nodes;

    /** As {@link #start(int, Config)}, each rank with a configuration of its own (to test disagreements). */
    static InProcessRanks start(int size, java.util.function.IntFunction<Config> config) throws Exception {
        // The port is probed, closed and then bound by rank 0: another test's listener can take it in between.
        // Only that race is retried, with a fresh port; every other failure is the test's to report.
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(size, config);
            } catch (ExecutionException e) {
                if (attempt == 5 || !(rootCause(e) instanceof BindException)) {
                    throw e;
                }
            }
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    private static InProcessRanks startOnce(int size, java.util.function.IntFunction<Config> config) throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        InetSocketAddress rendezvous = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        byte[] secret = ("secret-" + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        String jobId = "inproc" + Long.toHexString(System.nanoTime());
        ExecutorService pool = Executors.newCachedThreadPool();
        List<Future<Communicator>> starting = new ArrayList<>();
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (int r = 0; r < size; r++) {
            JobIdentity id = new JobIdentity(r, size, jobId, secret, nodes != null ? "node" + nodes[r] : oneNode ? "node" : "node" + r, List.of(InetAddress.getLoopbackAddress()),
                    rendezvous, true);
            Config own = config.apply(r);
            starting.add(pool.submit(() -> Railcoll.init(id, own, quiet)));
        }
        List<Communicator> comms = new ArrayList<>();
        try {
            for (Future<Communicator> f : starting) {
                comms.add(f.get(60, TimeUnit.SECONDS));
            }
        } catch (Exception e) {
            comms.forEach(InProcessRanks::closeQuietly);
            pool.shutdownNow();
            throw e;
        }
        return new InProcessRanks(comms, pool);
    }

    Communicator rank(int r) {
        return comms.get(r);
    }

    int size() {
        return comms.size();
    }

    /**
     * How long {@link #onEveryRank} waits for the ranks: a hang fails within it. Three minutes, not one: a step that
     * runs thousands of calls on every rank (the allocation tests' rounds) took over a minute in a CI run at load 32
     * (the host's two processors shared with other builds), and failed there for want of time, not of progress.
     */
    private static final long STEP_TIMEOUT_S = 180;

    /** Runs {@code call} on every rank at once (a thread each) and waits for all, rethrowing the first failure. */
    void onEveryRank(RankCall call) throws Exception {
        List<Future<?>> running = new ArrayList<>();
        for (Communicator c : comms) {
            running.add(pool.submit(() -> {
                call.run(c);
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get(STEP_TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    /** Runs {@code call} on one rank, in a pool thread. */
    Future<?> async(int rank, RankCall call) {
        Communicator c = comms.get(rank);
        return pool.submit(() -> {
            call.run(c);
            return null;
        });
    }

    interface RankCall {
        void run(Communicator comm) throws Exception;
    }

    private static void closeQuietly(Communicator c) {
        try {
            c.close();
        } catch (RuntimeException ignored) {
            // a test's own failure says more
        }
    }

    @Override
    public void close() throws IOException {
        // Together: each close says goodbye and waits for its peers' goodbyes.
        try {
            onEveryRank(Communicator::close);
        } catch (Exception e) {
            throw new IOException("closing the ranks failed", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
