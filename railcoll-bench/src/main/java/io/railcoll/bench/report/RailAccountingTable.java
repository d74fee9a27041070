package io.railcoll.bench.report;

import io.railcoll.bench.rails.PhysicalLimit;
import io.railcoll.bench.rails.PointAccount;
import io.railcoll.bench.rails.RailAccounts;
import io.railcoll.bench.rails.RailTraffic;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The report's rail-accounting table of one scenario: per column and size, the physical limit, the figure as a share
 * of it, the bytes per call each rail carried (received, all nodes), the bytes into the busiest node against what the
 * collective must bring there, the rate reached there, and the verdict. Stateless.
 */
final class RailAccountingTable {
    private RailAccountingTable() {
    }

    static void append(StringBuilder md, ResultTable table, RailAccounts accounts) {
        List<String[]> rows = new ArrayList<>();
        List<String> interfaces = List.of();
        for (int c = 0; c < table.columns().size(); c++) {
            ResultTable.Column column = table.columns().get(c);
            for (ResultTable.Row row : table.rows()) {
                if (row.mediansUs().get(c).isEmpty()) {
                    continue;
                }
                Optional<PointAccount> account = accounts.get(column.algorithm(), row.sizeBytes());
                if (account.isEmpty()) {
                    continue;
                }
                double median = row.mediansUs().get(c).getAsDouble();
                if (account.get().traffic().isPresent()) {
                    interfaces = account.get().traffic().get().interfaces();
                }
                rows.add(cells(column.label(), row.sizeBytes(), median, account.get()));
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("\nRail accounting (").append(accounts.scope().replace("|", "\\|")).append("): bytes per call counted by ")
                .append("the kernel on each rail (received / sent, summed over nodes), the bytes into the busiest node against ")
                .append("what the collective must bring there, the rate reached there, and the limit of the case.\n\n");
        List<String> header = new ArrayList<>(List.of("what", "size", "median us", "floor us", "share of limit"));
        for (String iface : interfaces) {
            header.add(iface + " B/call in / out");
        }
        header.addAll(List.of("busiest node B/call (must)", "rate reached", "verdict"));
        md.append("| ").append(String.join(" | ", header)).append(" |\n");
        md.append("|---|---").append("|---:".repeat(header.size() - 3)).append("|---|\n");
        for (String[] r : rows) {
            List<String> cells = new ArrayList<>(List.of(r).subList(0, 5));
            String[] perRail = r[5].isEmpty() ? new String[0] : r[5].split(";");
            for (int i = 0; i < interfaces.size(); i++) {
                cells.add(i < perRail.length ? perRail[i] : "-");
            }
            cells.addAll(List.of(r[6], r[7], r[8]));
            md.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
    }

    private static String[] cells(String label, long size, double medianUs, PointAccount a) {
        Optional<PhysicalLimit> limit = a.limit();
        Optional<RailTraffic> traffic = a.traffic();
        String floor = limit.map(l -> Numbers.latencyUs(l.floorUs())).orElse("-");
        String share = limit.filter(l -> l.intoBusiestNodeBytes() > 0)
                .map(l -> String.format(Locale.ROOT, "%.0f%%", 100 * l.shareOf(medianUs))).orElse("-");
        String perRail = traffic.map(t -> {
            List<String> parts = new ArrayList<>();
            for (int r = 0; r < t.rails(); r++) {
                parts.add(bytes(t.intoRailPerCall(r)) + " / " + bytes(t.outOfRailPerCall(r)));
            }
            return String.join(";", parts);
        }).orElse("");
        String busiest = traffic.map(t -> bytes(t.intoBusiestNodePerCall())).orElse("not counted")
                + limit.map(l -> " (" + bytes(l.intoBusiestNodeBytes()) + ")").orElse("");
        String rate = traffic.filter(t -> medianUs > 0)
                .map(t -> String.format(Locale.ROOT, "%.2f Gbit/s", t.intoBusiestNodePerCall() * 8 / medianUs / 1000))
                .orElse("-");
        String verdict = a.verdict().impossible() ? "**IMPOSSIBLE**: " + a.verdict().reason().replace("|", "\\|") : "possible";
        return new String[] {label.replace("|", "\\|"), Sizes.label(size), Numbers.latencyUs(medianUs), floor, share,
                perRail, busiest, rate, verdict};
    }

    /** Bytes with a unit: 812 B, 12.6 KB, 13.2 MB (decimal, as counters and rates are). */
    static String bytes(double b) {
        if (b < 10_000) {
            return String.format(Locale.ROOT, "%.0f B", b);
        }
        if (b < 10_000_000) {
            return String.format(Locale.ROOT, "%.1f KB", b / 1e3);
        }
        return String.format(Locale.ROOT, "%.2f MB", b / 1e6);
    }
}
