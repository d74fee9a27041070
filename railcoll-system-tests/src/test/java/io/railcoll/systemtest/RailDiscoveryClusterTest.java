package io.railcoll.systemtest;

import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.launcher.testbed.TestbedSpec;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rail discovery on the namespace testbed, where every node has interfaces of its own: each node gets an extra
 * interface, {@code eth9} (one end of a veth pair whose other end holds no address: a segment where nobody
 * answers), with an address in 10.99.0.0/24, like a second NIC cabled to an empty switch. With {@code RAILCOLL_RAILS=auto} every rank picks it as a rail (it is neither loopback nor virtual by
 * name), and start-up fails fast with a message naming the rank, the address and the interface; never a hang. With
 * the interface excluded ({@code ^eth9}) or the rails chosen by CIDR block, the job runs on the real rail and checks
 * its collectives byte for byte. Needs root; skipped with a message otherwise.
 */
@Tag("cluster")
class RailDiscoveryClusterTest {

    @BeforeAll
    static void needsRoot() {
        Testbeds.assumeAvailable("rail discovery cluster tests");
    }

    @Test
    void anInterfaceThatReachesNobodyIsNamedFastOrLeftOut() throws Exception {
        Placement placement = Placement.uniform(2, 1);
        try (NamespaceNetwork net = NamespaceNetwork.start(TestbedSpec.of(placement.nodeCount(), 1))) {
            for (int node = 0; node < placement.nodeCount(); node++) {
                String ns = net.testbed().nodeNamespace(node);
                // A NIC on a segment where nobody is: its far end (eth9p) is up, holds no address, answers no ARP.
                ip(ns, "link", "add", "eth9", "type", "veth", "peer", "name", "eth9p");
                ip(ns, "addr", "add", "10.99.0." + (node + 1) + "/24", "dev", "eth9");
                ip(ns, "link", "set", "eth9p", "up");
                ip(ns, "link", "set", "eth9", "up");
            }

            long start = System.nanoTime();
            Run auto = run(net, placement, "auto");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertFalse(auto.result.succeeded(), auto.all());
            System.out.println("auto with eth9, failed after " + Math.round(seconds) + " s: " + auto.result.failure());
            assertTrue(auto.stderr.contains("does not reach rank 0 at 10.99.0.1:")
                    && auto.stderr.contains("from 10.99.0.2 (interface eth9)"), auto.all());
            assertTrue(auto.result.failure().contains("interface eth9"), "the job's failure names it: " + auto.result.failure());
            // The start-up deadline is 120 s here: the failure must come from the reachability check, well before.
            assertTrue(seconds < 90, "took " + seconds + " s:\n" + auto.all());

            Run excluded = run(net, placement, "^eth9");
            assertTrue(excluded.result.succeeded(), excluded.all());
            assertTrue(excluded.stdout.contains("CHECKED"), excluded.all());

            Run byBlock = run(net, placement, "198.18.0.0/16");
            assertTrue(byBlock.result.succeeded(), byBlock.all());
            assertTrue(byBlock.stdout.contains("CHECKED"), byBlock.all());
        }
    }

    private record Run(JobResult result, String stdout, String stderr) {
        String all() {
            return "--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    private static Run run(NamespaceNetwork net, Placement placement, String rails) throws IOException, InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        JobResult result;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            JobSpec spec = RankStartup.spec(placement, 1, RailApps.CheckWithJobId.class, List.of("sizes=0,1,4097"),
                    Map.of("RAILCOLL_RAILS", rails, "RAILCOLL_CONNECT_TIMEOUT_MS", "120000"), List.of("-Xmx192m"),
                    Duration.ofMinutes(4));
            result = new JobLauncher(o, e).run(spec, net);
        }
        return new Run(result, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void ip(String namespace, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("ip", "-n", namespace));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "ip did not finish");
        assertEquals(0, p.exitValue(), cmd + ": " + text);
    }
}
