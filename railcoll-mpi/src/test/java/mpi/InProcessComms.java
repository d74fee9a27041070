package mpi;

import io.railcoll.Communicator;
import io.railcoll.Config;
import io.railcoll.Railcoll;
import io.railcoll.bootstrap.JobIdentity;

import java.io.OutputStream;
import java.io.PrintStream;
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
import java.util.stream.IntStream;

/**
 * Real ranks in this JVM for the module's tests: one thread each, railcoll's loopback bootstrap, shared memory between
 * them, and the module's {@link Intracomm} bound to each rank's railcoll communicator, as {@code MPI.Init} binds
 * {@code COMM_WORLD} (errors returned). The caller must have run {@code Singleton.init()} (so {@code MPI.check()}
 * passes).
 */
final class InProcessComms {
    private InProcessComms() {
    }

    @FunctionalInterface
    interface RankBody {
        Object run(Intracomm comm, int rank) throws Exception;
    }

    /** Runs {@code body} on each of {@code n} ranks and returns what each returned, in rank order (120 s at most). */
    static List<Object> onRanks(int n, RankBody body) throws Exception {
        return onNodes(new int[] {n}, body);
    }

    /**
     * As {@link #onRanks}, the ranks placed on nodes of {@code nodeSizes} ranks each, in rank order (node-mates share
     * memory, the others talk over loopback TCP, as on several hosts).
     */
    static List<Object> onNodes(int[] nodeSizes, RankBody body) throws Exception {
        int n = java.util.Arrays.stream(nodeSizes).sum();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Communicator> railcoll = start(nodeSizes, pool);
            int[] members = IntStream.range(0, n).toArray();
            List<Future<Object>> ranks = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                ranks.add(pool.submit(() -> {
                    try (Communicator own = railcoll.get(rank)) {
                        Intracomm comm = new Intracomm("inproc", false);
                        comm.bind(new RailcollBackend(own), members);
                        comm.setErrhandler(MPI.ERRORS_RETURN);
                        return body.run(comm, rank);
                    }
                }));
            }
            List<Object> out = new ArrayList<>();
            for (Future<Object> f : ranks) {
                out.add(f.get(120, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Starts {@code n} railcoll communicators. The rendezvous port is probed, closed, then bound by rank 0: another
     * program can take it in between (five builds share this host), so only that race is retried, with a fresh port.
     */
    private static List<Communicator> start(int[] nodeSizes, ExecutorService pool) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(nodeSizes, pool);
            } catch (ExecutionException e) {
                Throwable root = e;
                while (root.getCause() != null && root.getCause() != root) {
                    root = root.getCause();
                }
                if (attempt == 5 || !(root instanceof BindException)) {
                    throw e;
                }
            }
        }
    }

    private static List<Communicator> startOnce(int[] nodeSizes, ExecutorService pool) throws Exception {
        int n = java.util.Arrays.stream(nodeSizes).sum();
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        InetSocketAddress rendezvous = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        byte[] secret = ("secret-" + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        String job = "mpi" + Long.toHexString(System.nanoTime());
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        List<Future<Communicator>> starting = new ArrayList<>();
        for (int r = 0, node = 0, onNode = 0; r < n; r++, onNode++) {
            while (onNode == nodeSizes[node]) {
                node++;
                onNode = 0;
            }
            JobIdentity id = new JobIdentity(r, n, job, secret, "node" + node, List.of(InetAddress.getLoopbackAddress()),
                    rendezvous, true);
            starting.add(pool.submit(() -> Railcoll.init(id, Config.defaults(), quiet)));
        }
        List<Communicator> comms = new ArrayList<>();
        try {
            for (Future<Communicator> f : starting) {
                comms.add(f.get(60, TimeUnit.SECONDS));
            }
        } catch (Exception e) {
            for (Communicator c : comms) {
                c.close();
            }
            throw e;
        }
        return comms;
    }
}
