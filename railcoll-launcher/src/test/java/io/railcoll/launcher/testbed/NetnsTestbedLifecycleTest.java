package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Starting, failing and removing small testbeds: what is made, and that nothing is left. Needs root. */
@Tag("cluster")
class NetnsTestbedLifecycleTest {

    @BeforeAll
    static void needsRoot() {
        ClusterTests.assumeAvailable();
    }

    @Test
    void closeRemovesEveryNamespaceAndIsIdempotent() {
        NetnsTestbed testbed = NetnsTestbed.start(TestbedSpec.of(2, 2));
        String tag = testbed.tag();
        assertEquals(List.of(testbed.nodeNamespace(0), testbed.nodeNamespace(1), testbed.switchNamespace()),
                ClusterTests.namespacesOf(tag));
        String bridges = ClusterTests.run("ip", "-n", testbed.switchNamespace(), "-o", "link", "show", "type", "bridge");
        assertTrue(bridges.contains("br0:") && bridges.contains("br1:"), bridges);

        testbed.close();
        assertEquals(List.of(), ClusterTests.namespacesOf(tag));
        testbed.close();
        assertThrows(IllegalStateException.class, () -> testbed.setRailDown(0, 0));
    }

    @Test
    void closeToleratesPartsThatAreAlreadyGone() {
        NetnsTestbed testbed = NetnsTestbed.start(TestbedSpec.of(2, 1));
        ClusterTests.run("ip", "netns", "del", testbed.nodeNamespace(1));
        testbed.close();
        assertEquals(List.of(), ClusterTests.namespacesOf(testbed.tag()));
    }

    @Test
    void closeReportsAProcessLeftInsideButRemovesTheNamespaceAnyway() throws Exception {
        NetnsTestbed testbed = NetnsTestbed.start(TestbedSpec.of(1, 1));
        List<String> command = new ArrayList<>(testbed.commandPrefix(0));
        command.addAll(List.of("sleep", "30"));
        Process straggler = new ProcessBuilder(command).start();
        try {
            // ip netns exec has entered the namespace once the pid shows up in it.
            for (int i = 0; i < 100 && ClusterTests.run("ip", "netns", "pids", testbed.nodeNamespace(0)).isEmpty(); i++) {
                Thread.sleep(20);
            }
            TestbedException e = assertThrows(TestbedException.class, testbed::close);
            assertTrue(e.getMessage().contains("processes " + straggler.pid() + " were still running in "
                    + testbed.nodeNamespace(0)), e.getMessage());
            assertEquals(List.of(), ClusterTests.namespacesOf(testbed.tag()));
        } finally {
            straggler.destroyForcibly().waitFor();
        }
    }

    @Test
    void aFailedStartRemovesWhatItMadeAndNamesTheFailingCommand() {
        List<String> before = ClusterTests.namespacesOfThisJvm();
        // Namespaces, bridges and links are made before the shaping step, which tc refuses: at 100 Tbit/s the
        // bucket of a millisecond does not fit tbf's 32-bit burst.
        TestbedSpec bad = TestbedSpec.of(3, 2).withRate("100tbit");
        TestbedException e = assertThrows(TestbedException.class, () -> NetnsTestbed.start(bad));
        assertTrue(e.getMessage().contains("did not start; everything it made was removed"), e.getMessage());
        assertTrue(e.getMessage().contains("tbf rate 100000000000000bit"), e.getMessage());
        CommandException cause = assertInstanceOf(CommandException.class, e.getCause());
        assertTrue(cause.command().getFirst().endsWith("tc"), cause.command().toString());
        assertTrue(!cause.stderr().isEmpty() && e.getMessage().contains(cause.stderr()), e.getMessage());
        assertEquals(0, e.getSuppressed().length);
        assertEquals(before, ClusterTests.namespacesOfThisJvm());
    }

    @Test
    void mtuAndMulticastRouteFollowTheSpec() {
        try (NetnsTestbed testbed = NetnsTestbed.start(TestbedSpec.of(2, 2).withMulticastRail(1).withMtu(9000))) {
            for (int node = 0; node < 2; node++) {
                String routes = ClusterTests.run("ip", "-n", testbed.nodeNamespace(node), "route", "show", NetnsTestbed.MULTICAST_ROUTE);
                assertTrue(routes.contains("dev rail1"), routes);
            }
            String link = ClusterTests.run("ip", "-n", testbed.nodeNamespace(1), "link", "show", "dev", "rail0");
            assertTrue(link.contains("mtu 9000"), link);
        }
        try (NetnsTestbed testbed = NetnsTestbed.start(TestbedSpec.of(1, 1).withMulticastRail(null))) {
            assertEquals("", ClusterTests.run("ip", "-n", testbed.nodeNamespace(0), "route", "show", NetnsTestbed.MULTICAST_ROUTE));
        }
    }

    @Test
    void netemIsTheSwitchEndsRootWithTheLimiterBelowIt() {
        boolean supported = NetnsTestbed.netemSupported();
        if (!supported) {
            System.out.println("netem test skipped: this kernel has no netem (CONFIG_NET_SCH_NETEM)");
        }
        assumeTrue(supported, "kernel without netem");
        try (NetnsTestbed testbed = NetnsTestbed.start(TestbedSpec.of(2, 1).withRate("100mbit").withNetem("loss 1%"))) {
            String sw = ClusterTests.run("tc", "-n", testbed.switchNamespace(), "qdisc", "show", "dev", "n1r0");
            assertTrue(sw.contains("qdisc netem 1: root") && sw.contains("loss 1%"), sw);
            assertTrue(sw.contains("qdisc tbf 10: parent 1:1"), sw);
            LinkStats link = testbed.linkStats(1, 0);
            assertEquals(List.of("netem", "tbf"), link.toNode().stream().map(QdiscStats::kind).toList());
            assertEquals(List.of("tbf"), link.fromNode().stream().map(QdiscStats::kind).toList());
        }
    }

    @Test
    void withoutNetemAndWithoutNftStartNamesThePackage() {
        Tools without = new Tools("ip", "tc", "sysctl", null);
        TestbedException e = assertThrows(TestbedException.class, without::requireNft);
        assertTrue(e.getMessage().contains("apt-get install nftables") && e.getMessage().contains("no netem"), e.getMessage());
        assertEquals("/usr/sbin/nft", new Tools("ip", "tc", "sysctl", "/usr/sbin/nft").requireNft());
    }

    @Test
    void removeLeftoversTakesDeadJobsAndNamedTagsOnly() throws Exception {
        Process finished = new ProcessBuilder("true").start();
        finished.waitFor();
        long me = ProcessHandle.current().pid();
        String deadTag = finished.pid() + "-left1";
        String liveTag = me + "-live1";
        String foreign = "rc-foreign-" + me; // not our naming: never touched
        List<String> made = List.of("rc-" + deadTag + "-n0", "rc-" + deadTag + "-sw", "rc-" + liveTag + "-n0", foreign);
        for (String namespace : made) {
            ClusterTests.run("ip", "netns", "add", namespace);
        }
        try {
            List<String> removed = NetnsTestbed.removeLeftovers(NetnsTestbed.ALL);
            assertTrue(removed.containsAll(made.subList(0, 2)), removed.toString());
            assertEquals(List.of(), ClusterTests.namespacesOf(deadTag));
            assertEquals(List.of("rc-" + liveTag + "-n0"), ClusterTests.namespacesOf(liveTag));
            assertEquals(List.of(foreign), ClusterTests.namespacesStartingWith(foreign));

            assertEquals(List.of("rc-" + liveTag + "-n0"), NetnsTestbed.removeLeftovers(liveTag));
            assertEquals(List.of(foreign), ClusterTests.namespacesStartingWith(foreign));
            assertThrows(IllegalArgumentException.class, () -> NetnsTestbed.removeLeftovers("rc-*"));
        } finally {
            for (String namespace : made) {
                new Shell(Duration.ofSeconds(10)).exec(List.of("ip", "netns", "del", namespace));
            }
        }
    }

    @Test
    void theShutdownHookRemovesATestbedWhenTheJvmIsTerminated() throws Exception {
        String tag;
        try (ChildJvm child = new ChildJvm(List.of(), HookProbe.class)) {
            String line = child.nextLine(Duration.ofSeconds(30));
            assertTrue(line.startsWith("tag "), line);
            tag = line.substring(4);
            assertEquals(2, ClusterTests.namespacesOf(tag).size());
            child.process().destroy(); // SIGTERM: runs shutdown hooks
            assertTrue(child.process().waitFor(20, TimeUnit.SECONDS));
        }
        assertEquals(List.of(), ClusterTests.namespacesOf(tag));
    }
}
