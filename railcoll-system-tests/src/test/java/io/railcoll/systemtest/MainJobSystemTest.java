package io.railcoll.systemtest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's main job, shrunk: {@code railcoll bench} as its own process (the CLI's real entry point) on a small
 * emulated cluster, producing the table, the CSV, the Markdown report and a PNG plot.
 */
class MainJobSystemTest {

    @Test
    void benchProducesTableCsvReportAndPlot(@TempDir Path out) throws Exception {
        Path csv = out.resolve("extra.csv");
        Run r = cli(List.of("bench", "--network", "loopback", "--nodes", "2", "--ranks-per-node", "2", "--rails", "2",
                "--algorithms", "allgather.direct,allgather.bruck,allgather.smp-direct,auto", "--sizes", "1,4096",
                "--samples", "2", "--iterations", "5", "--warmup", "2", "--jit-warmup-ms", "1000", "--check",
                "--csv", csv.toString(),
                "--out", out.toString()));
        assertEquals(0, r.exit, r.output);
        assertTrue(r.output.contains("median latency"), r.output);
        assertTrue(r.output.contains("best/flat"), r.output);
        assertTrue(r.output.contains("[r0] JIT warm-up: "), r.output);
        List<String> rows = Files.readAllLines(out.resolve("results.csv"));
        assertTrue(rows.getFirst().startsWith("collective,algorithm,nodes,ranks_per_node,rails"), rows.getFirst());
        assertTrue(rows.getFirst().contains("latency_us_median") && rows.getFirst().contains("latency_us_min")
                && rows.getFirst().contains("latency_us_max") && rows.getFirst().contains("size_bytes"), rows.getFirst());
        assertEquals(1 + 4 * 2, rows.size(), String.join("\n", rows));
        assertEquals(rows, Files.readAllLines(csv));
        // Decision 0232: below 8 KiB every point also has what a call adds to a loop of barriers, from the same samples.
        List<String> header = List.of(rows.getFirst().split(","));
        int added = header.indexOf("added_to_barrier_us_median");
        assertTrue(added > header.indexOf("samples") && header.contains("added_to_barrier_us_max"), rows.getFirst());
        for (String row : rows.subList(1, rows.size())) {
            assertTrue(row.split(",")[added].matches("-?[0-9]+\\.[0-9]{3}"), "no added figure in " + row);
        }
        assertTrue(r.output.contains("direct added") && r.output.contains("what one call adds to a loop of barriers"),
                r.output);
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("bin/railcoll bench") && report.contains("allgather.smp-direct"), report);
        assertTrue(report.contains(" direct added |"), report);
        Path png = out.resolve("allgather-2x2.png");
        byte[] head = Files.readAllBytes(png);
        assertTrue(head.length > 1000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', "not a PNG: " + png);
    }

    /**
     * Decision 0223: a sweep where one algorithm refuses a size completes. On 1x2, {@code allreduce.shm-doubling}'s
     * slots fit the node buffer up to 256 KiB, not at 512 KiB: every rank skips that point alike, the table reads n/a
     * there, a note says why once, and the CSV has no row for it (never a zero).
     */
    @Test
    void aSweepWithARefusedPointCompletesAndReportsIt(@TempDir Path out) throws Exception {
        Run r = cli(List.of("bench", "--network", "loopback", "--placement", "1x2", "--collective", "allreduce",
                "--algorithms", "allreduce.shm,allreduce.shm-doubling", "--sizes", "8,512k", "--samples", "2",
                "--iterations", "5", "--warmup", "2", "--jit-warmup-ms", "200", "--check", "--out", out.toString()));
        assertEquals(0, r.exit, r.output);
        String note = "n/a (allreduce.shm-doubling refuses 512K on 1x2: its slots";
        assertTrue(r.output.contains("not run: " + note), r.output);
        String row = r.output.lines().filter(l -> l.startsWith("512K")).findFirst().orElseThrow();
        // Then the figures added to a barrier loop: measured at 8 B, not at 512K (above the cap: -, refused: n/a).
        assertTrue(row.matches("512K\\s+[0-9.]+[~!*]*\\s+n/a(\\s+[0-9.]+x)?\\s+-\\s+n/a\\s*"), row);
        List<String> rows = Files.readAllLines(out.resolve("results.csv"));
        assertEquals(1 + 3, rows.size(), String.join("\n", rows));
        assertTrue(rows.stream().anyMatch(l -> l.startsWith("allreduce,allreduce.shm-doubling,1,2,2,") && l.contains(",8,")),
                String.join("\n", rows));
        assertTrue(rows.stream().noneMatch(l -> l.contains("shm-doubling") && l.contains(",524288,")),
                String.join("\n", rows));
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("**Points not run**") && report.contains(note) && report.contains("| n/a |"), report);
    }

    @Test
    void everyCommandExplainsItsOptions() throws Exception {
        for (String command : List.of("run", "bench", "info", "app")) {
            Run r = cli(List.of(command, "--help"));
            assertEquals(0, r.exit, r.output);
            assertTrue(r.output.contains("Usage:"), r.output);
        }
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
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("railcoll " + args + " did not finish");
        }
        return new Run(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }
}
