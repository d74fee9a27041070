package io.railcoll.systemtest;

import io.railcoll.launcher.testbed.Availability;
import io.railcoll.launcher.testbed.NetnsTestbed;
import io.railcoll.launcher.testbed.TestbedSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The reliable multicast broadcast between member processes in the network-namespace testbed (one node each,
 * multicast over the rail's bridge). Faults come from the network itself, the testbed's rail impairment
 * ({@code tc netem}, or its nftables emulation on kernels without netem such as this machine's), and from
 * injection on each member's receive path ({@code RAILCOLL_MCAST_FAULTS}), whose corrupted datagrams reach the
 * socket (the network's are dropped by the IP checksum first). Needs root; skipped with a message otherwise.
 */
@Tag("cluster")
class MulticastClusterTest {
    private static final int[] SIZES = {0, 1, 8, 1399, 1400, 1401, 65536, 65537, 8, 1 << 20, 0, 4 << 20, 16, 300_000, 7};
    private static final String FAULTS = "loss=5%,corrupt=1%,duplicate=1%,reorder=5%,seed=42";
    /** The example, on every rail. */
    private static final String RAIL_IMPAIRMENT = "loss 5% corrupt 1% duplicate 1% reorder 5%";

    @BeforeAll
    static void needsRoot() {
        Testbeds.assumeAvailable("multicast cluster tests");
    }

    private static List<MulticastProcesses.Member> members(NetnsTestbed tb, int nodes) {
        List<MulticastProcesses.Member> m = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            m.add(new MulticastProcesses.Member(n, tb.commandPrefix(n), tb.railAddress(n, 0).getHostAddress()));
        }
        return m;
    }

    /** Every member done, and each received every broadcast it did not root exactly once (its counter says so). */
    private static void assertAllDone(MulticastProcesses p, List<String> out, int[] sizes, long seed) throws Exception {
        int[] ranks = java.util.stream.IntStream.range(0, out.size()).toArray();
        int[] roots = MulticastMember.roots(ranks, sizes.length, seed);
        for (int i = 0; i < out.size(); i++) {
            assertEquals("DONE " + i + " " + sizes.length, out.get(i), p.output(i));
            final int rank = i;
            long received = java.util.Arrays.stream(roots).filter(r -> r != rank).count();
            assertTrue(p.output(i).contains("broadcasts_delivered=" + received), p.output(i));
        }
    }

    @Test
    void broadcastsUpTo4MiBArriveByteForByteThroughLossCorruptionDuplicationAndReordering() throws Exception {
        try (NetnsTestbed tb = NetnsTestbed.start(TestbedSpec.of(4, 1));
             MulticastProcesses p = new MulticastProcesses(members(tb, 4), 1, 11, SIZES, -1, -1,
                     Map.of("RAILCOLL_MCAST_FAULTS", FAULTS))) {
            List<String> out = p.outcomes(60);
            assertAllDone(p, out, SIZES, 11);
            for (int i = 0; i < 4; i++) {
                String o = p.output(i);
                assertTrue(o.contains("failedOver=false"), o);
                assertTrue(!o.contains("retransmissions=0 "), "5% loss and nothing re-sent: " + o);
            }
        }
    }

    @Test
    void withMulticastBlockedTheFailOverTreeDeliversEverything() throws Exception {
        try (NetnsTestbed tb = NetnsTestbed.start(TestbedSpec.of(4, 1).withMulticastRail(null));
             MulticastProcesses p = new MulticastProcesses(members(tb, 4), 2, 12, SIZES, -1, -1, Map.of())) {
            List<String> out = p.outcomes(60);
            assertAllDone(p, out, SIZES, 12);
            for (int i = 0; i < 4; i++) {
                String o = p.output(i);
                assertTrue(o.contains("failedOver=true") && o.contains("fails over to the point-to-point 4-nomial tree")
                        && o.contains("no route for multicast group"), o);
            }
        }
    }

    @Test
    void aMemberKilledMidStreamMakesTheOthersFailNamingIt() throws Exception {
        int[] sizes = new int[300];
        java.util.Arrays.fill(sizes, 2000);
        long t0 = System.nanoTime();
        try (NetnsTestbed tb = NetnsTestbed.start(TestbedSpec.of(4, 1));
             MulticastProcesses p = new MulticastProcesses(members(tb, 4), 3, 13, sizes, 2, 100,
                     Map.of("RAILCOLL_TIMEOUT_MS", "8000", "RAILCOLL_MCAST_FAULTS", FAULTS))) {
            List<String> out = p.outcomes(30);
            assertEquals("EOF", out.get(2), p.output(2));
            for (int i : new int[] {0, 1, 3}) {
                assertTrue(out.get(i).startsWith("FAILED " + i + " io.railcoll.PeerLostException: rank " + i + ": lost rank 2"),
                        out.get(i) + "\n" + p.output(i));
            }
        }
        assertTrue(System.nanoTime() - t0 < 30_000_000_000L);
    }

    @Test
    void broadcastsUpTo4MiBArriveByteForByteThroughARealLossyCorruptingDuplicatingReorderingRail() throws Exception {
        Availability a = NetnsTestbed.impairmentAvailable();
        if (!a.available()) {
            System.out.println("multicast test on impaired rails skipped: " + a.reason());
        }
        assumeTrue(a.available(), a.reason());
        try (NetnsTestbed tb = NetnsTestbed.start(TestbedSpec.of(4, 1).withNetem(RAIL_IMPAIRMENT));
             MulticastProcesses p = new MulticastProcesses(members(tb, 4), 4, 14, SIZES, -1, -1, Map.of())) {
            System.out.println("multicast over " + tb);
            assertAllDone(p, p.outcomes(60), SIZES, 14);
            long retransmissions = 0;
            for (int i = 0; i < 4; i++) {
                String o = p.output(i);
                o.lines().filter(l -> l.startsWith("COUNTERS")).forEach(System.out::println);
                assertTrue(o.contains("failedOver=false"), o);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile(" retransmissions=(\\d+)").matcher(o);
                assertTrue(m.find(), o);
                retransmissions += Long.parseLong(m.group(1));
            }
            assertTrue(retransmissions > 0, "5% loss on the rail and nothing re-sent");
            if (tb.impairmentMethod().equals("nftables")) {
                Map<String, Long> hits = tb.impairmentCounts();
                System.out.println("rail impairment rule hits: " + hits);
                assertEquals(java.util.Set.of("loss", "corrupt", "duplicate", "reorder"), hits.keySet());
                assertTrue(hits.values().stream().allMatch(n -> n > 0), "an impairment never acted: " + hits);
            }
            assertEquals(0, tb.railStats(0).limiterDrops(), "the reordering class's queues overflowed");
        }
    }
}
