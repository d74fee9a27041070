package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each impairment on a real 2-node testbed, measured with real UDP multicast datagrams from node 0 to node 1
 * ({@link DatagramProbe}): the rates land in a band around the spec, nothing happens without a spec, and nothing
 * is left afterwards. Made with netem where the kernel has it, else with nftables (as on this project's CI
 * machine). Needs root and, without netem, nft; skipped with a message otherwise.
 */
@Tag("cluster")
class RailImpairmentClusterTest {
    private static final int DATAGRAMS = 4000;
    private static final int SIZE = 1000;
    private static final String GROUP = "239.18.0.1";
    private static final Duration ANSWER = Duration.ofSeconds(30);

    @BeforeAll
    static void needsRootAndAWayToImpair() {
        ClusterTests.assumeAvailable();
        Availability a = NetnsTestbed.impairmentAvailable();
        if (!a.available()) {
            System.out.println("rail impairment tests skipped: " + a.reason());
        }
        assumeTrue(a.available(), a.reason());
    }

    /** Sends the datagrams through a fresh testbed with {@code spec} and returns the receiver's counts. */
    private static Map<String, Long> measure(String spec) throws Exception {
        String hostTablesBefore = hostTables();
        String hostQdiscsBefore = ClusterTests.run("tc", "qdisc", "show");
        TestbedSpec testbed = TestbedSpec.of(2, 1).withNetem(spec);
        Map<String, Long> counts = new HashMap<>();
        String tag;
        try (NetnsTestbed tb = NetnsTestbed.start(testbed)) {
            tag = tb.tag();
            if (spec != null && tb.impairmentMethod().equals("nftables")) {
                String rules = ClusterTests.run("ip", "netns", "exec", tb.switchNamespace(), "nft", "list", "table", "netdev", "railcoll");
                assertTrue(rules.contains("hook egress device \"n0r0\"") && rules.contains("hook egress device \"n1r0\""), rules);
            }
            try (ChildJvm receiver = new ChildJvm(tb.commandPrefix(1), DatagramProbe.class, "receive", GROUP, "9000", address(tb, 1));
                 ChildJvm sender = new ChildJvm(tb.commandPrefix(0), DatagramProbe.class, "send", GROUP, "9000", address(tb, 0))) {
                assertEquals("ready", receiver.nextLine(ANSWER));
                assertEquals("sent " + DATAGRAMS, sender.ask("send " + DATAGRAMS + " " + SIZE, ANSWER));
                String[] report = receiver.ask("report", ANSWER).split(" ");
                for (int i = 0; i + 1 < report.length; i += 2) {
                    counts.put(report[i], Long.parseLong(report[i + 1]));
                }
            }
            if (spec != null && tb.impairmentMethod().equals("nftables")) {
                Map<String, Long> hits = tb.impairmentCounts();
                System.out.println("rail impairment \"" + spec + "\": rule hits " + hits);
                String kind = spec.split(" ")[0];
                assertEquals(java.util.Set.of(kind), hits.keySet());
                // Both ports count: node 0's port sees the IGMP reports of node 1's join, nothing else.
                assertBand(kind + " rule hits", hits.get(kind), 7, 13, counts);
            }
            if (spec != null && spec.contains("reorder") && tb.impairmentMethod().equals("nftables")) {
                String classes = ClusterTests.run("tc", "-s", "-n", tb.switchNamespace(), "class", "show", "dev", "n1r0");
                System.out.println("rail impairment \"" + spec + "\": switch port classes\n" + classes);
            }
        }
        System.out.printf("rail impairment %s: %s%n", spec == null ? "none" : "\"" + spec + "\"", counts);
        assertEquals(0, counts.get("rcvbufErrors"), "the receiver fell behind, so its losses say nothing: " + counts);
        assertEquals(0, counts.get("badCrc"), "a datagram with a wrong payload reached the socket: " + counts);
        assertEquals(List.of(), ClusterTests.namespacesOf(tag), "namespaces left");
        assertEquals(hostTablesBefore, hostTables(), "the host's nftables changed");
        assertEquals(hostQdiscsBefore, ClusterTests.run("tc", "qdisc", "show"), "the host's qdiscs changed");
        return counts;
    }

    /** The host's nftables tables, or "" where nft is not installed (a kernel with netem does not need it). */
    private static String hostTables() {
        String nft = Tools.find().nft();
        return nft == null ? "" : ClusterTests.run(nft, "list", "tables");
    }

    private static String address(NetnsTestbed tb, int node) {
        return tb.railAddress(node, 0).getHostAddress();
    }

    private static long lost(Map<String, Long> counts) {
        return DATAGRAMS - counts.get("distinct");
    }

    /** {@code value} within {@code lowPercent..highPercent} of the datagrams sent. */
    private static void assertBand(String what, long value, double lowPercent, double highPercent, Map<String, Long> counts) {
        double percent = 100.0 * value / DATAGRAMS;
        assertTrue(percent >= lowPercent && percent <= highPercent,
                what + " " + percent + "% is outside " + lowPercent + ".." + highPercent + "%: " + counts);
    }

    @Test
    void withoutASpecEveryDatagramArrivesOnceInOrder() throws Exception {
        Map<String, Long> c = measure(null);
        assertEquals(0, lost(c), c.toString());
        assertEquals(0, c.get("duplicates"), c.toString());
        assertEquals(0, c.get("overtaken"), c.toString());
        assertEquals(0, c.get("ipCsumErrors"), c.toString());
    }

    // Bands: 4000 draws at 10% have a standard deviation of 0.47%, so 7..13% is over six of them.

    @Test
    void lossDropsThatShareAndNothingElse() throws Exception {
        Map<String, Long> c = measure("loss 10%");
        assertBand("loss", lost(c), 7, 13, c);
        assertEquals(0, c.get("duplicates"), c.toString());
        assertEquals(0, c.get("ipCsumErrors"), c.toString());
    }

    @Test
    void duplicateDeliversThatShareTwice() throws Exception {
        Map<String, Long> c = measure("duplicate 10%");
        assertBand("duplicates", c.get("duplicates"), 7, 13, c);
        assertEquals(0, lost(c), c.toString());
    }

    @Test
    void corruptionIsCaughtByTheReceiversChecksumAndNeverReachesTheSocket() throws Exception {
        Map<String, Long> c = measure("corrupt 10%");
        assertBand("corrupted (lost)", lost(c), 7, 13, c);
        if (NetnsTestbed.netemSupported()) {
            return; // netem flips a random bit: the UDP checksum, not necessarily the IP one, catches it
        }
        assertEquals(lost(c), c.get("ipCsumErrors"), "every corrupted datagram is an IP checksum error: " + c);
    }

    @Test
    void reorderLetsLaterDatagramsOvertakeSomeAndLosesNone() throws Exception {
        Map<String, Long> c = measure("reorder 10%");
        assertEquals(0, lost(c), c.toString());
        assertEquals(0, c.get("duplicates"), c.toString());
        if (NetnsTestbed.netemSupported()) {
            // netem sends the reordered share at once and delays the rest, so every datagram of the millisecond
            // before one sent at once counts as overtaken: far more than the spec's share.
            assertTrue(c.get("overtaken") >= DATAGRAMS / 100, c.toString());
            return;
        }
        // Only a datagram with others close behind it can be overtaken, so the share is at most the spec's.
        assertBand("overtaken", c.get("overtaken"), 1, 13, c);
    }
}
