package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RawSamplesTest {
    private static final List<String> LABELS = List.of("allgather.ring", "allgather.bruck", "auto:allgather.smp-bruck",
            "allgather.recursive-doubling");

    /**
     * The reader's groups against the loop that {@code BenchCommand} held twice before it (kept here as the
     * reference), on seeded random files in the writer's form, with the liberties that loop took: blank lines,
     * trailing commas, a signed size, spaces around a latency and no final newline.
     */
    @Test
    void seededRandomFilesGroupAsTheFormerLoopDid(@TempDir Path dir) throws IOException {
        Random random = new Random(0x0237);
        for (int trial = 0; trial < 200; trial++) {
            List<String> lines = new ArrayList<>();
            int count = random.nextInt(60);
            for (int i = 0; i < count; i++) {
                String label = LABELS.get(random.nextInt(LABELS.size()));
                long size = 1L << random.nextInt(21);
                String us = String.format(Locale.ROOT, "%.3f", random.nextDouble() * 500);
                lines.add(switch (random.nextInt(12)) {
                    case 0 -> "";
                    case 1 -> label + "," + size + "," + us + ",";
                    case 2 -> label + ",+" + size + "," + us;
                    case 3 -> label + "," + size + ", " + us + " ";
                    default -> label + "," + size + "," + us;
                });
            }
            String text = String.join("\n", lines) + (random.nextBoolean() ? "\n" : "");
            Path file = Files.writeString(dir.resolve("raw-" + trial + ".csv"), text);
            Map<String, Map<Long, List<Double>>> read = RawSamples.read(file, RawSamples.SAMPLE_US, ArrayList::new,
                    List::add);
            Map<String, Map<Long, List<Double>>> reference = formerLoop(Files.readAllLines(file));
            assertEquals(reference, read);
            assertEquals(reference.toString(), read.toString(), "the same order of algorithms and sizes");
        }
    }

    @Test
    void eachFigureGoesToItsOwnAccumulator(@TempDir Path dir) throws IOException {
        Path raw = Files.writeString(dir.resolve("raw-samples.csv"),
                "allgather.ring,1,3.000\nallgather.ring,1,1.000\nallgather.ring,1,2.000\nauto:allgather.ring,64,7.500\n");
        Map<String, Map<Long, Samples>> osu = RawSamples.read(raw, RawSamples.SAMPLE_US, Samples::new, Samples::addUs);
        assertEquals(List.of("allgather.ring", "auto:allgather.ring"), List.copyOf(osu.keySet()));
        BenchResult ring = BenchResult.of(Fixtures.RING, 1, osu.get("allgather.ring").get(1L));
        assertEquals(List.of(2.0, 1.0, 3.0, 3), List.of(ring.latencyUsMedian(), ring.latencyUsMin(), ring.latencyUsMax(),
                ring.samples()));

        // What a call adds to a barrier loop is a difference: it may be negative, which the OSU figure may not be.
        Path added = Files.writeString(dir.resolve("raw-added-to-barrier.csv"),
                "allgather.ring,1,-0.250\nallgather.ring,1,0.500\nallgather.ring,1,0.125\n");
        AddedToBarrier summary = RawSamples.read(added, RawSamples.ADDED_US, AddedToBarrierSamples::new,
                AddedToBarrierSamples::addUs).get("allgather.ring").get(1L).summary();
        assertEquals(new AddedToBarrier(0.125, -0.25, 0.5), summary);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RawSamples.read(added, RawSamples.SAMPLE_US, Samples::new, Samples::addUs));
        assertTrue(e.getMessage().startsWith(added + ", line 1: a latency must be"), e.getMessage());
    }

    @Test
    void anEmptyFileHasNoPoints(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("raw-samples.csv"), "");
        assertEquals(Map.of(), RawSamples.read(empty, RawSamples.SAMPLE_US, Samples::new, Samples::addUs));
    }

    @Test
    void aMalformedLineNamesTheFileLineAndColumn(@TempDir Path dir) throws IOException {
        Path raw = Files.writeString(dir.resolve("raw-samples.csv"), "allgather.ring,1,3.000\nallgather.ring,1,n/a\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RawSamples.read(raw, RawSamples.SAMPLE_US, Samples::new, Samples::addUs));
        assertEquals(raw + ", line 2: sample_us is not a number: 'n/a'", e.getMessage());

        Path header = Files.writeString(dir.resolve("with-header.csv"), "algorithm,size_bytes,added_us\nallgather.ring,1,3\n");
        e = assertThrows(IllegalArgumentException.class,
                () -> RawSamples.read(header, RawSamples.ADDED_US, AddedToBarrierSamples::new, AddedToBarrierSamples::addUs));
        assertEquals(header + ", line 1: size_bytes is not a whole number: 'size_bytes'", e.getMessage());
    }

    /** BenchCommand's loop before RawSamples, with a list of the samples as its accumulator. */
    private static Map<String, Map<Long, List<Double>>> formerLoop(List<String> lines) {
        Map<String, Map<Long, List<Double>>> byAlg = new LinkedHashMap<>();
        for (String line : lines) {
            String[] f = line.split(",");
            if (f.length != 3) {
                continue;
            }
            byAlg.computeIfAbsent(f[0], k -> new LinkedHashMap<>())
                    .computeIfAbsent(Long.parseLong(f[1]), k -> new ArrayList<>())
                    .add(Double.parseDouble(f[2]));
        }
        return byAlg;
    }
}
