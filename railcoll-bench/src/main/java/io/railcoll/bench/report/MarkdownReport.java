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

    public static void write(Path file, String commandLine, RunFacts facts, List<Section> sections) {
        try {
            Files.writeString(file, render(commandLine, facts, sections), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static String render(String commandLine, MachineFacts machine, List<Section> sections) {
        return render(commandLine, RunFacts.of(machine), sections);
    }

    public static String render(String commandLine, RunFacts facts, List<Section> sections) {
        MachineFacts machine = facts.machine();
        StringBuilder md = new StringBuilder();
        md.append("# railcoll benchmark report\n\n");
        md.append("Produced by:\n\n```sh\n").append(commandLine.strip()).append("\n```\n\n");
        md.append("| machine | |\n|---|---|\n");
        md.append("| date | ").append(machine.date()).append(" |\n");
        md.append("| cores | ").append(machine.cores()).append(" (").append(cell(machine.cpu())).append(") |\n");
        md.append("| JDK | ").append(cell(machine.jdk())).append(" |\n");
        md.append("| OS, kernel | ").append(cell(machine.os())).append(" |\n");
        if (!facts.loadBefore().isEmpty()) {
            md.append("| load before | ").append(cell(facts.loadBefore())).append(" |\n");
            md.append("| load after | ").append(cell(facts.loadAfter())).append(" |\n");
        }
        if (!facts.commit().isEmpty()) {
            md.append("| railcoll commit | ").append(cell(facts.commit())).append(" |\n");
        }
        for (String warmup : facts.jitWarmup()) {
            md.append("| JIT warm-up | ").append(cell(warmup)).append(" |\n");
        }
        for (String sampling : facts.sampling()) {
            md.append("| samples auto | ").append(cell(sampling)).append(" |\n");
        }
        for (String peer : facts.peers()) {
            md.append("| peer | ").append(cell(peer)).append(" |\n");
        }
        if (!facts.accounts().scope().isEmpty()) {
            md.append("| rail accounting | ").append(cell(facts.accounts().scope())).append(" |\n");
        }
        if (!Double.isNaN(machine.wakeUpRoundTripUs())) {
            // Small collectives on oversubscribed cores are chains of wake-ups: their times scale with this.
            md.append("| thread wake-up round trip | ").append(String.format(java.util.Locale.ROOT, "%.1f",
                    machine.wakeUpRoundTripUs())).append(" us (when this report was written; see docs/benchmarking.md) |\n");
        }
        md.append("\n");
        md.append("Latencies are in microseconds: the median over repeated samples, each sample measured the OSU way ")
                .append("(every rank averages its own calls, then the maximum over ranks); beside each, in brackets, the ")
                .append("fastest and slowest sample. `~` marks a point whose samples spread more than ")
                .append(Numbers.factor(ResultTable.SPREAD_LIMIT)).append(" (slowest / fastest): its median is not a ")
                .append("steady figure. **IMPOSSIBLE** marks a point that rail accounting refutes. The method is in ")
                .append("`docs/benchmarking.md`. Bold marks the fastest railcoll algorithm per size. n/a marks a size ")
                .append("the algorithm refuses to run (the notes below say why); the best and the ratios are of the ")
                .append("algorithms that ran it. Columns headed *added* (small sizes) hold a second figure from the same ")
                .append("samples: what one call adds to a loop of barriers (a loop of barrier + call less a loop of the ")
                .append("same barrier alone, per call, the slowest rank's; median [fastest to slowest sample]), which ")
                .append("does not depend on which rank the barrier lets out first; *added least/peer* is the least ")
                .append("railcoll figure over the peer's (decision 0232).\n");
        if (!facts.refusals().isEmpty()) {
            md.append("\n**Points not run**:\n\n");
            facts.refusals().forEach(r -> md.append("- ").append(cell(r)).append('\n'));
        }
        List<String> impossible = facts.accounts().impossible();
        if (!impossible.isEmpty()) {
            md.append("\n**Impossible figures** (the bench exited non-zero):\n\n");
            impossible.forEach(i -> md.append("- ").append(cell(i)).append('\n'));
        }
        for (Section section : sections) {
            appendSection(md, section);
            RailAccountingTable.append(md, section.table(), facts.accounts());
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
        for (String peer : table.peerLabels()) {
            header.add("best/" + cell(peer));
        }
        List<Integer> added = table.addedColumns();
        added.forEach(c -> header.add(cell(table.columns().get(c).label()) + " added"));
        if (table.hasAddedRatios()) {
            table.peerLabels().forEach(peer -> header.add("added least/" + cell(peer)));
        }
        md.append("| ").append(String.join(" | ", header)).append(" |\n");
        md.append("|---").append("|---:".repeat(header.size() - 1)).append("|\n");
        for (ResultTable.Row row : table.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(Sizes.label(row.sizeBytes()));
            for (int c = 0; c < table.columns().size(); c++) {
                OptionalDouble v = row.mediansUs().get(c);
                String text = v.isPresent() ? Numbers.latencyUs(v.getAsDouble()) : row.refused().get(c) ? "n/a" : "-";
                text = c == row.best() ? "**" + text + "**" : text;
                if (v.isPresent()) {
                    text += " [" + Numbers.latencyUs(row.minsUs().get(c).getAsDouble()) + "-"
                            + Numbers.latencyUs(row.maxsUs().get(c).getAsDouble()) + "]";
                    text += row.widelySpread(c) ? " ~" : "";
                    text += row.impossible().get(c) ? " **IMPOSSIBLE**" : "";
                }
                cells.add(text);
            }
            if (table.hasSpeedup()) {
                cells.add(factor(row.speedupOverFlat()));
            }
            for (OptionalDouble ratio : row.ratiosToPeers()) {
                cells.add(factor(ratio));
            }
            for (int c : added) {
                cells.add(row.addedToBarrier().get(c).map(a -> Numbers.latencyUs(a.medianUs()) + " ["
                                + Numbers.latencyUs(a.minUs()) + " to " + Numbers.latencyUs(a.maxUs()) + "]")
                        .orElse(row.refused().get(c) ? "n/a" : "-"));
            }
            if (table.hasAddedRatios()) {
                row.addedRatiosToPeers().forEach(ratio -> cells.add(factor(ratio)));
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
            List<String> peers = table.peerLabels();
            for (int p = 0; p < peers.size(); p++) {
                int index = p;
                spanOf(rows.stream().map(r -> r.ratiosToPeers().get(index)).toList())
                        .ifPresent(s -> margins.add(s + " the time of " + peers.get(index)));
            }
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
