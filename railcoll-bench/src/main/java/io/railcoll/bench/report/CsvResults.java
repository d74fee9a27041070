package io.railcoll.bench.report;

import io.railcoll.bench.rails.RailAccounts;
import io.railcoll.schedule.Collective;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Results as CSV, one row per point, and back. Columns, in order:
 * {@code collective, algorithm, nodes, ranks_per_node, rails, engine, size_bytes, latency_us_median,
 * latency_us_min, latency_us_max, samples}; then {@code added_to_barrier_us_median, added_to_barrier_us_min,
 * added_to_barrier_us_max} when any result has that figure (what a call adds to a loop of barriers, decision 0232;
 * empty in rows without it: large sizes, barriers, a peer that does not measure it); then {@code bandwidth_mbit_s}
 * when any result has a bandwidth (empty in rows without one). Latencies have three decimals (nanoseconds); {@code ranks_per_node} is a
 * number or, for uneven placements, a quoted list such as {@code "3,4,2"}. Stateless.
 */
public final class CsvResults {
    static final List<String> COLUMNS = List.of("collective", "algorithm", "nodes", "ranks_per_node", "rails",
            "engine", "size_bytes", "latency_us_median", "latency_us_min", "latency_us_max", "samples");
    /** What a call adds to a loop of barriers: median, fastest and slowest sample, us (decision 0232). */
    static final List<String> ADDED_TO_BARRIER = List.of("added_to_barrier_us_median", "added_to_barrier_us_min",
            "added_to_barrier_us_max");
    static final String BANDWIDTH = "bandwidth_mbit_s";
    /**
     * Rail accounting: bytes per call received on each rail (all nodes; {@code rail0=...;rail1=...}), into the busiest
     * node, what the collective must bring there, the floor at the rails' rate, the figure's share of it, the rate
     * reached into the busiest node, {@code ok} or {@code IMPOSSIBLE: reason}, and the bytes per call sent on each rail
     * (all nodes), the other direction of the same counters.
     */
    static final List<String> ACCOUNTING = List.of("rail_bytes_per_call", "busiest_node_bytes_per_call",
            "required_bytes_per_call", "floor_us", "share_of_limit", "rate_reached_gbit_s", "verdict",
            "rail_sent_bytes_per_call");

    private CsvResults() {
    }

    public static void write(Path file, List<BenchResult> results) {
        write(file, results, RailAccounts.none());
    }

    /** With rail accounting: its columns ({@link #ACCOUNTING}) follow the others when any point was accounted. */
    public static void write(Path file, List<BenchResult> results, RailAccounts accounts) {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(out, results, accounts);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static void write(Appendable out, List<BenchResult> results) throws IOException {
        write(out, results, RailAccounts.none());
    }

    public static void write(Appendable out, List<BenchResult> results, RailAccounts accounts) throws IOException {
        boolean added = results.stream().anyMatch(r -> r.addedToBarrier().isPresent());
        boolean bandwidth = results.stream().anyMatch(r -> r.bandwidthMbitS().isPresent());
        boolean accounted = !accounts.isEmpty();
        List<String> header = new ArrayList<>(COLUMNS);
        if (added) {
            header.addAll(ADDED_TO_BARRIER);
        }
        if (bandwidth) {
            header.add(BANDWIDTH);
        }
        if (accounted) {
            header.addAll(ACCOUNTING);
        }
        CSVFormat format = CSVFormat.DEFAULT.builder()
                .setHeader(header.toArray(String[]::new))
                .setRecordSeparator('\n')
                .get();
        try (CSVPrinter printer = new CSVPrinter(out, format)) {
            for (BenchResult r : results) {
                Series s = r.series();
                List<Object> row = new ArrayList<>(List.of(s.collective().id(), s.algorithm(), s.nodes(),
                        s.ranksPerNode(), s.rails(), s.engine(), r.sizeBytes(), micros(r.latencyUsMedian()),
                        micros(r.latencyUsMin()), micros(r.latencyUsMax()), r.samples()));
                if (added) {
                    row.addAll(r.addedToBarrier().map(a -> List.of(micros(a.medianUs()), micros(a.minUs()),
                            micros(a.maxUs()))).orElse(List.of("", "", "")));
                }
                if (bandwidth) {
                    row.add(r.bandwidthMbitS().isPresent()
                            ? String.format(Locale.ROOT, "%.1f", r.bandwidthMbitS().getAsDouble()) : "");
                }
                if (accounted) {
                    row.addAll(accountingCells(r, accounts));
                }
                printer.printRecord(row);
            }
        }
    }

    /** Reads what {@link #write} wrote, so a report can be rebuilt from a saved run. */
    public static List<BenchResult> read(Reader in) throws IOException {
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
        List<BenchResult> results = new ArrayList<>();
        for (CSVRecord rec : format.parse(in)) {
            Series series = new Series(Collective.fromId(rec.get("collective")), rec.get("algorithm"),
                    Integer.parseInt(rec.get("nodes")), rec.get("ranks_per_node"), Integer.parseInt(rec.get("rails")),
                    rec.get("engine"));
            String bandwidth = rec.isMapped(BANDWIDTH) ? rec.get(BANDWIDTH) : "";
            String addedMedian = rec.isMapped(ADDED_TO_BARRIER.getFirst()) ? rec.get(ADDED_TO_BARRIER.getFirst()) : "";
            Optional<AddedToBarrier> added = addedMedian.isEmpty() ? Optional.empty()
                    : Optional.of(new AddedToBarrier(Double.parseDouble(addedMedian),
                    Double.parseDouble(rec.get(ADDED_TO_BARRIER.get(1))), Double.parseDouble(rec.get(ADDED_TO_BARRIER.get(2)))));
            results.add(new BenchResult(series, Long.parseLong(rec.get("size_bytes")),
                    Double.parseDouble(rec.get("latency_us_median")), Double.parseDouble(rec.get("latency_us_min")),
                    Double.parseDouble(rec.get("latency_us_max")), Integer.parseInt(rec.get("samples")),
                    bandwidth.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(bandwidth)), added));
        }
        return results;
    }

    private static List<Object> accountingCells(BenchResult r, RailAccounts accounts) {
        var account = accounts.get(r.series().algorithm(), r.sizeBytes());
        if (account.isEmpty()) {
            return List.of("", "", "", "", "", "", "", "");
        }
        var traffic = account.get().traffic();
        var limit = account.get().limit();
        String perRail = traffic.map(t -> {
            List<String> parts = new ArrayList<>();
            for (int k = 0; k < t.rails(); k++) {
                parts.add(t.interfaces().get(k) + "=" + Math.round(t.intoRailPerCall(k)));
            }
            return String.join(";", parts);
        }).orElse("");
        String sentPerRail = traffic.map(t -> {
            List<String> parts = new ArrayList<>();
            for (int k = 0; k < t.rails(); k++) {
                parts.add(t.interfaces().get(k) + "=" + Math.round(t.outOfRailPerCall(k)));
            }
            return String.join(";", parts);
        }).orElse("");
        return List.of(perRail,
                traffic.map(t -> Long.toString(Math.round(t.intoBusiestNodePerCall()))).orElse(""),
                limit.map(l -> Long.toString(l.intoBusiestNodeBytes())).orElse(""),
                limit.map(l -> micros(l.floorUs())).orElse(""),
                limit.filter(l -> l.intoBusiestNodeBytes() > 0)
                        .map(l -> String.format(Locale.ROOT, "%.3f", l.shareOf(r.latencyUsMedian()))).orElse(""),
                traffic.filter(t -> r.latencyUsMedian() > 0).map(t -> String.format(Locale.ROOT, "%.3f",
                        t.intoBusiestNodePerCall() * 8 / r.latencyUsMedian() / 1000)).orElse(""),
                account.get().verdict().impossible() ? "IMPOSSIBLE: " + account.get().verdict().reason() : "ok",
                sentPerRail);
    }

    private static String micros(double us) {
        return String.format(Locale.ROOT, "%.3f", us);
    }
}
