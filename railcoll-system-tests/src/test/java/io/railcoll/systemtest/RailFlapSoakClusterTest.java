package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Rails that go down and come back, again and again, under a job that keeps running checked collectives of mixed
 * kinds and sizes ({@link RailApps.CheckedMixUntilGo}) on a network-namespace testbed with rate-limited rails
 * ({@link RailFlapper}: one rail of a node at a time, or the same rail of two nodes; given up or not; set up again;
 * back). Every byte is checked; a job that fails, hangs until the collective deadline or leaves a lane down is a
 * fail-over or reconnection bug (none of the flaps ever leaves a pair of ranks without a live rail).
 *
 * <p>The suite runs one short job (3 nodes, the threaded engine with 2 connections per rail, a fixed seed, 4 flaps).
 * {@code -Drailcoll.railFlapSoak=true} runs the long form: 3x1 and 4x1, both engines and the threaded one with two
 * connections per rail, seeds {@code railcoll.railFlapSoak.firstSeed} (1) on for {@code railcoll.railFlapSoak.seeds}
 * (4) per configuration, {@code railcoll.railFlapSoak.flaps} (12) flaps per job; every job's log goes to
 * {@code target/rail-flap-soak/} and one line per job to its {@code summary.txt} (docs/results/rail-flap-soak-1129.md).
 * Needs root.
 */
@Tag("cluster")
class RailFlapSoakClusterTest {
    private static final long RAIL_TIMEOUT_MS = 1000;
    private static final Path LOGS = Path.of("target", "rail-flap-soak");

    @BeforeAll
    static void needsRoot() {
        Testbeds.assumeAvailable("rail flap soak");
    }

    /** One job of the soak: where, which engine, how many connections per rail, which seed, how many flaps. */
    record Job(int nodes, String engine, int connections, long seed, int flaps) {
        String name() {
            return nodes + "x1-" + engine + "-c" + connections + "-seed" + seed;
        }

        @Override
        public String toString() {
            return name() + " (" + flaps + " flaps)";
        }
    }

    @Test
    void railsFlappingUnderMixedCollectivesLoseNoByte() {
        soak(new Job(3, "threaded", 2, 1129, 4));
    }

    static List<Job> longSoak() {
        long first = Long.getLong("railcoll.railFlapSoak.firstSeed", 1);
        int seeds = Integer.getInteger("railcoll.railFlapSoak.seeds", 4);
        int flaps = Integer.getInteger("railcoll.railFlapSoak.flaps", 12);
        List<Job> jobs = new ArrayList<>();
        for (long s = first; s < first + seeds; s++) {
            for (int nodes : new int[] {3, 4}) {
                jobs.add(new Job(nodes, "single", 1, s, flaps));
                jobs.add(new Job(nodes, "threaded", 1, s, flaps));
                jobs.add(new Job(nodes, "threaded", 2, s, flaps));
            }
        }
        return jobs;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("longSoak")
    void longFlapSoak(Job job) {
        assumeTrue(Boolean.getBoolean("railcoll.railFlapSoak"),
                "the long rail-flap soak runs with -Drailcoll.railFlapSoak=true (docs/results/rail-flap-soak-1129.md)");
        soak(job);
    }

    private static void soak(Job job) {
        Path go;
        try {
            go = Files.createTempFile("railcoll-flap", ".go");
            Files.delete(go);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        AtomicReference<RailFlapper> flapper = new AtomicReference<>();
        AtomicReference<String> thrown = new AtomicReference<>();
        Map<String, String> env = Map.of("RAILCOLL_ENGINE", job.engine(),
                "RAILCOLL_CONNECTIONS_PER_RAIL", Integer.toString(job.connections()),
                "RAILCOLL_RAIL_TIMEOUT_MS", Long.toString(RAIL_TIMEOUT_MS), "RAILCOLL_TIMEOUT_MS", "20000");
        long t0 = System.nanoTime();
        Duration jobTimeout = Duration.ofSeconds(90 + 20L * job.flaps());
        ClusterJobs.Run run = ClusterJobs.runWatching(Placement.uniform(job.nodes(), 1), "500mbit",
                RailApps.CheckedMixUntilGo.class, List.of(go.toString(), Long.toString(job.seed()),
                        Long.toString(jobTimeout.toSeconds() - 30)), env, (testbed, stderr) -> {
                    RailFlapper f = new RailFlapper(testbed, stderr, job.seed(), job.nodes(), job.connections(),
                            RAIL_TIMEOUT_MS);
                    flapper.set(f);
                    try {
                        f.flap(job.flaps());
                    } catch (RuntimeException | InterruptedException e) {
                        thrown.set(e.toString());
                    } finally {
                        ClusterJobs.go(go, thrown);
                    }
                }, jobTimeout);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        try {
            Files.deleteIfExists(go);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        RailFlapper f = flapper.get();
        Matcher done = Pattern.compile("MIX-DONE (\\d+)").matcher(run.stdout());
        String calls = done.find() ? done.group(1) : "?";
        long giveUps = run.stderr().lines().filter(l -> l.contains(" failed: ")).count();
        long backs = run.stderr().lines().filter(l -> l.contains(" is back")).count();
        String verdict = !run.result().succeeded() ? "JOB FAILED (rank " + run.result().failedRank() + ")"
                : f == null || f.problem() != null || thrown.get() != null ? "FLAPPER PROBLEM" : "ok";
        String summary = String.format("%-28s %-26s flaps %2d/%2d calls %5s give-ups %3d backs %3d %6d ms",
                job.name(), verdict, f == null ? 0 : f.flapsDone(), job.flaps(), calls, giveUps, backs, ms);
        System.out.println("SOAK " + summary);
        record(job, summary, run, f, thrown.get());
        assertEquals(null, thrown.get(), run.all());
        assertEquals(null, f == null ? "never started" : f.problem(), f == null ? run.all() : f.timeline() + run.all());
        run.assertSucceeded();
        assertTrue(run.stdout().contains("MIX-DONE"), run.all());
    }

    private static void record(Job job, String summary, ClusterJobs.Run run, RailFlapper f, String thrown) {
        try {
            Files.createDirectories(LOGS);
            Files.writeString(LOGS.resolve("summary.txt"), summary + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            String log = summary + "\n" + (run.result().succeeded() ? "" : "failure: " + run.result().failure() + "\n")
                    + (thrown == null ? "" : "flapper threw: " + thrown + "\n")
                    + "--- flaps ---\n" + (f == null ? "(none)\n" : f.timeline()) + run.all();
            Files.writeString(LOGS.resolve(job.name() + ".log"), log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot write the soak's log", e);
        }
    }
}
