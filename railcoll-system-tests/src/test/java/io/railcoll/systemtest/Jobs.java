package io.railcoll.systemtest;

import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.LoopbackNetwork;
import io.railcoll.topology.Placement;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Launches real jobs (one JVM per rank) on the loopback emulated cluster and captures their output. The ranks start
 * with {@link RankStartup}'s class path and class cache.
 */
final class Jobs {
    private Jobs() {
    }

    record Outcome(JobResult result, String stdout, String stderr, long elapsedMs) {
        String all() {
            return stdout + stderr;
        }

        /**
         * Whether {@code rank} failed naming {@code lost}: it lost that rank itself, or a rank that lost it aborted
         * the job saying so (whichever news reached it first).
         */
        boolean namesLostRank(int rank, int lost) {
            return java.util.regex.Pattern.compile("\\[r" + rank + "] FAILED: io\\.railcoll\\.(PeerLostException: rank " + rank
                    + ": lost rank " + lost + "\\b|CollectiveAbortedException: rank " + rank + ": rank \\d+ aborted.*: lost rank "
                    + lost + "\\b)").matcher(stderr).find();
        }

        Outcome assertSucceeded() {
            if (!result.succeeded()) {
                throw new AssertionError("job failed on rank " + result.failedRank() + ": " + result.failure()
                        + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr);
            }
            return this;
        }
    }

    /**
     * The rank JVM options of a job that ends within seconds, after a call or two, as a failure test's does: only the
     * client compiler (C1). Such a job ends before C2's code pays for compiling it: on this 2-core host C1 alone takes
     * a third less processor time per rank (decision 0100). Not for jobs that check results of many cases: their hot loops
     * run long enough for C2, and C2's code is what users run.
     */
    static final List<String> SHORT_JOB = List.of("-Xmx192m", "-XX:TieredStopAtLevel=1");

    /** The rank JVM options of every other job. */
    static final List<String> DEFAULT_JVM = List.of("-Xmx192m");
    /** A job's deadline; a job that runs several jobs' checks in turn gets one such deadline per part. */
    static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);

    static Outcome run(Placement placement, int rails, Class<?> app, List<String> args, Map<String, String> env) {
        return run(placement, rails, app, args, env, DEFAULT_JVM, JOB_TIMEOUT);
    }

    static Outcome run(Placement placement, int rails, Class<?> app, List<String> args, Map<String, String> env,
                       List<String> jvmOptions) {
        return run(placement, rails, app, args, env, jvmOptions, JOB_TIMEOUT);
    }

    static Outcome run(Placement placement, int rails, Class<?> app, List<String> args, Map<String, String> env,
                       List<String> jvmOptions, Duration jobTimeout) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        JobSpec spec = RankStartup.spec(placement, rails, app, args, env, jvmOptions, jobTimeout);
        long t0 = System.nanoTime();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
             LoopbackNetwork net = new LoopbackNetwork(placement.nodeCount(), rails)) {
            JobResult r = new JobLauncher(o, e).run(spec, net);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            return new Outcome(r, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), ms);
        } catch (Exception e) {
            throw new AssertionError("launching the job failed", e);
        }
    }
}
