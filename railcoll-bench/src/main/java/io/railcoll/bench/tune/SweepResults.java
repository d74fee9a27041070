package io.railcoll.bench.tune;

import io.railcoll.bench.report.CsvRows;
import io.railcoll.schedule.Collective;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The samples a {@link SweepApp} run wrote, by collective, size and algorithm label, with their minimum and median.
 * Immutable once read.
 */
public final class SweepResults {
    /** One point: a collective, a block size and an algorithm label ({@code allgather.ring}, {@code auto:allgather.ring}). */
    public record Key(Collective collective, long sizeBytes, String label) {
    }

    private static final List<String> COLUMNS = List.of("collective", "algorithm", "size_bytes", "sample_ns");

    private final Map<Collective, Map<Long, Map<String, long[]>>> samples;

    private SweepResults(Map<Collective, Map<Long, Map<String, long[]>>> samples) {
        this.samples = samples;
    }

    /** Reads the lines {@code collective,algorithm,size_bytes,sample_ns} of one file. */
    public static SweepResults read(Path file) throws IOException {
        return read(List.of(file));
    }

    /**
     * Reads the lines of several files as one sweep. A job stopped from outside (see {@link SweepApp}) may have left its
     * last line cut short; that line is passed over. Any other malformed line is an error naming the file and line.
     */
    public static SweepResults read(List<Path> files) throws IOException {
        Map<Collective, Map<Long, Map<String, List<Long>>>> raw = new TreeMap<>();
        for (Path file : files) {
            CsvRows.forEachFinished(file, COLUMNS, row ->
                    raw.computeIfAbsent(Collective.fromId(row.text(0)), c -> new TreeMap<>())
                            .computeIfAbsent(row.wholeNumber(2), s -> new TreeMap<>())
                            .computeIfAbsent(row.text(1), a -> new ArrayList<>())
                            .add(row.wholeNumber(3)));
        }
        Map<Collective, Map<Long, Map<String, long[]>>> out = new TreeMap<>();
        raw.forEach((c, bySize) -> bySize.forEach((size, byLabel) -> byLabel.forEach((label, list) ->
                out.computeIfAbsent(c, x -> new TreeMap<>()).computeIfAbsent(size, x -> new TreeMap<>())
                        .put(label, list.stream().mapToLong(Long::longValue).sorted().toArray()))));
        return new SweepResults(out);
    }

    public List<Collective> collectives() {
        return List.copyOf(samples.keySet());
    }

    public List<Long> sizes(Collective c) {
        return List.copyOf(samples.getOrDefault(c, Map.of()).keySet());
    }

    /** Labels measured for (c, size), in name order. */
    public List<String> labels(Collective c, long size) {
        return List.copyOf(samples.getOrDefault(c, Map.of()).getOrDefault(size, Map.of()).keySet());
    }

    /** The forced algorithms measured for (c, size): labels without {@code auto:}. */
    public List<String> algorithms(Collective c, long size) {
        return labels(c, size).stream().filter(l -> !l.startsWith("auto:")).toList();
    }

    /** The label of the auto samples of (c, size), if any. */
    public Optional<String> autoLabel(Collective c, long size) {
        return labels(c, size).stream().filter(l -> l.startsWith("auto:")).findFirst();
    }

    /**
     * How a point's samples are summarised. The minimum is what the experiments use by default: on a machine shared
     * with other people's jobs a sample can be ten times its neighbour, and outside load only ever adds time, so the
     * fastest sample is the one least disturbed. The median is reported beside it.
     */
    public enum Statistic {
        MIN,
        MEDIAN
    }

    /** The point's samples summarised by {@code statistic} (the median is the lower middle one for an even count), in ns. */
    public double ns(Statistic statistic, Collective c, long size, String label) {
        long[] s = samples.get(c).get(size).get(label);
        return statistic == Statistic.MIN ? s[0] : s[(s.length - 1) / 2];
    }

    public long[] samplesNs(Collective c, long size, String label) {
        return Arrays.copyOf(samples.get(c).get(size).get(label), samples.get(c).get(size).get(label).length);
    }

    /** The forced algorithm with the lowest {@code statistic} at (c, size). */
    public String fastest(Statistic statistic, Collective c, long size) {
        String best = null;
        for (String a : algorithms(c, size)) {
            if (best == null || ns(statistic, c, size, a) < ns(statistic, c, size, best)) {
                best = a;
            }
        }
        return best;
    }
}
