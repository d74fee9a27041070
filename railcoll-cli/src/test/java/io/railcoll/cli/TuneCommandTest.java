package io.railcoll.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TuneCommandTest {
    /** Too few samples for a sweep is refused before any job starts, not after every point has been timed. */
    @Test
    void fewerSamplesThanASweepNeedsAreRefusedUpFront(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new TuneCommand()).setErr(new PrintWriter(err));
        Path work = dir.resolve("work");
        int code = cli.execute("--regret", "--samples", "2", "--network", "loopback", "--work", work.toString());
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("--samples must be at least 3"), err.toString());
        assertFalse(Files.exists(work), "a job ran: " + work + " exists");
    }

    /** PingPongApp's samples, seeded random, come back by size in increasing order, each size's in file order. */
    @Test
    void pingPongSamplesAreReadBySize(@TempDir Path dir) throws IOException {
        Random random = new Random(0x0237);
        Map<Long, List<Long>> written = new TreeMap<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            long size = 1L << random.nextInt(23);
            long oneWayNs = random.nextLong(1, 10_000_000);
            written.computeIfAbsent(size, k -> new ArrayList<>()).add(oneWayNs);
            text.append(size).append(',').append(oneWayNs).append('\n');
        }
        Map<Long, long[]> read = TuneCommand.oneWayNsBySize(Files.writeString(dir.resolve("pingpong-rail.csv"), text));
        assertEquals(List.copyOf(written.keySet()), List.copyOf(read.keySet()));
        written.forEach((size, samples) ->
                assertArrayEquals(samples.stream().mapToLong(Long::longValue).toArray(), read.get(size), "size " + size));
        assertEquals(Map.of(), TuneCommand.oneWayNsBySize(Files.writeString(dir.resolve("empty.csv"), "")));
    }

    /** A file cut short (a stopped job's, read again with --reuse) is an error naming its line, not a bare index error. */
    @Test
    void aCutShortPingPongLineNamesItsLine(@TempDir Path dir) throws IOException {
        Path raw = Files.writeString(dir.resolve("pingpong-shm.csv"), "8,1200\n8,1180\n64\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TuneCommand.oneWayNsBySize(raw));
        assertEquals(raw + ", line 3: 1 field(s) where 2 are expected (size_bytes,one_way_ns): '64'", e.getMessage());
    }

    /** The last line a stopped job never finished (no newline: "1150" cut to "11") is passed over, not read as 11 ns. */
    @Test
    void anUnfinishedLastPingPongLineIsPassedOver(@TempDir Path dir) throws IOException {
        Path raw = Files.writeString(dir.resolve("pingpong-rail.csv"), "8,1200\n8,1180\n8,11");
        Map<Long, long[]> read = TuneCommand.oneWayNsBySize(raw);
        assertEquals(List.of(8L), List.copyOf(read.keySet()));
        assertArrayEquals(new long[] {1200, 1180}, read.get(8L));
    }
}
