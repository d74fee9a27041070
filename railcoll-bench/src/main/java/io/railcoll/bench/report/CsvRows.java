package io.railcoll.bench.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads the headerless comma-separated files that the benchmark programs write for the CLI to read back, such as
 * {@code BenchApp}'s {@code raw-samples.csv} ({@code algorithm,size_bytes,sample_us}): one record a line, with a
 * fixed list of columns. The columns are named only so that an error can say which one was wrong.
 *
 * <p>Fields are split at every comma, with no quoting (these files hold algorithm ids and numbers), and, as
 * {@link String#split(String)} does, trailing empty fields are dropped. A blank line is passed over. Any other line
 * must have exactly the columns; a line that does not, a field that is not a number where one is read, and any
 * {@link IllegalArgumentException} the caller throws for a row (a negative latency, say) fail the read with an
 * {@link IllegalArgumentException} that names the file and the line. Stateless.
 */
public final class CsvRows {
    private CsvRows() {
    }

    /**
     * Hands every record of {@code file}, in order, to {@code each}; an empty file has none.
     *
     * @throws IllegalArgumentException naming the file and line, for a malformed line or a value {@code each} refused
     * @throws IOException              if the file cannot be read (missing, say)
     */
    public static void forEach(Path file, List<String> columns, Consumer<Row> each) throws IOException {
        checkArguments(columns, each);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int lineNumber = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                accept(file, ++lineNumber, line, columns, each);
            }
        }
    }

    /**
     * As {@link #forEach}, for a file that a job may have been stopped while writing: text after the last newline is
     * a line the writer never finished (a stopped job's cut-short record: "1234" written as "12" would read as a wrong
     * sample), so it is passed over; every finished line must be well formed, as in {@link #forEach}.
     */
    public static void forEachFinished(Path file, List<String> columns, Consumer<Row> each) throws IOException {
        checkArguments(columns, each);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String finished = text.substring(0, text.lastIndexOf('\n') + 1);
        int lineNumber = 0;
        for (String line : finished.lines().toList()) {
            accept(file, ++lineNumber, line, columns, each);
        }
    }

    private static void checkArguments(List<String> columns, Consumer<Row> each) {
        Objects.requireNonNull(each, "each");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a row needs at least one column");
        }
    }

    private static void accept(Path file, int lineNumber, String line, List<String> columns, Consumer<Row> each) {
        if (line.isBlank()) {
            return;
        }
        try {
            each.accept(Row.of(line, columns));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ", line " + lineNumber + ": " + e.getMessage(), e);
        }
    }

    /** One record: its fields under the file's column names, with reads that name the column when they fail. */
    public record Row(List<String> columns, List<String> fields) {
        public Row {
            columns = List.copyOf(columns);
            fields = List.copyOf(fields);
            if (fields.size() != columns.size()) {
                throw new IllegalArgumentException(fields.size() + " field(s) where " + columns.size() + " are expected ("
                        + String.join(",", columns) + "): '" + String.join(",", fields) + "'");
            }
        }

        static Row of(String line, List<String> columns) {
            return new Row(columns, List.of(line.split(",")));
        }

        public String text(int column) {
            return fields.get(column);
        }

        /** The field as a {@code long} ({@link Long#parseLong}: no spaces, no fraction). */
        public long wholeNumber(int column) {
            return parsed(column, "a whole number", Long::parseLong);
        }

        /** The field as a {@code double} ({@link Double#parseDouble}, which allows surrounding spaces and NaN). */
        public double number(int column) {
            return parsed(column, "a number", Double::parseDouble);
        }

        private <T> T parsed(int column, String what, Function<String, T> parse) {
            try {
                return parse.apply(fields.get(column));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(columns.get(column) + " is not " + what + ": '" + fields.get(column)
                        + "'", e);
            }
        }
    }
}
