package io.railcoll.systemtest;

import io.railcoll.bench.peer.OpenMpiPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Rail accounting on the real testbed, through the CLI's real entry point: a normal run counts, on the rails, the
 * bytes the collective must move (within 10%) and passes; a peer whose ranks all run in node 0's namespace (its bytes
 * over that namespace's loopback: {@code --peer-route loopback}) is marked impossible and fails the bench; a peer run
 * under an environment that sets {@code OMPI_MCA_plm=isolated} still runs on the rails. Needs root
 * and Open MPI; skipped with the reason otherwise.
 */
class RailAccountingClusterTest {
    @Test
    void aNormalRunCountsTheCollectivesBytesAndARunThatAvoidsTheRailsFails(@TempDir Path out) throws Exception {
        Testbeds.assumeAvailable("rail accounting cluster test");
        OpenMpiPeer.Lookup mpi = OpenMpiPeer.locate(out.resolve("cache"));
        assumeTrue(mpi.peer().isPresent(), mpi.message());

        List<String> common = List.of("bench", "--netns", "--nodes", "2", "--ranks-per-node", "2", "--rails", "2",
                "--algorithms", "allgather.smp-direct", "--sizes", "1m", "--samples", "2", "--jit-warmup-ms", "200",
                "--peer", "openmpi");
        Run normal = cli(concat(common, "--out", out.resolve("normal").toString()));
        assertEquals(0, normal.exit, normal.output);
        assertTrue(normal.output.contains("rail accounting - bytes per call"), normal.output);
        List<String> csv = Files.readAllLines(out.resolve("normal/results.csv"));
        List<String> header = List.of(csv.getFirst().split(","));
        String row = csv.stream().filter(l -> l.startsWith("allgather,allgather.smp-direct,")).findFirst()
                .orElseThrow(() -> new AssertionError("no smp-direct row in\n" + csv));
        List<String> cells = List.of(row.split(","));
        double busiest = Double.parseDouble(cells.get(header.indexOf("busiest_node_bytes_per_call")));
        double must = Double.parseDouble(cells.get(header.indexOf("required_bytes_per_call")));
        assertEquals(2.0 * (1 << 20), must, 0.0, "a 2x2 all-gather of 1 MiB brings 2 MiB into each node");
        assertTrue(busiest >= 0.9 * must && busiest <= 1.1 * must,
                "busiest node got " + busiest + " bytes per call, the collective must bring " + must + "\n" + normal.output);
        assertTrue(cells.get(header.indexOf("rail_bytes_per_call")).matches("rail0=\\d+;rail1=\\d+"), row);
        assertEquals("ok", cells.get(header.indexOf("verdict")), row);
        assertTrue(Files.readString(out.resolve("normal/report.md")).contains("rail0 B/call"), "report has no accounting");
        // The peer too: its ranks run in their nodes' namespaces (the bench checks where each rank ran), so its bytes
        // between nodes cross the rails.
        String peerRow = csv.stream().filter(l -> l.startsWith("allgather,openmpi,")).findFirst()
                .orElseThrow(() -> new AssertionError("no openmpi row in\n" + csv));
        List<String> peerCells = List.of(peerRow.split(","));
        assertEquals("ok", peerCells.get(header.indexOf("verdict")), peerRow);
        assertTrue(Double.parseDouble(peerCells.get(header.indexOf("busiest_node_bytes_per_call"))) >= 0.9 * must, peerRow);

        // The 16-processor machine's image exports these (2026-11-28); with them Open MPI's isolated launcher put every
        // rank on mpirun's node and the peer's rails carried 0 bytes. The peer runs without them (decision 0198).
        Run imaged = cli(concat(common, "--out", out.resolve("imaged").toString()), Map.of("OMPI_MCA_plm", "isolated",
                "OMPI_MCA_btl_vader_single_copy_mechanism", "none", "PMIX_MCA_gds", "hash"));
        assertEquals(0, imaged.exit, imaged.output);
        assertTrue(imaged.output.contains("peer: ignoring the environment's OMPI_MCA_btl_vader_single_copy_mechanism=none"
                + " OMPI_MCA_plm=isolated PMIX_MCA_gds=hash"), imaged.output);
        String imagedRow = Files.readAllLines(out.resolve("imaged/results.csv")).stream()
                .filter(l -> l.startsWith("allgather,openmpi,")).findFirst()
                .orElseThrow(() -> new AssertionError("no openmpi row in\n" + imaged.output));
        List<String> imagedCells = List.of(imagedRow.split(","));
        assertEquals("ok", imagedCells.get(header.indexOf("verdict")), imagedRow);
        assertTrue(Double.parseDouble(imagedCells.get(header.indexOf("busiest_node_bytes_per_call"))) >= 0.9 * must,
                imagedRow);

        Run control = cli(concat(common, "--peer-route", "loopback", "--out", out.resolve("control").toString()));
        assertEquals(3, control.exit, control.output);
        assertTrue(control.output.contains("IMPOSSIBLE figure(s)") && control.output.contains("openmpi at 1048576 bytes"),
                control.output);
        // Refuted either way: its bytes did not cross the rails, or (on a quiet host) it also beat the rails' floor.
        String controlCsv = Files.readString(out.resolve("control/results.csv"));
        assertTrue(controlCsv.contains("IMPOSSIBLE: the rails carried 0 bytes")
                || controlCsv.contains("IMPOSSIBLE: faster than the rails allow"),
                "the CSV does not mark the control impossible:\n" + controlCsv);
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private record Run(int exit, String output) {
    }

    private static Run cli(List<String> args) throws IOException, InterruptedException {
        return cli(args, Map.of());
    }

    private static Run cli(List<String> args, Map<String, String> environment) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.railcoll.cli.RailcollCli");
        cmd.addAll(args);
        Path log = Files.createTempFile("railcoll-accounting-", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process p = builder.start();
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
