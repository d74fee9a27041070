package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The comparison behind every view of a sweep: for one scenario (collective on one placement), rows
 * are message sizes, columns are what ran (algorithms, then the peer), cells are median latencies.
 * Per row it knows the best railcoll column, the runner-up, the speedup of the best over the best flat
 * algorithm, and the ratio of the best to the peer. Where points carry what a call adds to a loop of barriers
 * ({@link AddedToBarrier}, decision 0232), each row also has those figures per column, the smallest railcoll one and
 * its ratio to each peer's. The console table, the Markdown report and the plots all render this one object, so they
 * cannot disagree.
 *
 * <p>Columns are keyed by (algorithm, engine, rails); a label shows the engine or rail count only when
 * those differ between columns, and drops the collective prefix of the id ({@code allgather.bruck}
 * becomes {@code bruck}) because the title names the collective. Immutable.
 */
public final class ResultTable {
    /** Samples of one point whose slowest is more than this many times the fastest are flagged. */
    public static final double SPREAD_LIMIT = 2.0;

    /** A column: one algorithm (or the peer) on one engine and rail count. */
    public record Column(String label, String algorithm, String engine, int rails, boolean flat, boolean peer) {
    }

    /**
     * One message size.
     *
     * @param mediansUs      per column, the median latency, empty where that column has no point
     * @param minsUs         per column, the fastest sample
     * @param maxsUs         per column, the slowest sample
     * @param impossible     per column, whether rail accounting found the point impossible
     * @param refused        per column, whether its algorithm refused to run this size (no median: n/a)
     * @param best           index of the fastest non-peer column, or -1 if none has a point
     * @param runnerUp       index of the second fastest non-peer column, or -1
     * @param speedupOverFlat best flat latency / best latency (1.0 when a flat algorithm is best)
     * @param ratiosToPeers  per peer (in {@link #peerLabels()} order), best latency / that peer's latency (below 1:
     *                       railcoll is faster)
     * @param addedToBarrier per column, what a call adds to a loop of barriers, empty where not measured
     * @param addedBest      index of the non-peer column that adds the least, or -1 if none measured it
     * @param addedRatiosToPeers per peer, the least railcoll figure added / that peer's; empty unless both were
     *                       measured and are above 0 (a ratio of a difference at or below 0 says nothing)
     */
    public record Row(long sizeBytes, List<OptionalDouble> mediansUs, List<OptionalDouble> minsUs,
                      List<OptionalDouble> maxsUs, List<Boolean> impossible, List<Boolean> refused, int best,
                      int runnerUp, OptionalDouble speedupOverFlat, List<OptionalDouble> ratiosToPeers,
                      List<Optional<AddedToBarrier>> addedToBarrier, int addedBest,
                      List<OptionalDouble> addedRatiosToPeers) {

        /** The ratio to the first peer, if one ran. */
        public OptionalDouble ratioToPeer() {
            return ratiosToPeers.isEmpty() ? OptionalDouble.empty() : ratiosToPeers.getFirst();
        }

        /** Whether column {@code c}'s samples spread more than {@value #SPREAD_LIMIT}x (slowest / fastest). */
        public boolean widelySpread(int c) {
            return minsUs.get(c).isPresent() && minsUs.get(c).getAsDouble() > 0
                    && maxsUs.get(c).getAsDouble() / minsUs.get(c).getAsDouble() > SPREAD_LIMIT;
        }

        /** How many times faster the best is than the runner-up, if there is one. */
        public OptionalDouble marginOverRunnerUp() {
            if (best < 0 || runnerUp < 0) {
                return OptionalDouble.empty();
            }
            return ratio(mediansUs.get(runnerUp).getAsDouble(), mediansUs.get(best).getAsDouble());
        }
    }

    /** Consecutive sizes won by the same column, with the range of its margins over the runner-up. */
    public record WinningRange(long fromBytes, long toBytes, Column winner, OptionalDouble minMargin,
                               OptionalDouble maxMargin) {
    }

    private record ColumnKey(String algorithm, String engine, int rails) {
    }

    private record Scenario(Collective collective, int nodes, String ranksPerNode) {
    }

    private final Series first;
    private final String railsAndEngine;
    private final List<Column> columns;
    private final List<Row> rows;

    private ResultTable(Series first, String railsAndEngine, List<Column> columns, List<Row> rows) {
        this.first = first;
        this.railsAndEngine = railsAndEngine;
        this.columns = List.copyOf(columns);
        this.rows = List.copyOf(rows);
    }

    /**
     * One table per scenario (collective, nodes, ranks per node), in order of first appearance.
     *
     * @throws IllegalArgumentException if two results have the same series and size
     */
    public static List<ResultTable> build(List<BenchResult> results, TableOptions options) {
        Map<Scenario, List<BenchResult>> byScenario = new LinkedHashMap<>();
        for (BenchResult r : results) {
            Series s = r.series();
            byScenario.computeIfAbsent(new Scenario(s.collective(), s.nodes(), s.ranksPerNode()),
                    k -> new ArrayList<>()).add(r);
        }
        List<ResultTable> tables = new ArrayList<>();
        for (List<BenchResult> scenario : byScenario.values()) {
            tables.add(buildOne(scenario, options));
        }
        return tables;
    }

    private static ResultTable buildOne(List<BenchResult> results, TableOptions options) {
        // Algorithms keep their order of first appearance; the peer goes last, where a reader looks for it.
        Map<ColumnKey, Map<Long, BenchResult>> cells = new LinkedHashMap<>();
        for (BenchResult r : results) {
            Series s = r.series();
            Map<Long, BenchResult> column = cells.computeIfAbsent(new ColumnKey(s.algorithm(), s.engine(), s.rails()),
                    k -> new TreeMap<>());
            if (column.put(r.sizeBytes(), r) != null) {
                throw new IllegalArgumentException("two results for " + s + " at " + r.sizeBytes() + " bytes");
            }
        }
        List<ColumnKey> keys = new ArrayList<>(cells.keySet());
        keys.sort(Comparator.comparing(k -> options.isPeer(k.algorithm())));

        List<ColumnKey> own = keys.stream().filter(k -> !options.isPeer(k.algorithm())).toList();
        boolean enginesDiffer = own.stream().map(ColumnKey::engine).distinct().count() > 1;
        boolean railsDiffer = own.stream().map(ColumnKey::rails).distinct().count() > 1;
        Collective collective = results.getFirst().series().collective();
        List<Column> columns = new ArrayList<>();
        for (ColumnKey k : keys) {
            boolean peer = options.isPeer(k.algorithm());
            String label = peer ? k.algorithm() : label(k, collective, enginesDiffer, railsDiffer);
            columns.add(new Column(label, k.algorithm(), k.engine(), k.rails(),
                    !peer && options.flatAlgorithms().contains(k.algorithm()), peer));
        }

        TreeSet<Long> sizes = new TreeSet<>();
        cells.values().forEach(c -> sizes.addAll(c.keySet()));
        List<Row> rows = new ArrayList<>();
        for (long size : sizes) {
            List<OptionalDouble> medians = new ArrayList<>();
            List<OptionalDouble> mins = new ArrayList<>();
            List<OptionalDouble> maxs = new ArrayList<>();
            List<Boolean> impossible = new ArrayList<>();
            List<Boolean> refused = new ArrayList<>();
            List<Optional<AddedToBarrier>> added = new ArrayList<>();
            for (ColumnKey k : keys) {
                BenchResult r = cells.get(k).get(size);
                added.add(r == null ? Optional.empty() : r.addedToBarrier());
                medians.add(r == null ? OptionalDouble.empty() : OptionalDouble.of(r.latencyUsMedian()));
                mins.add(r == null ? OptionalDouble.empty() : OptionalDouble.of(r.latencyUsMin()));
                maxs.add(r == null ? OptionalDouble.empty() : OptionalDouble.of(r.latencyUsMax()));
                impossible.add(r != null && options.accounts().get(k.algorithm(), size)
                        .map(a -> a.verdict().impossible()).orElse(false));
                refused.add(r == null && options.refused(k.algorithm(), size));
            }
            rows.add(row(size, medians, mins, maxs, impossible, refused, added, columns));
        }

        // What all columns share goes in the title instead of every label.
        List<String> shared = new ArrayList<>();
        if (!own.isEmpty() && !railsDiffer) {
            shared.add(railsText(own.getFirst().rails()));
        }
        if (!own.isEmpty() && !enginesDiffer) {
            shared.add("engine " + own.getFirst().engine());
        }
        return new ResultTable(results.getFirst().series(), String.join(", ", shared), columns, rows);
    }

    private static String label(ColumnKey k, Collective collective, boolean enginesDiffer, boolean railsDiffer) {
        String prefix = collective.id() + ".";
        String label = k.algorithm().startsWith(prefix) ? k.algorithm().substring(prefix.length()) : k.algorithm();
        if (enginesDiffer) {
            label += " [" + k.engine() + "]";
        }
        if (railsDiffer) {
            label += " [" + k.rails() + "r]";
        }
        return label;
    }

    private static Row row(long size, List<OptionalDouble> medians, List<OptionalDouble> mins, List<OptionalDouble> maxs,
                           List<Boolean> impossible, List<Boolean> refused, List<Optional<AddedToBarrier>> added,
                           List<Column> columns) {
        int best = -1;
        int runnerUp = -1;
        int bestFlat = -1;
        List<Integer> peers = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            if (columns.get(c).peer()) {
                peers.add(c);
                continue;
            }
            if (medians.get(c).isEmpty()) {
                continue;
            }
            double v = medians.get(c).getAsDouble();
            if (best < 0 || v < value(medians, best)) {
                runnerUp = best;
                best = c;
            } else if (runnerUp < 0 || v < value(medians, runnerUp)) {
                runnerUp = c;
            }
            if (columns.get(c).flat() && (bestFlat < 0 || v < value(medians, bestFlat))) {
                bestFlat = c;
            }
        }
        OptionalDouble speedup = best >= 0 && bestFlat >= 0
                ? ratio(value(medians, bestFlat), value(medians, best)) : OptionalDouble.empty();
        List<OptionalDouble> toPeers = new ArrayList<>();
        for (int peer : peers) {
            toPeers.add(best >= 0 && medians.get(peer).isPresent()
                    ? ratio(value(medians, best), value(medians, peer)) : OptionalDouble.empty());
        }
        int addedBest = -1;
        for (int c = 0; c < columns.size(); c++) {
            if (!columns.get(c).peer() && added.get(c).isPresent()
                    && (addedBest < 0 || addedMedian(added, c) < addedMedian(added, addedBest))) {
                addedBest = c;
            }
        }
        List<OptionalDouble> addedToPeers = new ArrayList<>();
        for (int peer : peers) {
            addedToPeers.add(addedBest >= 0 && added.get(peer).isPresent() && addedMedian(added, addedBest) > 0
                    ? ratio(addedMedian(added, addedBest), addedMedian(added, peer)) : OptionalDouble.empty());
        }
        return new Row(size, List.copyOf(medians), List.copyOf(mins), List.copyOf(maxs), List.copyOf(impossible),
                List.copyOf(refused), best, runnerUp, speedup, List.copyOf(toPeers), List.copyOf(added), addedBest,
                List.copyOf(addedToPeers));
    }

    private static double addedMedian(List<Optional<AddedToBarrier>> added, int column) {
        return added.get(column).orElseThrow().medianUs();
    }

    private static double value(List<OptionalDouble> medians, int column) {
        return medians.get(column).getAsDouble();
    }

    /** a / b, empty when b is 0 (a barrier or 0-byte point can measure as 0 us at our resolution). */
    private static OptionalDouble ratio(double a, double b) {
        return b > 0 ? OptionalDouble.of(a / b) : OptionalDouble.empty();
    }

    private static String railsText(int rails) {
        return rails == 1 ? "1 rail" : rails + " rails";
    }

    public Collective collective() {
        return first.collective();
    }

    /** {@code allgather: 4 nodes x 4 ranks, 2 rails, engine shm}. */
    public String title() {
        return first.collective().id() + ": " + first.placementLabel()
                + (railsAndEngine.isEmpty() ? "" : ", " + railsAndEngine);
    }

    /** A file-name stem for this table's outputs: {@code allgather-4x4} or {@code allgather-3-4-2}. */
    public String slug() {
        String placement = first.ranksPerNode().contains(",")
                ? first.ranksPerNode().replace(",", "-").replace(" ", "")
                : first.nodes() + "x" + first.ranksPerNode();
        return first.collective().id() + "-" + placement;
    }

    public List<Column> columns() {
        return columns;
    }

    public List<Row> rows() {
        return rows;
    }

    /** True when at least one flat algorithm is present, so the speedup column means something. */
    public boolean hasSpeedup() {
        return rows.stream().anyMatch(r -> r.speedupOverFlat().isPresent());
    }

    public boolean hasPeer() {
        return columns.stream().anyMatch(Column::peer);
    }

    /** The first peer's column label, if a peer ran. */
    public String peerLabel() {
        return columns.stream().filter(Column::peer).map(Column::label).findFirst().orElse("peer");
    }

    /** Every peer's column label, in column order (the order of {@link Row#ratiosToPeers()}). */
    public List<String> peerLabels() {
        return columns.stream().filter(Column::peer).map(Column::label).toList();
    }

    /** Whether any point of this table carries what a call adds to a loop of barriers (decision 0232). */
    public boolean hasAddedToBarrier() {
        return rows.stream().anyMatch(r -> r.addedToBarrier().stream().anyMatch(Optional::isPresent));
    }

    /** The columns with at least one point that carries what a call adds to a loop of barriers, in column order. */
    public List<Integer> addedColumns() {
        List<Integer> out = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            int column = c;
            if (rows.stream().anyMatch(r -> r.addedToBarrier().get(column).isPresent())) {
                out.add(c);
            }
        }
        return out;
    }

    /** Whether any peer's point of this table carries it, so the table has ratios of it. */
    public boolean hasAddedRatios() {
        return rows.stream().anyMatch(r -> {
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).peer() && r.addedToBarrier().get(c).isPresent()) {
                    return true;
                }
            }
            return false;
        });
    }

    /** Whether any point of this table was found impossible. */
    public boolean hasImpossible() {
        return rows.stream().anyMatch(r -> r.impossible().contains(true));
    }

    /** Whether any algorithm refused a size of this table (its cell reads n/a). */
    public boolean hasRefused() {
        return rows.stream().anyMatch(r -> r.refused().contains(true));
    }

    /** Whether any point's samples spread more than {@link #SPREAD_LIMIT}x. */
    public boolean hasWideSpread() {
        for (Row r : rows) {
            for (int c = 0; c < columns.size(); c++) {
                if (r.widelySpread(c)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Winners by size, consecutive sizes with the same winner merged into one range. */
    public List<WinningRange> winners() {
        List<WinningRange> ranges = new ArrayList<>();
        int i = 0;
        while (i < rows.size()) {
            Row start = rows.get(i);
            if (start.best() < 0) {
                i++;
                continue;
            }
            int j = i;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            while (j < rows.size() && rows.get(j).best() == start.best()) {
                OptionalDouble margin = rows.get(j).marginOverRunnerUp();
                if (margin.isPresent()) {
                    min = Math.min(min, margin.getAsDouble());
                    max = Math.max(max, margin.getAsDouble());
                }
                j++;
            }
            boolean anyMargin = min <= max;
            ranges.add(new WinningRange(start.sizeBytes(), rows.get(j - 1).sizeBytes(), columns.get(start.best()),
                    anyMargin ? OptionalDouble.of(min) : OptionalDouble.empty(),
                    anyMargin ? OptionalDouble.of(max) : OptionalDouble.empty()));
            i = j;
        }
        return ranges;
    }
}
