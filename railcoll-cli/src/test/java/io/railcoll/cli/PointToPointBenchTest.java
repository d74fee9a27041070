package io.railcoll.cli;

import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.report.Samples;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PointToPointBenchTest {
    private static final PointToPointBench.RailConfig TWO_RAILS = new PointToPointBench.RailConfig(2, "threaded");

    /** Seeded random samples in PointToPointBenchApp's form: each size's latencies and medians, in size order. */
    @Test
    void rawSamplesBecomeOnePointPerSizeWithTheMedians(@TempDir Path dir) throws IOException {
        Random random = new Random(0x0237);
        for (int trial = 0; trial < 20; trial++) {
            List<Long> sizes = List.of(8L, 4096L, 1L << 22);
            Map<Long, List<double[]>> bySize = new LinkedHashMap<>();
            StringBuilder text = new StringBuilder();
            int samples = 1 + random.nextInt(7);
            for (int s = 0; s < samples; s++) {
                for (long size : sizes) {
                    double[] v = {random.nextInt(1_000_000) / 1e3, random.nextInt(100_000) / 10.0,
                            random.nextInt(1_000_000) / 1e3, random.nextInt(1_000_000) / 1e3};
                    bySize.computeIfAbsent(size, k -> new ArrayList<>()).add(v);
                    text.append(String.format(Locale.ROOT, "bandwidth,%d,%.3f,%.1f,%.3f,%.3f%n", size, v[0], v[1], v[2],
                            v[3]));
                }
            }
            Path raw = Files.writeString(dir.resolve("raw-" + trial + ".csv"), text);
            List<BenchResult> results = new ArrayList<>();
            Map<Long, double[]> medians = PointToPointBench.read(raw, "bandwidth", TWO_RAILS, Placement.uniform(2, 1),
                    results);
            assertEquals(sizes, List.copyOf(medians.keySet()));
            assertEquals(sizes, results.stream().map(BenchResult::sizeBytes).toList());
            for (int i = 0; i < sizes.size(); i++) {
                List<double[]> rows = bySize.get(sizes.get(i));
                Samples latency = new Samples();
                rows.forEach(r -> latency.addUs(r[0]));
                BenchResult r = results.get(i);
                assertEquals(List.of(latency.medianUs(), latency.minUs(), latency.maxUs(), rows.size()),
                        List.of(r.latencyUsMedian(), r.latencyUsMin(), r.latencyUsMax(), r.samples()));
                double[] expected = {median(rows, 1), median(rows, 2), median(rows, 3)};
                assertArrayEquals(expected, medians.get(sizes.get(i)), 1e-9);
                assertEquals(expected[0], r.bandwidthMbitS().orElseThrow(), 1e-9);
                assertEquals(Collective.BROADCAST, r.series().collective());
                assertEquals("p2p.bandwidth", r.series().algorithm());
            }
        }
    }

    @Test
    void aMalformedLineNamesTheFileAndLine(@TempDir Path dir) throws IOException {
        Path raw = Files.writeString(dir.resolve("raw.csv"),
                "latency,8,1.500,42.7,0.500,1.000\nlatency,8,1.500,42.7,0.500\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PointToPointBench.read(raw, "latency", TWO_RAILS, Placement.uniform(2, 1), new ArrayList<>()));
        assertTrue(e.getMessage().startsWith(raw + ", line 2: 5 field(s) where 6 are expected"), e.getMessage());

        Path bad = Files.writeString(dir.resolve("bad.csv"), "latency,8,1.500,fast,0.500,1.000\n");
        e = assertThrows(IllegalArgumentException.class,
                () -> PointToPointBench.read(bad, "latency", TWO_RAILS, Placement.uniform(2, 1), new ArrayList<>()));
        assertEquals(bad + ", line 1: bandwidth_mbit_s is not a number: 'fast'", e.getMessage());
    }

    /** The lower and upper middle averaged for an even count, as PointToPointBench's breakdown does. */
    private static double median(List<double[]> rows, int column) {
        double[] v = rows.stream().mapToDouble(r -> r[column]).toArray();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
