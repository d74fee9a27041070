package io.railcoll.systemtest;

import io.railcoll.bench.peer.OpenMpiPeer;
import io.railcoll.launcher.testbed.NetnsTestbed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Rail accounting on the real testbed, through the CLI's real entry point: a normal run counts, on the rails, the
 * bytes the collective must move (within 10%) and passes; a peer whose ranks all run in node 0's namespace (its bytes
 * over that namespace's loopback: {@code --peer-route loopback}) is marked impossible and fails the bench. Needs root
 * and Open MPI; skipped with the reason otherwise.
 */
class RailAccountingClusterTest {
    private static final Pattern BUSIEST = Pattern.compile(
            "allgather\\.smp-direct\\s+1M\\s+\\S+ us\\s+rail0 (\\S+) (\\S+)\\s+rail1 (\\S+) (\\S+)\\s+busiest node (\\S+) MB \\(must (\\S+) MB\\)");

    @Test
    void aNormalRunCountsTheCollectivesBytesAndARunThatAvoidsTheRailsFails(@TempDir Path out) throws Exception {
        assumeTrue(NetnsTestbed.available().available(), NetnsTestbed.available().reason());
        OpenMpiPeer.Lookup mpi = OpenMpiPeer.locate(out.resolve("cache"));
        assumeTrue(mpi.peer().isPresent(), mpi.message());

        List<String> common = List.of("bench", "--netns", "--nodes", "2", "--ranks-per-node", "2", "--rails", "2",
                "--algorithms", "allgather.smp-direct", "--sizes", "1m", "--samples", "2", "--jit-warmup-ms", "200",
                "--peer", "openmpi");
        Run normal = cli(concat(common, "--out", out.resolve("normal").toString()));
        assertEquals(0, normal.exit, normal.output);
        Matcher m = BUSIEST.matcher(normal.output);
        assertTrue(m.find(), "no rail accounting line for smp-direct at 1M in:\n" + normal.output);
        double busiest = Double.parseDouble(m.group(5));
        double must = Double.parseDouble(m.group(6));
        assertTrue(busiest >= 0.9 * must && busiest <= 1.1 * must,
                "busiest node got " + busiest + " MB per call, the collective must bring " + must + " MB\n" + normal.output);
        assertTrue(Files.readString(out.resolve("normal/report.md")).contains("rail0 B/call"), "report has no accounting");

        Run control = cli(concat(common, "--peer-route", "loopback", "--out", out.resolve("control").toString()));
        assertEquals(3, control.exit, control.output);
        assertTrue(control.output.contains("IMPOSSIBLE figure(s)") && control.output.contains("openmpi at 1048576 bytes"),
                control.output);
        assertTrue(Files.readString(out.resolve("control/results.csv")).contains("IMPOSSIBLE: the rails carried 0 bytes"),
                "the CSV does not mark the control impossible");
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private record Run(int exit, String output) {
    }

    private static Run cli(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.railcoll.cli.RailcollCli");
        cmd.addAll(args);
        Path log = Files.createTempFile("railcoll-accounting-", ".log");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("railcoll " + args + " did not finish within 10 minutes:\n" + Files.readString(log));
            }
            return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
