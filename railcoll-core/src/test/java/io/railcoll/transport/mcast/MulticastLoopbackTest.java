package io.railcoll.transport.mcast;

import io.railcoll.transport.mcast.MulticastCounters.Counter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real UDP multicast sockets on loopback, several members in this JVM. Multicast needs a route for the group
 * through {@code lo}: if there is none, this test adds one for just its group ({@code ip route add G/32 dev lo},
 * root only) and removes it afterwards; without root it is skipped with a message. The fail-over case uses a
 * group that has no route, as plain loopback normally has.
 */
class MulticastLoopbackTest {
    private static final int COMM = 1;
    private static final int COMM_UNROUTED = 2;
    private static InetAddress added;

    @BeforeAll
    static void route() throws Exception {
        InetAddress g = LoopbackMembers.groupAddress(COMM);
        Optional<String> dev = MulticastRoutes.deviceFor(g);
        if (dev != null && !dev.equals(Optional.of("lo"))) {
            boolean root = "root".equals(System.getProperty("user.name"));
            if (!root) {
                System.out.println("multicast loopback tests skipped: no route for " + g.getHostAddress()
                        + " through lo and not root (run as root, or: ip route add 224.0.0.0/4 dev lo)");
            }
            assumeTrue(root, "no multicast route through lo and not root");
            ip("route", "add", g.getHostAddress() + "/32", "dev", "lo");
            added = g;
        }
    }

    @AfterAll
    static void unroute() throws Exception {
        if (added != null) {
            ip("route", "del", added.getHostAddress() + "/32", "dev", "lo");
        }
    }

    private static void ip(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed: " + out);
        }
    }

    private static final int[] SIZES = {0, 1, 8, 1399, 1400, 1401, 65536, 65537, 8, 1 << 20, 0, 4 << 20, 16, 300_000, 7};

    @Test
    void broadcastsUpTo4MiBArriveByteForByteThroughInjectedFaults() throws Exception {
        int[] ranks = {0, 1, 2, 3};
        MulticastSettings s = MulticastSettings.defaults()
                .withFaults(FaultPlan.parse("loss=5%,corrupt=1%,duplicate=1%,reorder=5%,seed=42"));
        List<String> log = new ArrayList<>();
        Map<Integer, LoopbackMembers.Result> results = LoopbackMembers.run(ranks, COMM, s, Sim.script(ranks, SIZES, 1), log, 60_000);
        long retransmissions = 0;
        long checksumFailures = 0;
        for (int r : ranks) {
            LoopbackMembers.Result res = results.get(r);
            assertNull(res.failure(), () -> "rank " + r + ": " + stack(res.failure()));
            assertEquals(SIZES.length, res.delivered().size());
            assertTrue(!res.failedOver(), "failed over: " + log);
            retransmissions += res.counters().get(Counter.RETRANSMISSIONS);
            checksumFailures += res.counters().get(Counter.CHECKSUM_FAILURES);
            // Each member received every broadcast it did not root exactly once.
            long rooted = Sim.script(ranks, SIZES, 1).stream().filter(x -> x.rootRank() == r).count();
            assertEquals(SIZES.length - rooted, res.counters().get(Counter.BROADCASTS_DELIVERED));
        }
        assertTrue(retransmissions > 0, "5% loss but nothing re-sent");
        assertTrue(checksumFailures > 0, "1% corruption but no checksum failure");
    }

    @Test
    void withoutAMulticastRouteEveryoneFailsOverAndGetsEverything() throws Exception {
        InetAddress g = LoopbackMembers.groupAddress(COMM_UNROUTED);
        Optional<String> dev = MulticastRoutes.deviceFor(g);
        assumeTrue(dev != null && !dev.equals(Optional.of("lo")), "this host routes " + g + " through lo");
        int[] ranks = {3, 0, 5};
        List<String> log = new ArrayList<>();
        Map<Integer, LoopbackMembers.Result> results = LoopbackMembers.run(ranks, COMM_UNROUTED, MulticastSettings.defaults(),
                Sim.script(ranks, SIZES, 2), log, 60_000);
        for (int r : ranks) {
            LoopbackMembers.Result res = results.get(r);
            assertNull(res.failure(), () -> "rank " + r + ": " + stack(res.failure()));
            assertEquals(SIZES.length, res.delivered().size());
            assertTrue(res.failedOver());
        }
        assertTrue(log.stream().anyMatch(l -> l.contains("fails over to the point-to-point 4-nomial tree")
                && l.contains("so multicast is unavailable")), String.join("\n", log));
    }

    private static String stack(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }
}
