package io.railcoll.systemtest;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.bench.apps.AppResult;
import io.railcoll.bench.apps.CgApp;
import io.railcoll.bench.apps.KmeansApp;
import io.railcoll.bench.apps.NbodyApp;
import io.railcoll.bench.apps.RadixApp;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.select.TuningFile;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application benchmarks (paper 000, Table 1) on real processes over real loopback rails, on uneven nodes: each
 * app's checks pass on a tiny problem, and a corrupted exchange makes them fail with a clear error.
 */
class AppsSystemTest {
    private static final Placement PLACEMENT = Placement.parse("2,1,2");
    private static final int RAILS = 2;

    @TempDir
    Path dir;

    /** allgather.ring when the catalog has it (the apps' default baseline), else the first all-gather algorithm. */
    private static String baseline() {
        List<String> ids = AlgorithmCatalog.standard().forCollective(Collective.ALLGATHER).stream().map(Algorithm::id).toList();
        return ids.contains("allgather.ring") ? "allgather.ring" : ids.getFirst();
    }

    /**
     * {@code auto} (the apps' default) when automatic selection works for these blocks with this catalog; until the
     * catalog holds every id the selection rules name, the last all-gather algorithm instead.
     */
    private static String compared(long blockBytes) {
        try {
            new AlgorithmSelector(Map.of(), TuningFile.builtIn())
                    .select(new Shape(Collective.ALLGATHER, PLACEMENT, RAILS, blockBytes, 0));
            return "auto";
        } catch (IllegalArgumentException | IllegalStateException e) {
            return AlgorithmCatalog.standard().forCollective(Collective.ALLGATHER).getLast().id();
        }
    }

    private Jobs.Outcome run(Class<?> app, Path result, long blockBytes, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.add("baseline=" + baseline());
        a.add("algorithm=" + compared(blockBytes));
        a.add("warmup=0");
        a.add("result=" + result);
        return Jobs.run(PLACEMENT, RAILS, app, a, Map.of("RAILCOLL_TIMEOUT_MS", "15000"));
    }

    @Test
    void nbodyChecksPassOnUnevenNodes() throws IOException {
        Path file = dir.resolve("nbody.properties");
        // 23 bodies over 5 ranks: blocks of 5 bodies (120 bytes), 2 padding slots.
        run(NbodyApp.class, file, 120, "bodies=23", "steps=3").assertSucceeded();
        AppResult r = AppResult.read(file);
        assertTrue(r.checkPassed(), r.checks());
        assertTrue(r.checks().contains("5 ranks agree bit for bit") && r.checks().contains("single-process reference matches"),
                r.checks());
        assertEquals("2,1,2", r.placement());
        assertEquals(120, r.blockBytes());
        assertEquals(3, r.compared().calls(), "one all-gather per step");
        assertTrue(r.baseline().totalNs() > 0 && r.compared().totalNs() > 0);
    }

    @Test
    void radixChecksPassOnUnevenNodes() throws IOException {
        Path file = dir.resolve("radix.properties");
        run(RadixApp.class, file, 1024, "keys=1003", "bits=64").assertSucceeded();
        AppResult r = AppResult.read(file);
        assertTrue(r.checkPassed(), r.checks());
        assertTrue(r.checks().contains("boundaries ordered across 5 ranks") && r.checks().contains("sequential sort matches"),
                r.checks());
        // 64-bit keys in 8-bit digits: 8 passes, each one count all-gather and one key exchange.
        assertEquals(16, r.baseline().calls());
    }

    @Test
    void aCorruptedPositionExchangeFailsTheNbodyCheck() throws IOException {
        Path file = dir.resolve("nbody-corrupt.properties");
        Jobs.Outcome o = run(NbodyApp.class, file, 120, "bodies=23", "steps=3", "corrupt-step=2");
        assertFalse(o.result().succeeded(), o.all());
        assertEquals(0, o.result().failedRank(), o.all());
        assertTrue(o.result().failure().contains("CheckFailedException: nbody check failed: rank 0: compared"), o.result().failure());
        assertTrue(o.result().failure().contains("momentum not conserved"), o.result().failure());
        assertTrue(o.result().failure().contains("differs from the single-process reference"), o.result().failure());
        AppResult r = AppResult.read(file);
        assertFalse(r.checkPassed(), "the result file records the failure too");
    }

    @Test
    void aCorruptedKeyExchangeFailsTheRadixCheck() {
        // Without the sequential reference, only the checksum against the generator can notice one flipped bit.
        Jobs.Outcome o = run(RadixApp.class, dir.resolve("radix-corrupt.properties"), 1024, "keys=1003",
                "corrupt-pass=2", "reference-max-keys=0");
        assertFalse(o.result().succeeded(), o.all());
        assertTrue(o.result().failure().contains("radix check failed")
                && o.result().failure().contains("the multiset of keys changed"), o.result().failure());
    }

    private Jobs.Outcome runKmeans(Path result, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("points=1001", "dims=3", "clusters=5", "iterations=4", "baseline=allreduce.ring",
                "algorithm=auto", "warmup=0", "result=" + result));
        return Jobs.run(PLACEMENT, RAILS, KmeansApp.class, a, Map.of("RAILCOLL_TIMEOUT_MS", "15000"));
    }

    @Test
    void kmeansChecksPassOnUnevenNodes() throws IOException {
        Path file = dir.resolve("kmeans.properties");
        runKmeans(file).assertSucceeded();
        AppResult r = AppResult.read(file);
        assertTrue(r.checkPassed(), r.checks());
        assertTrue(r.checks().contains("5 ranks agree bit for bit") && r.checks().contains("single-process reference matches")
                && r.checks().contains("counted all 1001 points"), r.checks());
        assertEquals("allreduce", r.mainCollective());
        assertEquals(8 * 5 * 4, r.blockBytes(), "5 clusters x (3 sums + 1 count) doubles");
        assertEquals(4, r.compared().calls(), "one all-reduce per iteration");
        assertTrue(r.compared().label().startsWith("auto:allreduce."), r.compared().label());
    }

    @Test
    void aCorruptedReductionFailsTheKmeansCheck() {
        Jobs.Outcome o = runKmeans(dir.resolve("kmeans-corrupt.properties"), "corrupt-iteration=2");
        assertFalse(o.result().succeeded(), o.all());
        String failure = o.result().failure();
        assertTrue(failure.contains("kmeans check failed") && failure.contains("iteration 2 counted 1002 points, not 1001")
                && failure.contains("differs from the single-process reference"), failure);
    }

    /** A CG job on 2,1,2; {@code jvm}: the ranks' JVM options (a job that fails within seconds runs on C1, decision 0100). */
    private Jobs.Outcome runCg(Path result, boolean deterministic, List<String> jvm, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("algorithm=auto", "warmup=0", "result=" + result));
        return Jobs.run(PLACEMENT, RAILS, CgApp.class, a, Map.of("RAILCOLL_TIMEOUT_MS", "15000",
                "RAILCOLL_DETERMINISTIC", deterministic ? "on" : "off"), jvm);
    }

    @Test
    void cgEqualsTheRankOrderReferenceBitForBitWhenDeterministic() throws IOException {
        Path file = dir.resolve("cg.properties");
        runCg(file, true, Jobs.DEFAULT_JVM, "grid=16").assertSucceeded();
        AppResult r = AppResult.read(file);
        assertTrue(r.checkPassed(), r.checks());
        assertTrue(r.checks().contains("5 ranks stopped alike")
                && r.checks().contains("bit-identical to the rank-order reference"), r.checks());
        assertEquals("allreduce.deterministic", r.baseline().label());
        assertEquals("auto:allreduce.deterministic", r.compared().label());
        long iterations = r.compared().steps();
        assertTrue(iterations > 10, "the 16x16 problem takes tens of iterations: " + iterations);
        // Per iteration two all-reduces (p.Ap, r.r) and one halo exchange, plus the first r.r.
        assertEquals(3 * iterations + 1, r.compared().calls());
        assertEquals("halo point-to-point", r.otherCommunication());
        assertTrue(r.compared().otherNs() > 0 && r.compared().mainNs() > 0, r.toString());
    }

    @Test
    void cgChecksPassWhenAHaloSpansSeveralRanks() throws IOException {
        // 16 unknowns over 5 ranks: blocks of 3 or 4 rows, shorter than the stencil's reach of 4, so a rank's halo
        // comes from two ranks on each side. Any all-reduce order: judged by CG's bounds against the sequential run.
        Path file = dir.resolve("cg-small.properties");
        runCg(file, false, Jobs.DEFAULT_JVM, "grid=4", "baseline=allreduce.ring").assertSucceeded();
        AppResult r = AppResult.read(file);
        assertTrue(r.checkPassed() && r.checks().contains("within the CG bounds of the sequential reference"), r.checks());
    }

    @Test
    void aCorruptedHaloFailsTheCgCheck() {
        Jobs.Outcome o = runCg(dir.resolve("cg-corrupt.properties"), true, Jobs.SHORT_JOB, "grid=16", "corrupt-product=2");
        assertFalse(o.result().succeeded(), o.all());
        String failure = o.result().failure();
        assertTrue(failure.contains("cg check failed") && failure.contains("not bit-identical to the rank-order reference")
                && failure.contains("true residual"), failure);
    }

    @Test
    void appCommandPrintsTheTable() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), "io.railcoll.cli.RailcollCli",
                "app", "radix", "--placement", "2,1,2", "--rails", "2", "--keys", "500", "--warmup", "0",
                "--baseline", baseline(), "--algorithm", compared(1024)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the app command did not finish");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("app    placement  rails  baseline"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("radix  2,1,2      2      ") && l.strip().endsWith("passed")), out);
    }
}
