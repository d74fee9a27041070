package io.railcoll.systemtest;

import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.launcher.testbed.NetnsTestbed;
import io.railcoll.launcher.testbed.TestbedSpec;
import io.railcoll.topology.Placement;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Launches real jobs (one JVM per rank) on a fresh 2-rail network-namespace testbed each, with an action on the
 * testbed at rank 0's cue, and checks that nothing is left behind (namespaces, shared-memory files). Needs root
 * (the tests that use it check {@link NetnsTestbed#available()} first). Used by the rail cluster tests.
 */
final class ClusterJobs {
    private ClusterJobs() {
    }

    /** A finished job on its own testbed, already torn down and checked for leftovers. */
    record Run(JobResult result, String stdout, String stderr) {
        String all() {
            return "--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }

        void assertSucceeded() {
            assertTrue(result.succeeded(), "job failed on rank " + result.failedRank() + ": " + result.failure() + "\n" + all());
        }
    }

    /**
     * Runs {@code app} on a fresh 2-rail testbed with one node per placement node; when rank 0 prints
     * {@code MIDWAY}, {@code midway} is applied to the testbed (on its own thread). Afterwards checks that the
     * testbed's namespaces and the job's shared-memory files are gone.
     */
    static Run run(Placement placement, String rate, Class<?> app, List<String> args, Map<String, String> env,
                           Consumer<NetnsTestbed> midway) {
        return runWatching(placement, rate, app, args, env,
                midway == null ? null : (testbed, stderr) -> midway.accept(testbed));
    }

    /** What the test does to the testbed at rank 0's cue, with the job's stderr so far at hand. */
    interface Midway {
        void act(NetnsTestbed testbed, java.util.function.Supplier<String> stderrSoFar);
    }

    /**
     * Lets a job that waits for its go-file end: creates {@code go}, or records in {@code problem} why it could not.
     * Called in the watcher's {@code finally}, so the job ends whatever the watcher met.
     */
    static void go(Path go, java.util.concurrent.atomic.AtomicReference<String> problem) {
        try {
            Files.createFile(go);
        } catch (IOException e) {
            problem.set("cannot create " + go + ": " + e);
        }
    }

    static Run runWatching(Placement placement, String rate, Class<?> app, List<String> args,
                           Map<String, String> env, Midway midway) {
        return runWatching(placement, rate, app, args, env, midway, Duration.ofMinutes(4));
    }

    /** As above, with the job's deadline (the testbed's action, if any, gets as long to finish after the job). */
    static Run runWatching(Placement placement, String rate, Class<?> app, List<String> args,
                           Map<String, String> env, Midway midway, Duration jobTimeout) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String tag;
        JobResult result;
        Thread[] action = new Thread[1];
        // Before the testbed starts: the first job of a test JVM makes the ranks' class cache (RankStartup).
        JobSpec spec = RankStartup.spec(placement, 2, app, args, env, List.of("-Xmx256m"), jobTimeout);
        try (NamespaceNetwork net = NamespaceNetwork.start(TestbedSpec.of(placement.nodeCount(), 2).withRate(rate))) {
            tag = net.testbed().tag();
            OutputStream watched = midway == null ? out : new LineTrigger(out, "[r0] MIDWAY", () -> {
                action[0] = Thread.ofPlatform().start(
                        () -> midway.act(net.testbed(), () -> err.toString(StandardCharsets.UTF_8)));
            });
            try (PrintStream o = new PrintStream(watched, true, StandardCharsets.UTF_8);
                 PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                result = new JobLauncher(o, e).run(spec, net);
            }
            if (action[0] != null) {
                action[0].join(jobTimeout.toMillis());
            }
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("launching the job failed", e);
        }
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        if (midway != null) {
            assertTrue(action[0] != null, "rank 0 never printed MIDWAY:\n" + stdout + stderr);
        }
        assertEquals(List.of(), namespacesWith(tag), "the testbed's namespaces are gone");
        Matcher job = Pattern.compile("JOB (\\S+)").matcher(stdout);
        if (job.find()) {
            assertEquals(List.of(), shmFilesOf(job.group(1)), "the job's shared-memory files are gone");
        }
        return new Run(result, stdout, stderr);
    }

    private static List<String> namespacesWith(String tag) {
        try {
            Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            return text.lines().filter(l -> l.contains(tag)).toList();
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("cannot list namespaces", e);
        }
    }

    private static List<String> shmFilesOf(String jobId) {
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.contains(jobId)).toList();
        } catch (IOException e) {
            throw new AssertionError("cannot list /dev/shm", e);
        }
    }

    /** Passes bytes through and runs {@code action} once, when a line starting with {@code prefix} goes by. */
    private static final class LineTrigger extends OutputStream {
        private final OutputStream target;
        private final String prefix;
        private final Runnable action;
        private final StringBuilder line = new StringBuilder();
        private boolean fired;

        LineTrigger(OutputStream target, String prefix, Runnable action) {
            this.target = target;
            this.prefix = prefix;
            this.action = action;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            target.write(b);
            if (b == '\n') {
                if (!fired && line.toString().startsWith(prefix)) {
                    fired = true;
                    action.run();
                }
                line.setLength(0);
            } else {
                line.append((char) b);
            }
        }
    }
}
