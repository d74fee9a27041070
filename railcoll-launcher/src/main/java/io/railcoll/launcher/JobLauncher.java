package io.railcoll.launcher;

import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.RendezvousServer;
import io.railcoll.memory.NodeCpus;
import io.railcoll.topology.Placement;
import io.railcoll.transport.shm.NodeRegion;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs one job: one JVM per rank, placed on the nodes of a {@link NodeNetwork}. Forwards every rank's output with
 * a {@code [rN]} prefix (all of it, but the JVM's incubator-module line of a rank started with the Vector API's module,
 * {@link VectorApiModule}); the first rank that fails brings the job down (the others are killed) and the job's
 * result names it and its reason. Nothing is left running: ranks are killed on failure, on time-out and when the
 * launcher itself is stopped (a shutdown hook).
 *
 * <p>Thread-safety: one job per instance, run by one thread.
 */
public final class JobLauncher {
    private static final String RANK_MAIN = RankMain.class.getName();
    /** How soon after a reported failure a rank that died without a word is taken for its cause. */
    private static final long CAUSE_WINDOW_MS = 2_000;
    /** How long the other ranks may take to fail on their own after the first failure, before they are killed. */
    static final long FAILURE_GRACE_MS = 5_000;

    private final PrintStream out;
    private final PrintStream err;

    public JobLauncher(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs the job on {@code network} (which the caller owns and closes) and waits for it to end. */
    public JobResult run(JobSpec spec, NodeNetwork network) throws IOException, InterruptedException {
        Placement placement = spec.placement();
        int size = placement.size();
        // A job id given in the environment is kept (a test that must know it up front, e.g. for a multicast route).
        String given = spec.environment().get("RAILCOLL_JOB_ID");
        String jobId = given != null && !given.isBlank() ? given.strip() : "j" + UUID.randomUUID().toString().substring(0, 8);
        String secret = Handshake.newSecret();
        Handshake handshake = new Handshake(jobId, secret.getBytes(StandardCharsets.UTF_8));

        RendezvousServer server = null;
        InetSocketAddress rendezvous = network.rankServedRendezvous();
        if (rendezvous == null) {
            server = RendezvousServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), size, handshake,
                    TimeUnit.MINUTES.toNanos(5), err);
            rendezvous = server.address();
        }
        CpuBinding binding = CpuBinding.forJob(spec.environment(), size);
        List<Process> processes = new ArrayList<>();
        Thread killer = Thread.ofPlatform().unstarted(() -> destroyAll(processes));
        Runtime.getRuntime().addShutdownHook(killer);
        try {
            FailureLatch latch = new FailureLatch(size);
            boolean vectorModule = VectorApiModule.requested(spec.jvmOptions());
            for (int r = 0; r < size; r++) {
                Process p = start(spec, network, binding, r, jobId, secret, rendezvous, server == null);
                processes.add(p);
                pump(p.getInputStream(), out, r, null, null);
                pump(p.getErrorStream(), err, r, latch, new VectorApiModule.StderrFilter(vectorModule));
            }
            return await(spec, processes, latch);
        } finally {
            destroyAll(processes);
            // A node's first rank unlinks its shared-memory file once every node-mate attached; a job killed
            // before that leaves the file, and this removes it (only files whose creator is gone).
            NodeRegion.removeStale(jobId);
            if (server != null) {
                server.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(killer);
            } catch (IllegalStateException ignored) {
                // already shutting down: the hook is running
            }
        }
    }

    private Process start(JobSpec spec, NodeNetwork network, CpuBinding binding, int rank, String jobId, String secret,
                          InetSocketAddress rendezvous, boolean rankServes) throws IOException {
        Placement placement = spec.placement();
        int node = placement.nodeOf(rank);
        List<String> cmd = new ArrayList<>(network.commandPrefix(node));
        cmd.addAll(binding.commandPrefix(rank));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-Xss1m");
        cmd.add("-XX:+PerfDisableSharedMem");
        cmd.addAll(spec.jvmOptions());
        cmd.add("-cp");
        cmd.add(spec.classPath().rankClassPath());
        cmd.add(RANK_MAIN);
        cmd.add(spec.appClass());
        cmd.addAll(spec.appArgs());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.putAll(spec.environment());
        binding.addEnvironment(env);
        // Every rank of the job runs on this machine, whatever node it emulates: they share its processors.
        env.put(NodeCpus.HOST_RANKS_VARIABLE, Integer.toString(placement.size()));
        env.put("RAILCOLL_RANK", Integer.toString(rank));
        env.put("RAILCOLL_SIZE", Integer.toString(placement.size()));
        env.put("RAILCOLL_LOCAL_RANK", Integer.toString(placement.localRankOf(rank)));
        env.put("RAILCOLL_NODE", "node" + node);
        env.put("RAILCOLL_JOB_ID", jobId);
        env.put("RAILCOLL_SECRET", secret);
        // This launcher's variables are the bootstrap: a secret file or forced source in the user's shell must not
        // compete with them (a secret given twice is refused).
        env.remove("RAILCOLL_SECRET_FILE");
        env.remove("RAILCOLL_BOOTSTRAP");
        env.put("RAILCOLL_RENDEZVOUS", rendezvous.getAddress().getHostAddress() + ":" + rendezvous.getPort());
        if (rankServes) {
            env.put("RAILCOLL_RENDEZVOUS_SERVER", "rank0");
        }
        // The node's rail addresses, unless the job chose its rails itself (RAILCOLL_RAILS=auto, an interface name or
        // a CIDR block: on the namespace testbed each node resolves it among its own interfaces).
        String chosen = spec.environment().get("RAILCOLL_RAILS");
        if (chosen == null || chosen.isBlank()) {
            List<String> rails = new ArrayList<>();
            for (int r = 0; r < spec.rails(); r++) {
                rails.add(network.railAddress(node, r).getHostAddress());
            }
            env.put("RAILCOLL_RAILS", String.join(",", rails));
        }
        return pb.start();
    }

    /**
     * Waits for every rank. After the first failure the others get {@link #FAILURE_GRACE_MS} to fail on their own
     * (so each prints its own named error) before they are killed; the first failure is the job's result.
     */
    private JobResult await(JobSpec spec, List<Process> processes, FailureLatch latch) throws InterruptedException {
        long deadline = System.nanoTime() + spec.jobTimeout().toNanos();
        // Ranks are taken in the order they died (the JDK's reaper sees each exit as it happens), so the job's
        // failure is the rank that died first, not the lowest-numbered of those that noticed it.
        BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
        for (int r = 0; r < processes.size(); r++) {
            int rank = r;
            processes.get(r).onExit().thenRun(() -> exits.add(rank));
        }
        int remaining = processes.size();
        JobResult first = null;
        long firstAt = 0;
        long killAt = Long.MAX_VALUE;
        while (remaining > 0) {
            long wakeAt = Math.min(deadline, killAt);
            Integer r = exits.poll(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wakeAt - System.nanoTime())), TimeUnit.MILLISECONDS);
            if (r != null) {
                remaining--;
                int code = processes.get(r).exitValue();
                if (code != 0 && code != 1) {
                    // Status 1 is a rank that reported its failure itself; anything else died without a word.
                    synchronized (err) {
                        err.println("railcoll: rank " + r + " exited with status " + code
                                + (code > 128 ? " (killed by signal " + (code - 128) + ")" : ""));
                    }
                }
                boolean diedWithoutAWord = code != 0 && code != 1;
                // A rank that reported its failure (status 1) may have noticed a peer's death before the launcher
                // saw that peer exit (a killed process closes its sockets before its parent hears of it): a rank
                // that died without a word shortly after is the cause, and becomes the job's failure instead.
                boolean supersedes = first != null && first.exitCode() == 1 && diedWithoutAWord
                        && System.nanoTime() - firstAt < TimeUnit.MILLISECONDS.toNanos(CAUSE_WINDOW_MS);
                if (code != 0 && (first == null || supersedes)) {
                    // Give the rank's stderr pump a moment to deliver its FAILED line.
                    latch.awaitReason(r, 500);
                    String reason = latch.reason(r);
                    first = new JobResult(code, r, reason == null ? "exited with status " + code
                            + (code > 128 ? " (killed by signal " + (code - 128) + ")" : "") : reason);
                    if (!supersedes) {
                        firstAt = System.nanoTime();
                        killAt = firstAt + TimeUnit.MILLISECONDS.toNanos(FAILURE_GRACE_MS);
                    }
                }
            }
            if (System.nanoTime() - killAt > 0) {
                destroyAll(processes);
                return first;
            }
            if (System.nanoTime() - deadline > 0) {
                destroyAll(processes);
                return first != null ? first : new JobResult(124, -1, "job timed out after " + spec.jobTimeout().toSeconds() + " s");
            }
        }
        return first != null ? first : JobResult.success();
    }

    private static void destroyAll(List<Process> processes) {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Forwards {@code in} line by line to {@code sink} with the rank's prefix; {@code filter}, on standard error, drops the
     * JVM's incubator-module line of a rank started with the Vector API's module ({@link VectorApiModule}).
     */
    private static void pump(InputStream in, PrintStream sink, int rank, FailureLatch latch,
                             VectorApiModule.StderrFilter filter) {
        String prefix = "[r" + rank + "] ";
        Thread.ofPlatform().daemon().name("railcoll-out-" + rank).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (filter != null && filter.drops(line)) {
                        continue;
                    }
                    synchronized (sink) {
                        sink.println(prefix + line);
                    }
                    if (latch != null && line.startsWith("FAILED: ")) {
                        latch.record(rank, line.substring("FAILED: ".length()));
                    }
                }
            } catch (IOException ignored) {
                // the rank is gone; its exit status tells the rest
            }
        });
    }

    /** The first failure line each rank printed, handed from pump threads to the waiting thread. */
    private static final class FailureLatch {
        private final Map<Integer, String> reasons = new HashMap<>();

        FailureLatch(int size) {
        }

        synchronized void record(int rank, String reason) {
            reasons.putIfAbsent(rank, reason);
            notifyAll();
        }

        synchronized void awaitReason(int rank, long maxMs) throws InterruptedException {
            long end = System.currentTimeMillis() + maxMs;
            while (!reasons.containsKey(rank) && System.currentTimeMillis() < end) {
                wait(Math.max(1, end - System.currentTimeMillis()));
            }
        }

        synchronized String reason(int rank) {
            return reasons.get(rank);
        }
    }
}
