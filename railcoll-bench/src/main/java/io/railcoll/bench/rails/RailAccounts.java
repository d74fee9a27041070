package io.railcoll.bench.rails;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The rail accounting of a whole run: one {@link PointAccount} per (what ran, size), and one line saying what the
 * counters could see on this network ({@link #scope}). Built by the bench command, read by the table, the CSV and
 * the report. Not thread-safe while filled.
 */
public final class RailAccounts {
    private final String scope;
    private final Map<RailLedger.Point, PointAccount> points = new LinkedHashMap<>();

    /**
     * @param scope what was counted, e.g. {@code kernel byte counters of rail0, rail1 in every node's namespace;
     *              2 rails x 2 Gbit/s}, or why nothing was ({@code loopback rails: not separable})
     */
    public RailAccounts(String scope) {
        this.scope = Objects.requireNonNull(scope, "scope");
    }

    /** No accounting at all (a report rebuilt from a CSV, a test). */
    public static RailAccounts none() {
        return new RailAccounts("");
    }

    public String scope() {
        return scope;
    }

    public void put(String label, long sizeBytes, PointAccount account) {
        points.put(new RailLedger.Point(label, sizeBytes), account);
    }

    public Optional<PointAccount> get(String label, long sizeBytes) {
        return Optional.ofNullable(points.get(new RailLedger.Point(label, sizeBytes)));
    }

    public boolean isEmpty() {
        return points.isEmpty();
    }

    /** Whether any point had its bytes counted. */
    public boolean counted() {
        return points.values().stream().anyMatch(p -> p.traffic().isPresent());
    }

    /** Every impossible point, in the order they were put, as {@code label at size: reason}. */
    public List<String> impossible() {
        List<String> out = new ArrayList<>();
        for (var e : points.entrySet()) {
            if (e.getValue().verdict().impossible()) {
                out.add(e.getKey().label() + " at " + e.getKey().sizeBytes() + " bytes: " + e.getValue().verdict().reason());
            }
        }
        return out;
    }
}
