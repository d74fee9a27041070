package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsvRowsTest {
    private static final List<String> COLUMNS = List.of("collective", "algorithm", "size_bytes", "sample_ns");

    @Test
    void seededRandomRowsComeBackInOrderWithTheirValues(@TempDir Path dir) throws IOException {
        Random random = new Random(0x237);
        for (int trial = 0; trial < 50; trial++) {
            List<List<String>> written = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            int rows = random.nextInt(40);
            for (int r = 0; r < rows; r++) {
                List<String> row = List.of(random.nextBoolean() ? "allgather" : "broadcast",
                        "alg" + random.nextInt(5), Long.toString(random.nextLong(1L << 40)),
                        Double.toString(random.nextDouble() * 1e6));
                written.add(row);
                text.append(String.join(",", row)).append('\n');
            }
            Path file = write(dir, "random-" + trial + ".csv", text.toString());
            List<List<String>> read = new ArrayList<>();
            List<Long> sizes = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            CsvRows.forEach(file, COLUMNS, row -> {
                read.add(row.fields());
                sizes.add(row.wholeNumber(2));
                values.add(row.number(3));
            });
            assertEquals(written, read);
            assertEquals(written.stream().map(w -> Long.parseLong(w.get(2))).toList(), sizes);
            assertEquals(written.stream().map(w -> Double.parseDouble(w.get(3))).toList(), values);
        }
    }

    /** A stopped job's file: what follows the last newline was never finished, however it reads. */
    @Test
    void forEachFinishedPassesOverOnlyTheUnfinishedLastLine(@TempDir Path dir) throws IOException {
        List<String> finished = List.of("allgather,ring,1,2.5", "allgather,ring,4,3");
        for (String cut : List.of("allgather,ring,4,37", "allgather,ri", "allgather,ring,4,", "x")) {
            Path file = write(dir, "cut.csv", String.join("\n", finished) + "\n" + cut);
            assertEquals(finished.stream().map(l -> List.of(l.split(","))).toList(), finishedRows(file), cut);
            // The same line finished is read (or refused) as forEach reads it.
            Path whole = write(dir, "whole.csv", String.join("\n", finished) + "\n" + cut + "\n");
            if (cut.split(",").length == COLUMNS.size()) {
                assertEquals(3, finishedRows(whole).size());
            } else {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> finishedRows(whole));
                assertTrue(e.getMessage().startsWith(whole + ", line 3: "), e.getMessage());
            }
        }
        assertEquals(List.of(), finishedRows(write(dir, "none.csv", "allgather,ring,1,2.5")));
        assertEquals(List.of(), finishedRows(write(dir, "empty.csv", "")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> finishedRows(write(dir, "middle.csv", "allgather,ring,1,2.5\nallgather,ring\nallgather,ring,4,3\n")));
        assertTrue(e.getMessage().startsWith(dir.resolve("middle.csv") + ", line 2: "), e.getMessage());
    }

    private static List<List<String>> finishedRows(Path file) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        CsvRows.forEachFinished(file, COLUMNS, row -> rows.add(row.fields()));
        return rows;
    }

    @Test
    void anEmptyFileHasNoRows(@TempDir Path dir) throws IOException {
        assertEquals(List.of(), rows(write(dir, "empty.csv", "")));
        assertEquals(List.of(), rows(write(dir, "blank.csv", "\n  \n")));
    }

    @Test
    void aTrailingNewlineMakesNoRow(@TempDir Path dir) throws IOException {
        List<List<String>> expected = List.of(List.of("allgather", "ring", "1", "2.5"), List.of("allgather", "ring", "4", "3"));
        assertEquals(expected, rows(write(dir, "with.csv", "allgather,ring,1,2.5\nallgather,ring,4,3\n")));
        assertEquals(expected, rows(write(dir, "without.csv", "allgather,ring,1,2.5\nallgather,ring,4,3")));
        assertEquals(expected, rows(write(dir, "crlf.csv", "allgather,ring,1,2.5\r\nallgather,ring,4,3\r\n")));
    }

    /** As String#split: trailing empty fields are dropped, so a trailing comma changes nothing. */
    @Test
    void trailingEmptyFieldsAreDropped(@TempDir Path dir) throws IOException {
        assertEquals(List.of(List.of("allgather", "ring", "1", "2.5")), rows(write(dir, "comma.csv", "allgather,ring,1,2.5,,\n")));
    }

    @Test
    void aMalformedNumberNamesTheFileLineAndColumn(@TempDir Path dir) throws IOException {
        Path file = write(dir, "bad.csv", "allgather,ring,1,2.5\n\nallgather,ring,4k,3\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CsvRows.forEach(file, COLUMNS, row -> row.wholeNumber(2)));
        assertEquals(file + ", line 3: size_bytes is not a whole number: '4k'", e.getMessage());
        assertInstanceOf(NumberFormatException.class, e.getCause().getCause());

        Path other = write(dir, "bad-double.csv", "allgather,ring,1,2.5us\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvRows.forEach(other, COLUMNS, row -> row.number(3)));
        assertEquals(other + ", line 1: sample_ns is not a number: '2.5us'", e.getMessage());
    }

    /** These files have no header: one, of this format or another, is refused at line 1, not read as data. */
    @Test
    void aHeaderIsRefusedAtItsLine(@TempDir Path dir) throws IOException {
        Path own = write(dir, "own-header.csv", "collective,algorithm,size_bytes,sample_ns\nallgather,ring,1,2.5\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rows(own));
        assertEquals(own + ", line 1: size_bytes is not a whole number: 'size_bytes'", e.getMessage());

        Path other = write(dir, "other-header.csv", "collective,algorithm,nodes\nallgather,ring,1,2.5\n");
        e = assertThrows(IllegalArgumentException.class, () -> rows(other));
        assertEquals(other + ", line 1: 3 field(s) where 4 are expected (collective,algorithm,size_bytes,sample_ns):"
                + " 'collective,algorithm,nodes'", e.getMessage());
    }

    @Test
    void aLineWithOtherColumnsNamesItsLine(@TempDir Path dir) throws IOException {
        Path file = write(dir, "short.csv", "allgather,ring,1,2.5\nallgather,ring,1,2.5,7\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rows(file));
        assertTrue(e.getMessage().startsWith(file + ", line 2: 5 field(s) where 4 are expected"), e.getMessage());
    }

    /** A value the caller refuses gets the same place in its message. */
    @Test
    void theCallersRefusalNamesTheLine(@TempDir Path dir) throws IOException {
        Path file = write(dir, "negative.csv", "allgather,ring,1,2.5\nallgather,ring,1,-2.5\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CsvRows.forEach(file, COLUMNS, row -> new Samples().addUs(row.number(3))));
        assertEquals(file + ", line 2: a latency must be a finite number >= 0, got -2.5 us", e.getMessage());
    }

    @Test
    void aMissingFileIsAnIoError(@TempDir Path dir) {
        assertThrows(NoSuchFileException.class, () -> rows(dir.resolve("absent.csv")));
    }

    private static List<List<String>> rows(Path file) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        CsvRows.forEach(file, COLUMNS, row -> {
            row.wholeNumber(2);
            row.number(3);
            rows.add(row.fields());
        });
        return rows;
    }

    private static Path write(Path dir, String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }
}
