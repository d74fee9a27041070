package io.railcoll.bench.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Renders a {@link ResultTable} as aligned plain text for the terminal: one row per size, one column
 * per algorithm with the best marked {@code *}, then "best/flat" (how many times faster the best is
 * than the best flat algorithm) and, with a peer, "best/peer" (below 1: railcoll is faster). Where points carry what a
 * call adds to a loop of barriers (decision 0232), one "added" column per series that has it follows, and with a peer
 * "added least/peer". Stateless.
 */
public final class ConsoleTableWriter {
    static final String BEST_MARK = "*";
    /** Rail accounting found the point impossible (faster than the rails allow, or its bytes went another way). */
    static final String IMPOSSIBLE_MARK = "!";
    /** The point's samples spread more than {@link ResultTable#SPREAD_LIMIT}x. */
    static final String SPREAD_MARK = "~";
    /** The header word of the columns of what a call adds to a loop of barriers. */
    static final String ADDED = "added";

    private ConsoleTableWriter() {
    }

    public static void write(PrintStream out, List<ResultTable> tables) {
        for (int i = 0; i < tables.size(); i++) {
            if (i > 0) {
                out.println();
            }
            out.print(render(tables.get(i)));
        }
        out.flush();
    }

    /** The table as lines ending in {@code \n}: title, header, rows, legend. */
    public static String render(ResultTable table) {
        List<String> header = new ArrayList<>();
        header.add("size");
        // Labels end in a space like the unmarked numbers below them, so they line up with the digits.
        table.columns().forEach(c -> header.add(c.label() + " "));
        if (table.hasSpeedup()) {
            header.add("best/flat");
        }
        for (String peer : table.peerLabels()) {
            header.add("best/" + peer);
        }
        List<Integer> added = table.addedColumns();
        added.forEach(c -> header.add(table.columns().get(c).label() + " " + ADDED));
        if (table.hasAddedRatios()) {
            table.peerLabels().forEach(peer -> header.add(ADDED + " least/" + peer));
        }
        List<List<String>> body = new ArrayList<>();
        for (ResultTable.Row row : table.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(Sizes.label(row.sizeBytes()));
            for (int c = 0; c < table.columns().size(); c++) {
                OptionalDouble v = row.mediansUs().get(c);
                // The mark sits after the number, and other cells get a space there, so digits stay aligned.
                cells.add(v.isEmpty() ? (row.refused().get(c) ? "n/a " : "- ") : Numbers.latencyUs(v.getAsDouble())
                        + (row.impossible().get(c) ? IMPOSSIBLE_MARK : "") + (row.widelySpread(c) ? SPREAD_MARK : "")
                        + (c == row.best() ? BEST_MARK : " "));
            }
            if (table.hasSpeedup()) {
                cells.add(row.speedupOverFlat().isPresent() ? Numbers.factor(row.speedupOverFlat().getAsDouble()) : "-");
            }
            for (var ratio : row.ratiosToPeers()) {
                cells.add(ratio.isPresent() ? Numbers.factor(ratio.getAsDouble()) : "-");
            }
            for (int c : added) {
                cells.add(row.addedToBarrier().get(c).map(a -> Numbers.latencyUs(a.medianUs()))
                        .orElse(row.refused().get(c) ? "n/a" : "-"));
            }
            if (table.hasAddedRatios()) {
                for (var ratio : row.addedRatiosToPeers()) {
                    cells.add(ratio.isPresent() ? Numbers.factor(ratio.getAsDouble()) : "-");
                }
            }
            body.add(cells);
        }

        int[] widths = new int[header.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = header.get(c).length();
            for (List<String> cells : body) {
                widths[c] = Math.max(widths[c], cells.get(c).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(table.title()).append(" - median latency (us)\n");
        appendLine(sb, header, widths);
        body.forEach(cells -> appendLine(sb, cells, widths));
        sb.append(BEST_MARK).append(" fastest railcoll algorithm");
        if (table.hasSpeedup()) {
            sb.append("; best/flat = best flat latency / best latency");
        }
        for (String peer : table.peerLabels()) {
            sb.append("; best/").append(peer).append(" = best latency / ").append(peer)
                    .append(" latency (below 1: railcoll faster)");
        }
        if (!added.isEmpty()) {
            sb.append("; ").append(ADDED).append(" = what one call adds to a loop of barriers, us (independent of which")
                    .append(" rank the barrier lets out first; docs/benchmarking.md)");
        }
        if (table.hasAddedRatios()) {
            sb.append("; ").append(ADDED).append(" least/<peer> = least railcoll ").append(ADDED).append(" / the peer's");
        }
        if (table.hasImpossible()) {
            sb.append("; ").append(IMPOSSIBLE_MARK).append(" IMPOSSIBLE by rail accounting (see report.md)");
        }
        if (table.hasRefused()) {
            sb.append("; n/a: the algorithm refuses that size (\"not run\" above says why)");
        }
        if (table.hasWideSpread()) {
            sb.append("; ").append(SPREAD_MARK).append(" samples spread more than ")
                    .append(Numbers.factor(ResultTable.SPREAD_LIMIT)).append(" (min/max in results.csv)");
        }
        sb.append('\n');
        return sb.toString();
    }

    /** Size left-aligned, numbers right-aligned, two spaces between columns. */
    private static void appendLine(StringBuilder sb, List<String> cells, int[] widths) {
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c);
            String pad = " ".repeat(widths[c] - cell.length());
            if (c == 0) {
                sb.append(cell).append(pad);
            } else {
                sb.append("  ").append(pad).append(cell);
            }
        }
        sb.append('\n');
    }
}
