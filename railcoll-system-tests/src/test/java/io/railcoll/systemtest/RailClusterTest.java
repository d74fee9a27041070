package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rails on the real emulated cluster: a 4-node x 2-rail network-namespace testbed with rate-limited rails.
 * Collectives arrive byte for byte with both engines; a rail taken down in the middle of a transfer (its interface
 * set down, which no TCP connection notices by itself) is detected, its data re-sent on the other rail, and the
 * user warned naming the rail; taking every rail of a node down fails the call at its deadline; and nothing
 * is left behind (namespaces, bridges, shared-memory files). Needs root; skipped with a message otherwise.
 */
@Tag("cluster")
class RailClusterTest {
    private static final Map<String, String> FAST_FAILOVER = Map.of("RAILCOLL_RAIL_TIMEOUT_MS", "1500",
            "RAILCOLL_TIMEOUT_MS", "30000");

    @BeforeAll
    static void needsRoot() {
        Testbeds.assumeAvailable("rail cluster tests");
    }

    @ParameterizedTest(name = "{0} engine, {1} connection(s) per rail")
    @CsvSource({"single,1", "threaded,1", "threaded,2"})
    void collectivesArriveByteForByte(String engine, int connections) {
        ClusterJobs.Run run = ClusterJobs.run(Placement.uniform(4, 2), "1gbit", RailApps.CheckWithJobId.class,
                List.of("sizes=0,1,1025,65537,1000000"),
                Map.of("RAILCOLL_ENGINE", engine, "RAILCOLL_CONNECTIONS_PER_RAIL", Integer.toString(connections)), null);
        run.assertSucceeded();
        assertTrue(run.stdout().contains("CHECKED"), run.all());
        assertFalse(run.stdout().contains("configured but carried nothing"), "every rail must carry traffic:\n" + run.stdout());
        assertFalse(run.stderr().contains("WARNING"), "no rail may fail on a healthy testbed:\n" + run.stderr());
    }

    @ParameterizedTest(name = "{0} engine, {1} connection(s) per rail")
    @CsvSource({"single,1", "threaded,1", "threaded,2"})
    void oneRailDownMidTransferStillDeliversEveryByte(String engine, int connections) {
        Map<String, String> env = new java.util.HashMap<>(env(engine));
        env.put("RAILCOLL_CONNECTIONS_PER_RAIL", Integer.toString(connections));
        ClusterJobs.Run run = ClusterJobs.run(Placement.uniform(4, 1), "200mbit", RailApps.Transfer.class, List.of("25", "1048576"),
                env, testbed -> testbed.setRailDown(1, 1));
        run.assertSucceeded();
        assertTrue(run.stdout().contains("TRANSFERRED 25"), run.all());
        // Node 1 (rank 1) lost rail 1 to everyone; the others lost rail 1 to rank 1 only. Both sides are told.
        assertTrue(run.stderr().contains("railcoll WARNING: rank 1: rail 1 "), run.stderr());
        assertTrue(Pattern.compile("railcoll WARNING: rank [023]: rail 1 (\\(connection \\d\\) )?to rank 1 failed")
                .matcher(run.stderr()).find(), run.stderr());
        assertTrue(run.stdout().contains("failed: rail 1 to rank"), "the failure is queryable (RailCounters):\n" + run.stdout());
    }

    /**
     * Every rail of node 1 down: to its peers rank 1 is silent on every rail, which a stopped process is too, so no
     * rail gives it up (decision 0040); every rank's call fails at the collective deadline, naming the silent ranks.
     */
    @ParameterizedTest(name = "{0} engine")
    @ValueSource(strings = {"single", "threaded"})
    void everyRailDownFailsAtTheDeadlineNamingTheSilentRank(String engine) {
        Map<String, String> env = new java.util.HashMap<>(env(engine));
        env.put("RAILCOLL_TIMEOUT_MS", "10000");
        ClusterJobs.Run run = ClusterJobs.run(Placement.uniform(4, 1), "200mbit", RailApps.Transfer.class, List.of("25", "1048576"),
                env, testbed -> {
                    testbed.setRailDown(1, 0);
                    testbed.setRailDown(1, 1);
                });
        assertFalse(run.result().succeeded(), run.all());
        assertTrue(run.stderr().contains("FAILED: io.railcoll.CollectiveTimeoutException"), run.stderr());
        assertTrue(run.stderr().contains("rank 1 (nothing on any rail for "), run.stderr());
    }

    /**
     * Issue 26: a rail that comes back is reconnected and used again. Node 1's rail-1 interface is set down in the
     * middle of a run of checked all-gathers (3 nodes, so rank 1 both dials, to rank 0, and is dialled, by rank 2);
     * once every side has given the lanes up it is set up again, and the ranks reconnect them: each side of each
     * pair logs the rail as back, and the all-gathers that follow put about half their bytes on rail 1 again
     * (rail counters per rank), every byte checked, nothing hanging.
     */
    @ParameterizedTest(name = "{0} engine")
    @ValueSource(strings = {"single", "threaded"})
    void aRailThatComesBackIsReconnectedAndCarriesTrafficAgain(String engine) throws IOException {
        Path go = Files.createTempFile("railcoll-rail-back", ".go");
        Files.delete(go);
        java.util.concurrent.atomic.AtomicReference<String> problem = new java.util.concurrent.atomic.AtomicReference<>();
        List<String> failed = List.of("rank 1: rail 1 to rank 0 failed", "rank 1: rail 1 to rank 2 failed",
                "rank 0: rail 1 to rank 1 failed", "rank 2: rail 1 to rank 1 failed");
        List<String> back = List.of("rank 1: rail 1 to rank 0 is back", "rank 0: rail 1 to rank 1 is back",
                "rank 1: rail 1 to rank 2 is back", "rank 2: rail 1 to rank 1 is back");
        ClusterJobs.Run run = ClusterJobs.runWatching(Placement.uniform(3, 1), "200mbit", RailApps.UntilRailBack.class,
                List.of(go.toString(), "262144", "10", "150"), env(engine), (testbed, stderr) -> {
                    try {
                        testbed.setRailDown(1, 1);
                        awaitLines(stderr, failed, "given up");
                        Thread.sleep(1000); // a few attempts to reconnect fail meanwhile
                        testbed.setRailUp(1, 1);
                        awaitLines(stderr, back, "back");
                    } catch (AssertionError | InterruptedException e) {
                        problem.set(e.toString());
                    } finally {
                        ClusterJobs.go(go, problem);
                    }
                });
        Files.deleteIfExists(go);
        // For the record (surefire's report): what went down, what came back, and the rails' share afterwards.
        run.stderr().lines().filter(l -> l.contains(" failed: ") || l.contains(" is back")).forEach(System.out::println);
        run.stdout().lines().filter(l -> l.contains("AFTER ")).forEach(System.out::println);
        assertEquals(null, problem.get(), run.all());
        run.assertSucceeded();
        for (int r = 0; r < 3; r++) {
            Matcher m = Pattern.compile("AFTER " + r + " (\\d+) (\\d+)").matcher(run.stdout());
            assertTrue(m.find(), run.all());
            long rail0 = Long.parseLong(m.group(1));
            long rail1 = Long.parseLong(m.group(2));
            assertTrue(rail1 > 0 && rail1 * 3 >= rail0, "rank " + r + " must send on rail 1 again (about half its"
                    + " bytes): rail 0 " + rail0 + ", rail 1 " + rail1 + "\n" + run.all());
        }
        assertTrue(run.stdout().contains("back: rail 1 to rank"), "the recovery is queryable (RailCounters):\n" + run.stdout());
    }

    /** Waits (up to 60 s) until every one of {@code lines} appeared in the job's stderr so far. */
    private static void awaitLines(java.util.function.Supplier<String> stderr, List<String> lines, String what)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() - end < 0) {
            String text = stderr.get();
            if (lines.stream().allMatch(text::contains)) {
                return;
            }
            Thread.sleep(100);
        }
        String text = stderr.get();
        throw new AssertionError("not every lane was " + what + " within 60 s; missing: "
                + lines.stream().filter(l -> !text.contains(l)).toList());
    }

    private static Map<String, String> env(String engine) {
        return Stream.concat(FAST_FAILOVER.entrySet().stream(), Map.of("RAILCOLL_ENGINE", engine).entrySet().stream())
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
