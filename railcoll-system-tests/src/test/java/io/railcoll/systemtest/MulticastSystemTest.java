package io.railcoll.systemtest;

import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.launcher.testbed.Availability;
import io.railcoll.launcher.testbed.TestbedSpec;
import io.railcoll.topology.Placement;
import io.railcoll.transport.mcast.MulticastGroup;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code broadcast.multicast} through the public API ({@code Communicator.broadcast}) in real jobs. Each job checks
 * every size 0 B..4 MiB from several roots on every buffer kind, interleaved with all-gathers and barriers
 * ({@link MulticastApps.Check}). On plain loopback (no multicast route through lo) the group fails over to the
 * tree and says so once per rank; with a route for the job's group through lo (root only) it runs by multicast. On
 * the namespace testbed (root, tag {@code cluster}) it runs through injected loss, corruption, duplication and
 * reordering, and with multicast blocked (fail-over); a member killed mid-stream (loopback) and a root killed
 * mid-stream (testbed) are named by the others within the deadline.
 */
class MulticastSystemTest {
    private static final String FAULTS = "loss=5%,corrupt=1%,duplicate=1%,reorder=5%,seed=7";
    private static final String FAILOVER_LINE = "fails over to the point-to-point 4-nomial tree";

    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>(Map.of("RAILCOLL_MCAST", "auto", "RAILCOLL_TIMEOUT_MS", "20000"));
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static void assertChecked(Jobs.Outcome o, int ranks) {
        o.assertSucceeded();
        for (int r = 0; r < ranks; r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] MCAST-OK rank " + r + " broadcasts \\d+").matcher(o.stdout()).find(),
                    "rank " + r + " did not finish its checks:\n" + o.all());
        }
    }

    @Test
    void withoutAMulticastRouteThroughLoEveryBroadcastArrivesByTheFailOverTreeAndEachRankSaysSo() {
        Placement p = Placement.ofCounts(3, 4, 2);
        String jobId = "jmc" + UUID.randomUUID().toString().substring(0, 6);
        InetAddress group = MulticastGroup.derive(jobId, 0, new int[] {0}, 0, InetAddress.getLoopbackAddress()).groupAddress();
        assumeTrue(!routedThroughLo(group), "this host routes multicast through lo, so nothing would fail over");
        Jobs.Outcome o = Jobs.run(p, 1, MulticastApps.Check.class, List.of(), env("RAILCOLL_JOB_ID", jobId));
        assertChecked(o, p.size());
        for (int r = 0; r < p.size(); r++) {
            String prefix = "[r" + r + "]";
            long lines = o.stderr().lines().filter(l -> l.startsWith(prefix) && l.contains(FAILOVER_LINE)).count();
            assertTrue(lines >= 1, "rank " + r + " did not say it fails over:\n" + o.stderr());
        }
        assertTrue(o.stderr().contains("so multicast is unavailable"), o.stderr());
    }

    @Test
    void withARouteThroughLoTheBroadcastsGoByMulticast() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!root) {
            System.out.println("multicast-over-lo system test skipped: adding a route for the job's group needs root");
        }
        assumeTrue(root, "not root");
        Placement p = Placement.ofCounts(3, 4, 2);
        String jobId = "jmc" + UUID.randomUUID().toString().substring(0, 6);
        InetAddress group = MulticastGroup.derive(jobId, 0, new int[] {0}, 0, InetAddress.getLoopbackAddress()).groupAddress();
        ip("route", "add", group.getHostAddress() + "/32", "dev", "lo");
        try {
            Jobs.Outcome o = Jobs.run(p, 2, MulticastApps.Check.class, List.of("1", "2"),
                    env("RAILCOLL_JOB_ID", jobId, "RAILCOLL_MCAST", "on", "RAILCOLL_MCAST_FAULTS", FAULTS));
            assertChecked(o, p.size());
            assertFalse(o.stderr().contains(FAILOVER_LINE), "multicast was routed, yet a rank failed over:\n" + o.stderr());
        } finally {
            ip("route", "del", group.getHostAddress() + "/32", "dev", "lo");
        }
    }

    /**
     * Non-blocking multicasts in flight with an all-gather (itself a multicast every other round) and a barrier,
     * completed out of order (decision 0146), over multicast routed through lo: 3,4,2 on two rails and 5x1 on one.
     */
    @Test
    void nonBlockingMulticastsInFlightWithOtherCollectivesArriveByteForByte() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!root) {
            System.out.println("multicast-in-flight system test skipped: adding a route for the job's group needs root");
        }
        assumeTrue(root, "not root");
        for (Placement p : List.of(Placement.ofCounts(3, 4, 2), Placement.uniform(5, 1))) {
            String jobId = "jmi" + UUID.randomUUID().toString().substring(0, 6);
            InetAddress group = MulticastGroup.derive(jobId, 0, new int[] {0}, 0, InetAddress.getLoopbackAddress())
                    .groupAddress();
            ip("route", "add", group.getHostAddress() + "/32", "dev", "lo");
            try {
                int rails = p.nodeCount() == 3 ? 2 : 1;
                Jobs.Outcome o = Jobs.run(p, rails, MulticastApps.InFlight.class, List.of(p.size() > 5 ? "3" : "2"),
                        env("RAILCOLL_JOB_ID", jobId, "RAILCOLL_MCAST", "on", "RAILCOLL_MCAST_FAULTS", FAULTS));
                o.assertSucceeded();
                for (int r = 0; r < p.size(); r++) {
                    assertTrue(o.stdout().contains("[r" + r + "] MCAST-INFLIGHT-OK rank " + r + " rounds"),
                            p.describe() + ": rank " + r + " did not finish its checks:\n" + o.all());
                }
                assertFalse(o.stderr().contains(FAILOVER_LINE), "multicast was routed, yet a rank failed over:\n"
                        + o.stderr());
            } finally {
                ip("route", "del", group.getHostAddress() + "/32", "dev", "lo");
            }
        }
    }

    @Test
    void aMemberKilledMidStreamMakesTheOthersFailNamingIt() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(4, 1), 1, MulticastApps.DieMidway.class, List.of("2", "60"),
                env("RAILCOLL_TIMEOUT_MS", "8000"));
        assertFalse(o.result().succeeded());
        assertEquals(2, o.result().failedRank(), o.all());
        for (int r : new int[] {0, 1, 3}) {
            // Lost by itself or told by a rank that lost it, whichever news came first: either names rank 2.
            assertTrue(o.namesLostRank(r, 2), "rank " + r + " did not name the lost rank:\n" + o.stderr());
        }
        assertTrue(o.elapsedMs() < 40_000, "took " + o.elapsedMs() + " ms");
    }

    // ---- the namespace testbed (root) ----

    @Test
    @Tag("cluster")
    void onTheTestbedThroughInjectedFaultsEveryBroadcastArrivesByteForByte() {
        Availability a = testbed();
        // The threaded rail engine here (the other jobs use the single-threaded one): the hook runs on the owner
        // while rail threads move the all-gathers' data.
        Jobs.Outcome o = onTestbed(TestbedSpec.of(3, 2), Placement.ofCounts(3, 4, 2), env("RAILCOLL_MCAST_FAULTS", FAULTS,
                "RAILCOLL_ENGINE", "threaded"));
        assertChecked(o, 9);
        assertFalse(o.stderr().contains(FAILOVER_LINE), "the testbed routes multicast, yet a rank failed over:\n" + o.stderr());
    }

    @Test
    @Tag("cluster")
    void onTheTestbedWithMulticastBlockedTheFailOverTreeDeliversEverything() {
        testbed();
        // 16 ranks: two roots (0 and a rank that is not its node's lowest) keep it short on two cores.
        Jobs.Outcome o = onTestbed(TestbedSpec.of(4, 1).withMulticastRail(null), Placement.uniform(4, 4), env(),
                List.of("1", "2"));
        assertChecked(o, 16);
        assertTrue(o.stderr().contains(FAILOVER_LINE) && o.stderr().contains("no route for multicast group"), o.stderr());
    }

    @Test
    @Tag("cluster")
    void onTheTestbedARootKilledMidStreamMakesTheOthersFailNamingIt() {
        testbed();
        // Broadcast #62 has root 62 % 4 = 2: rank 2 dies instead of sending it, the others wait for its datagrams.
        Jobs.Outcome o = onTestbed(TestbedSpec.of(4, 1), Placement.uniform(4, 1), env("RAILCOLL_TIMEOUT_MS", "8000",
                "RAILCOLL_MCAST_FAULTS", FAULTS), MulticastApps.DieMidway.class, List.of("2", "62"));
        assertFalse(o.result().succeeded());
        assertEquals(2, o.result().failedRank(), o.all());
        for (int r : new int[] {0, 1, 3}) {
            // Lost by itself or told by a rank that lost it, whichever news came first: either names rank 2.
            assertTrue(o.namesLostRank(r, 2), "rank " + r + " did not name the lost root:\n" + o.stderr());
        }
        assertTrue(o.elapsedMs() < 40_000, "took " + o.elapsedMs() + " ms");
    }

    private static Availability testbed() {
        return Testbeds.assumeAvailable("multicast cluster system tests");
    }

    private static Jobs.Outcome onTestbed(TestbedSpec spec, Placement placement, Map<String, String> env) {
        return onTestbed(spec, placement, env, List.of());
    }

    private static Jobs.Outcome onTestbed(TestbedSpec spec, Placement placement, Map<String, String> env,
                                          List<String> args) {
        return onTestbed(spec, placement, env, MulticastApps.Check.class, args);
    }

    private static Jobs.Outcome onTestbed(TestbedSpec spec, Placement placement, Map<String, String> env,
                                          Class<?> app, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // Before the clock starts: the first job of a test JVM makes the ranks' class cache (RankStartup).
        JobSpec job = RankStartup.spec(placement, spec.rails(), app, args, env, Jobs.DEFAULT_JVM, Duration.ofMinutes(4));
        long t0 = System.nanoTime();
        try (NamespaceNetwork net = NamespaceNetwork.start(spec);
             PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            JobResult r = new JobLauncher(o, e).run(job, net);
            return new Jobs.Outcome(r, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                    (System.nanoTime() - t0) / 1_000_000);
        } catch (IOException | InterruptedException ex) {
            throw new AssertionError("launching the job failed", ex);
        }
    }

    private static boolean routedThroughLo(InetAddress group) {
        try {
            Process p = new ProcessBuilder("ip", "route", "get", group.getHostAddress()).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            return text.contains("dev lo");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static void ip(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + text);
        }
    }
}
