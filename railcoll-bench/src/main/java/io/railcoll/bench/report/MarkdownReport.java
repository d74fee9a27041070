package io.railcoll.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A Markdown report of a sweep: the command that produced it, the machine, then per scenario its plot,
 * its table (best in bold) and which algorithm wins which sizes and by how much. Rendered from the same
 * {@link ResultTable} as the console so the two never disagree. Stateless.
 */
public final class MarkdownReport {

    /** One scenario: its table and, when a plot was drawn, the plot's path relative to the report. */
    public record Section(ResultTable table, Optional<String> plotLink) {
        public Section {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(plotLink, "plotLink (use Optional.empty())");
        }
    }

    private MarkdownReport() {
    }

    public static void write(Path file, String commandLine, MachineFacts machine, List<Section> sections) {
        try {
            Files.writeString(file, render(commandLine, machine, sections), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static String render(String commandLine, MachineFacts machine, List<Section> sections) {
        StringBuilder md = new StringBuilder();
        md.append("# railcoll benchmark report\n\n");
        md.append("Produced by:\n\n```sh\n").append(commandLine.strip()).append("\n```\n\n");
        md.append("| machine | |\n|---|---|\n");
        md.append("| date | ").append(machine.date()).append(" |\n");
        md.append("| cores | ").append(machine.cores()).append(" (").append(cell(machine.cpu())).append(") |\n");
        md.append("| JDK | ").append(cell(machine.jdk())).append(" |\n");
        md.append("| OS | ").append(cell(machine.os())).append(" |\n");
        if (!Double.isNaN(machine.wakeUpRoundTripUs())) {
            // Small collectives on oversubscribed cores are chains of wake-ups: their times scale with this.
            md.append("| thread wake-up round trip | ").append(String.format(java.util.Locale.ROOT, "%.1f",
                    machine.wakeUpRoundTripUs())).append(" us (when this report was written; see docs/benchmarking.md) |\n");
        }
        md.append("\n");
        md.append("Latencies are in microseconds: the median over repeated samples, each sample measured the OSU way ")
                .append("(every rank averages its own calls, then the maximum over ranks). Minimum and maximum per ")
                .append("point are in `results.csv`; the method is in `docs/benchmarking.md`. ")
                .append("Bold marks the fastest railcoll algorithm per size.\n");
        for (Section section : sections) {
            appendSection(md, section);
        }
        return md.toString();
    }

    private static void appendSection(StringBuilder md, Section section) {
        ResultTable table = section.table();
        md.append("\n## ").append(table.title()).append("\n\n");
        section.plotLink().ifPresent(link ->
                md.append("![").append(table.title()).append("](").append(link).append(")\n\n"));

        List<String> header = new ArrayList<>();
        header.add("size");
        table.columns().forEach(c -> header.add(cell(c.label())));
        if (table.hasSpeedup()) {
            header.add("best/flat");
        }
        if (table.hasPeer()) {
            header.add("best/" + cell(table.peerLabel()));
        }
        md.append("| ").append(String.join(" | ", header)).append(" |\n");
        md.append("|---").append("|---:".repeat(header.size() - 1)).append("|\n");
        for (ResultTable.Row row : table.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(Sizes.label(row.sizeBytes()));
            for (int c = 0; c < table.columns().size(); c++) {
                OptionalDouble v = row.mediansUs().get(c);
                String text = v.isPresent() ? Numbers.latencyUs(v.getAsDouble()) : "-";
                cells.add(c == row.best() ? "**" + text + "**" : text);
            }
            if (table.hasSpeedup()) {
                cells.add(factor(row.speedupOverFlat()));
            }
            if (table.hasPeer()) {
                cells.add(factor(row.ratioToPeer()));
            }
            md.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        appendWinners(md, table);
    }

    /** One bullet per run of sizes with the same winner, with its margins over the others. */
    private static void appendWinners(StringBuilder md, ResultTable table) {
        List<ResultTable.WinningRange> ranges = table.winners();
        if (ranges.isEmpty()) {
            return;
        }
        md.append("\nWinners:\n\n");
        for (ResultTable.WinningRange range : ranges) {
            String sizes = range.fromBytes() == range.toBytes()
                    ? Sizes.label(range.fromBytes())
                    : Sizes.label(range.fromBytes()) + " to " + Sizes.label(range.toBytes());
            md.append("- ").append(sizes).append(": **").append(cell(range.winner().label())).append("**");
            List<String> margins = new ArrayList<>();
            if (range.minMargin().isPresent()) {
                margins.add(span(range.minMargin().getAsDouble(), range.maxMargin().getAsDouble())
                        + " faster than the runner-up");
            }
            List<ResultTable.Row> rows = table.rows().stream()
                    .filter(r -> r.sizeBytes() >= range.fromBytes() && r.sizeBytes() <= range.toBytes()).toList();
            if (!range.winner().flat()) {
                // A flat winner is the best flat algorithm itself: "1.00x faster" would say nothing.
                spanOf(rows.stream().map(ResultTable.Row::speedupOverFlat).toList())
                        .ifPresent(s -> margins.add(s + " faster than the best flat algorithm"));
            }
            spanOf(rows.stream().map(ResultTable.Row::ratioToPeer).toList())
                    .ifPresent(s -> margins.add(s + " the time of " + table.peerLabel()));
            if (!margins.isEmpty()) {
                md.append(", ").append(String.join("; ", margins));
            }
            md.append('\n');
        }
    }

    private static Optional<String> spanOf(List<OptionalDouble> values) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (OptionalDouble v : values) {
            if (v.isPresent()) {
                min = Math.min(min, v.getAsDouble());
                max = Math.max(max, v.getAsDouble());
            }
        }
        return min <= max ? Optional.of(span(min, max)) : Optional.empty();
    }

    private static String span(double min, double max) {
        String low = Numbers.factor(min);
        String high = Numbers.factor(max);
        return low.equals(high) ? low : low + " to " + high;
    }

    private static String factor(OptionalDouble v) {
        return v.isPresent() ? Numbers.factor(v.getAsDouble()) : "-";
    }

    /** A pipe would end the table cell early. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
