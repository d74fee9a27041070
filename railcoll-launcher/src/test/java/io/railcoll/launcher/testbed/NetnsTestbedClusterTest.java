package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One 4-node x 2-rail testbed at 200 Mbit/s with a TCP server in node 3 and a client in node 0 (two JVM
 * starts for the whole class). Needs root; skipped with a message otherwise.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsTestbedClusterTest {
    private static final int PORT = 7000;
    private static final long RATE_BITS_PER_SECOND = 200_000_000L;
    private static final Duration ANSWER = Duration.ofSeconds(30);

    private NetnsTestbed testbed;
    private ChildJvm server;
    private ChildJvm client;

    @BeforeAll
    void startTestbedAndPrograms() throws Exception {
        ClusterTests.assumeAvailable();
        testbed = NetnsTestbed.start(TestbedSpec.of(4, 2).withRate("200mbit"));
        server = new ChildJvm(testbed.commandPrefix(3), RailProbe.class, "serve", Integer.toString(PORT));
        client = new ChildJvm(testbed.commandPrefix(0), RailProbe.class, "client");
        assertEquals("listening", server.nextLine(ANSWER));
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        if (testbed != null) {
            testbed.close();
            assertEquals(List.of(), ClusterTests.namespacesOf(testbed.tag()));
        }
    }

    @Test
    @Order(1)
    void nodesAreAddressedByRailAndNodeWithNothingElseOnTheRails() {
        assertEquals("198.18.1.4", testbed.railAddress(3, 1).getHostAddress());
        String rail1 = ClusterTests.run("ip", "-n", testbed.nodeNamespace(3), "-o", "addr", "show", "dev", "rail1");
        assertTrue(rail1.contains("inet 198.18.1.4/24"), rail1);
        assertEquals("", ClusterTests.run("ip", "-n", testbed.nodeNamespace(3), "-6", "addr", "show"), "IPv6 must be off");
        String routes = ClusterTests.run("ip", "-n", testbed.nodeNamespace(1), "route", "show", NetnsTestbed.MULTICAST_ROUTE);
        assertTrue(routes.contains("dev rail0"), "multicast route on the default rail 0: " + routes);
    }

    @Test
    @Order(2)
    void nodeZeroReachesNodeThreeOnEveryRail() throws Exception {
        for (int rail = 0; rail < 2; rail++) {
            assertEquals("ok", client.ask("connect " + address(3, rail) + " " + PORT + " 5000", ANSWER), "rail " + rail);
        }
    }

    @Test
    @Order(3)
    void theHostGainsNoInterfaceAndTheNamespacesHaveNoWayOut() {
        // Reachability from the host cannot be probed here (the host's gateway accepts any TCP connection),
        // so check the structure: nothing in the host, and nothing but the rails and lo in the namespaces.
        assertEquals(List.of(), testbedLikeHostLinks());
        for (int node = 0; node < 4; node++) {
            String namespace = testbed.nodeNamespace(node);
            assertEquals(List.of("lo", "rail0", "rail1"), linkNames("-n", namespace));
            String routes = ClusterTests.run("ip", "-n", namespace, "route", "show");
            assertTrue(!routes.contains("default") && !routes.contains("via"), routes);
        }
        assertEquals(List.of("br0", "br1", "lo", "n0r0", "n0r1", "n1r0", "n1r1", "n2r0", "n2r1", "n3r0", "n3r1"),
                linkNames("-n", testbed.switchNamespace()));
        assertEquals("", ClusterTests.run("ip", "-n", testbed.switchNamespace(), "-4", "addr", "show"),
                "the switch namespace has no address, so it routes nothing");
    }

    @Test
    @Order(4)
    void aTransferOverOneRailIsHeldNearTheRate() throws Exception {
        long bytes = 25_000_000; // 200 Mbit: about a second at the rate
        String[] answer = client.ask("send " + address(3, 0) + " " + PORT + " " + bytes, ANSWER).split(" ");
        assertEquals("sent", answer[0], String.join(" ", answer));
        assertEquals(bytes, Long.parseLong(answer[1]));
        double bitsPerSecond = bytes * 8 / (Long.parseLong(answer[2]) / 1e9);
        System.out.printf("testbed: %d bytes over one 200mbit rail at %.0f Mbit/s%n", bytes, bitsPerSecond / 1e6);
        // A functional check of the limiter, not a speed test: unlimited veth runs at 10+ Gbit/s here, so
        // anything under 1.5x means the limiter acts; the floor only catches a wrong unit (kbit for mbit).
        assertTrue(bitsPerSecond < 1.5 * RATE_BITS_PER_SECOND, "faster than the rail allows: " + bitsPerSecond);
        assertTrue(bitsPerSecond > 0.1 * RATE_BITS_PER_SECOND, "far slower than the rail: " + bitsPerSecond);

        // Both ends are shaped, and the counters show the bytes on this rail, not the other.
        LinkStats sender = testbed.linkStats(0, 0);
        LinkStats receiver = testbed.linkStats(3, 0);
        assertEquals("tbf", sender.fromNode().getFirst().kind());
        assertEquals("tbf", receiver.toNode().getFirst().kind());
        assertTrue(sender.bytesFromNode() >= bytes, sender.toString());
        assertTrue(receiver.bytesToNode() >= bytes, receiver.toString());
        assertTrue(testbed.railStats(0).bytesSent() >= bytes);
        assertTrue(testbed.railStats(1).bytesSent() < bytes / 10, testbed.railStats(1).toString());
    }

    @Test
    @Order(5)
    void aRailDownFailsConnectionsOnItOnlyAndUpRestoresThem() throws Exception {
        testbed.setRailDown(3, 1);
        try {
            String down = client.ask("connect " + address(3, 1) + " " + PORT + " 1000", ANSWER);
            assertTrue(down.startsWith("fail"), down);
            assertEquals("ok", client.ask("connect " + address(3, 0) + " " + PORT + " 5000", ANSWER));
        } finally {
            testbed.setRailUp(3, 1);
        }
        // The link is up at once, but a failed ARP entry may need one more attempt to clear.
        String up = "";
        for (int attempt = 0; attempt < 5 && !up.equals("ok"); attempt++) {
            up = client.ask("connect " + address(3, 1) + " " + PORT + " 2000", ANSWER);
        }
        assertEquals("ok", up);
    }

    @Test
    @Order(6)
    void theMulticastRouteComesBackWithItsRail() {
        String namespace = testbed.nodeNamespace(2);
        testbed.setRailDown(2, 0);
        try {
            // The kernel drops routes through a link that goes down; this is why setRailUp re-adds it.
            assertEquals("", ClusterTests.run("ip", "-n", namespace, "route", "show", NetnsTestbed.MULTICAST_ROUTE));
        } finally {
            testbed.setRailUp(2, 0);
        }
        String routes = ClusterTests.run("ip", "-n", namespace, "route", "show", NetnsTestbed.MULTICAST_ROUTE);
        assertTrue(routes.contains("dev rail0"), routes);
    }

    private String address(int node, int rail) {
        return testbed.railAddress(node, rail).getHostAddress();
    }

    /** Host interfaces named like the testbed's (rail0, br0, n0r0): there must be none. */
    private static List<String> testbedLikeHostLinks() {
        return linkNames().stream().filter(name -> name.matches("rail\\d+|br\\d+|n\\d+r\\d+")).toList();
    }

    /** Interface names from {@code ip [args] -o link show}, without the {@code @peer} suffix, sorted. */
    private static List<String> linkNames(String... args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        command.addAll(List.of("-o", "link", "show"));
        return ClusterTests.run(command.toArray(String[]::new)).lines()
                .map(line -> line.split(":\\s+")[1].split("@")[0])
                .sorted().toList();
    }
}
