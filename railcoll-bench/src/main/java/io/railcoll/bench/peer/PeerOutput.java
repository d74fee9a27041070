package io.railcoll.bench.peer;

import io.railcoll.bench.report.AddedToBarrierSamples;
import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.report.Samples;
import io.railcoll.bench.report.Series;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What peer_bench printed, parsed. Its stdout holds CSV records whose first field is the type:
 * <pre>
 * info,library,"Open MPI v4.1.4, package: Debian OpenMPI, ..."
 * info,ranks,2
 * where,0,net:[4026531833],host1           (rank, network namespace, host name: one per rank)
 * check,allgather,2,1024,ok                 (or ...,FAILED,&lt;ranks with wrong bytes&gt;)
 * sample,allgather,2,1024,1000,0,2.106       (collective, ranks, size_bytes, iterations, sample index, latency_us)
 * sample,allgather,2,1,1000,0,0.706,0.240    (... and, at small sizes, added_us: what a call adds to a loop of
 *                                            barriers, the slowest rank's, decision 0232)
 * done,allgather,2
 * </pre>
 * Lines of any other shape (mpirun can write its own notices to the same stream) are kept in
 * {@link #otherLines} for error messages rather than rejected. Read-only once parsed.
 *
 * @param samplesBySize per size, the samples in microseconds (max over ranks of each rank's average)
 * @param iterationsBySize per size, the timed calls per sample (the last sample's: they are all the same)
 * @param addedBySize   per size that has them, the samples of what a call adds to a loop of barriers
 * @param complete      whether the closing {@code done} record was seen
 * @param railLines     the {@code rails,...} records of rail accounting, as printed (read by
 *                      {@code io.railcoll.bench.rails.RailLedger})
 * @param where         where each rank ran, as it reported (checked by {@link PeerWhereCheck} on the testbed)
 */
public record PeerOutput(String library, String collective, int ranks, List<Check> checks,
                         SortedMap<Long, Samples> samplesBySize, SortedMap<Long, Integer> iterationsBySize,
                         SortedMap<Long, AddedToBarrierSamples> addedBySize, boolean complete, List<String> otherLines, List<String> railLines,
                         List<Where> where) {

    /** Where one rank ran: its network namespace ({@code net:[inode]}) and host name. */
    public record Where(int rank, String netns, String host) {
    }

    /** The outcome of {@code --check} at one size; {@code badRanks} is how many ranks saw wrong bytes. */
    public record Check(long sizeBytes, boolean ok, int badRanks) {
    }

    public static PeerOutput parse(String stdout) {
        String library = "";
        String collective = "";
        int ranks = 0;
        List<Check> checks = new ArrayList<>();
        SortedMap<Long, Samples> samples = new TreeMap<>();
        SortedMap<Long, Integer> iterations = new TreeMap<>();
        SortedMap<Long, AddedToBarrierSamples> added = new TreeMap<>();
        boolean complete = false;
        List<String> other = new ArrayList<>();
        List<String> rails = new ArrayList<>();
        List<Where> where = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            CSVRecord r = recordOf(line.strip());
            String type = r == null ? "" : r.get(0);
            try {
                switch (type) {
                    case "info" -> {
                        if (r.get(1).equals("library")) {
                            library = r.get(2);
                        } else if (r.get(1).equals("ranks")) {
                            ranks = Integer.parseInt(r.get(2));
                        }
                    }
                    case "check" -> {
                        collective = r.get(1);
                        boolean ok = r.get(4).equals("ok");
                        checks.add(new Check(Long.parseLong(r.get(3)), ok, ok ? 0 : Integer.parseInt(r.get(5))));
                    }
                    case "sample" -> {
                        // Every field is read before anything is stored, so a truncated line leaves no trace.
                        String name = r.get(1);
                        int n = Integer.parseInt(r.get(2));
                        long size = Long.parseLong(r.get(3));
                        int calls = Integer.parseInt(r.get(4));
                        double latencyUs = Double.parseDouble(r.get(6));
                        String addedField = r.size() > 7 ? r.get(7) : "";
                        double addedUs = addedField.isEmpty() ? Double.NaN : Double.parseDouble(addedField);
                        if (!addedField.isEmpty() && !Double.isFinite(addedUs)) {
                            throw new IllegalArgumentException("not a time: " + addedField);
                        }
                        collective = name;
                        ranks = n;
                        samples.computeIfAbsent(size, k -> new Samples()).addUs(latencyUs);
                        iterations.put(size, calls);
                        if (!addedField.isEmpty()) {
                            added.computeIfAbsent(size, k -> new AddedToBarrierSamples()).addUs(addedUs);
                        }
                    }
                    case "done" -> complete = true;
                    case "rails" -> rails.add(line.strip());
                    case "where" -> {
                        Where w = new Where(Integer.parseInt(r.get(1)), r.get(2), r.get(3));
                        where.add(w);
                    }
                    default -> {
                        if (!line.isBlank()) {
                            other.add(line);
                        }
                    }
                }
            } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
                // A truncated or foreign line that happens to start with a known word: keep it for the message.
                other.add(line);
            }
        }
        return new PeerOutput(library, collective, ranks, List.copyOf(checks), Collections.unmodifiableSortedMap(samples),
                Collections.unmodifiableSortedMap(iterations), Collections.unmodifiableSortedMap(added),
                complete, List.copyOf(other), List.copyOf(rails), List.copyOf(where));
    }

    private static CSVRecord recordOf(String line) {
        if (line.isEmpty()) {
            return null;
        }
        try (CSVParser parser = CSVParser.parse(line, CSVFormat.DEFAULT)) {
            List<CSVRecord> records = parser.getRecords();
            return records.isEmpty() ? null : records.getFirst();
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            // Reading a String cannot fail on I/O: this is a line that is not CSV at all, such as an
            // mpirun notice with an unbalanced quote. It is kept as an "other" line.
            return null;
        }
    }

    /** Sizes whose check failed. */
    public List<Check> failedChecks() {
        return checks.stream().filter(c -> !c.ok()).toList();
    }

    /** One result per size, labelled with {@code series}, with the figure added to a barrier loop where printed. */
    public List<BenchResult> results(Series series) {
        List<BenchResult> results = new ArrayList<>();
        for (Map.Entry<Long, Samples> e : samplesBySize.entrySet()) {
            results.add(BenchResult.of(series, e.getKey(), e.getValue(), addedBySize.get(e.getKey())));
        }
        return results;
    }
}
