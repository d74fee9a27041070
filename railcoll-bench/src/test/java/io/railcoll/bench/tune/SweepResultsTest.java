package io.railcoll.bench.tune;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link SweepResults#read}: the samples of several jobs' files, a stopped job's unfinished last line passed over. */
class SweepResultsTest {
    private static final List<String> ALGORITHMS = List.of("gather.binomial", "gather.direct", "auto:gather.direct");

    /** Seeded random files, the last of each cut at a random point as a job stopped from outside leaves it. */
    @Test
    void theFinishedLinesOfEveryFileAreItsSamples(@TempDir Path dir) throws IOException {
        Random random = new Random(0x5eed);
        for (int trial = 0; trial < 40; trial++) {
            Map<String, List<Long>> expected = new HashMap<>();
            List<Path> files = new ArrayList<>();
            for (int f = 0; f < 1 + random.nextInt(3); f++) {
                StringBuilder text = new StringBuilder();
                for (int line = 0; line < random.nextInt(30); line++) {
                    String algorithm = ALGORITHMS.get(random.nextInt(ALGORITHMS.size()));
                    long size = 1L << random.nextInt(21);
                    long ns = 1 + random.nextLong(10_000_000);
                    text.append("gather,").append(algorithm).append(',').append(size).append(',').append(ns).append('\n');
                    expected.computeIfAbsent(algorithm + "@" + size, k -> new ArrayList<>()).add(ns);
                }
                String unfinished = "gather,gather.direct,1024,98765".substring(0, random.nextInt(31));
                files.add(Files.writeString(dir.resolve("sweep-" + trial + "-" + f + ".csv"), text + unfinished));
            }
            SweepResults read = SweepResults.read(files);
            Map<String, List<Long>> got = new HashMap<>();
            for (long size : read.sizes(Collective.GATHER)) {
                for (String label : read.labels(Collective.GATHER, size)) {
                    got.put(label + "@" + size, Arrays.stream(read.samplesNs(Collective.GATHER, size, label)).boxed().toList());
                }
            }
            expected.replaceAll((k, v) -> v.stream().sorted().toList());
            assertEquals(expected, got, "trial " + trial);
        }
    }

    @Test
    void aMalformedFinishedLineNamesItsFileAndLine(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("sweep-a.csv"), "gather,gather.direct,8,100\n");
        Path bad = Files.writeString(dir.resolve("sweep-a-2.csv"), "gather,gather.direct,8,100\ngather,gather.direct,8,1e3\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SweepResults.read(List.of(good, bad)));
        assertEquals(bad + ", line 2: sample_ns is not a whole number: '1e3'", e.getMessage());
        Path unknown = Files.writeString(dir.resolve("sweep-b.csv"), "gathr,gather.direct,8,100\n");
        e = assertThrows(IllegalArgumentException.class, () -> SweepResults.read(unknown));
        assertTrue(e.getMessage().startsWith(unknown + ", line 1: unknown collective 'gathr'"), e.getMessage());
        assertArrayEquals(new long[] {100}, SweepResults.read(good).samplesNs(Collective.GATHER, 8, "gather.direct"));
    }
}
