package io.railcoll.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ObjDoubleConsumer;
import java.util.function.Supplier;

/**
 * Rank 0's raw files of {@code railcoll bench} read back: {@code BenchApp} writes one line per sample,
 * {@code algorithm,size_bytes,<figure>_us} (the algorithm's label: {@code auto:<id>} when selection picked it), the OSU figure to {@code raw-samples.csv} ({@link #SAMPLE_US}) and what a
 * call adds to a loop of barriers to {@code raw-added-to-barrier.csv} ({@link #ADDED_US}, decision 0232). Both are
 * read by the one method here, into the accumulator each figure keeps ({@link Samples},
 * {@link AddedToBarrierSamples}); a malformed line is an error naming the file and line ({@link CsvRows}). Stateless.
 */
public final class RawSamples {
    /** The last column of {@code raw-samples.csv}. */
    public static final String SAMPLE_US = "sample_us";
    /** The last column of {@code raw-added-to-barrier.csv}. */
    public static final String ADDED_US = "added_us";

    private RawSamples() {
    }

    /**
     * Every point of {@code file}: algorithm label, then size, each in the order of its first line, to an accumulator made by
     * {@code newPoint} that {@code addUs} has given every sample of the point, in file order.
     *
     * @param figureColumn the last column's name, for errors ({@link #SAMPLE_US}, {@link #ADDED_US})
     */
    public static <S> Map<String, Map<Long, S>> read(Path file, String figureColumn, Supplier<S> newPoint,
                                                     ObjDoubleConsumer<S> addUs) throws IOException {
        Map<String, Map<Long, S>> byLabel = new LinkedHashMap<>();
        CsvRows.forEach(file, List.of("algorithm", "size_bytes", figureColumn), row -> {
            S point = byLabel.computeIfAbsent(row.text(0), k -> new LinkedHashMap<>())
                    .computeIfAbsent(row.wholeNumber(1), k -> newPoint.get());
            addUs.accept(point, row.number(2));
        });
        return byLabel;
    }
}
