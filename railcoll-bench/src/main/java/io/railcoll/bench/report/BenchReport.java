package io.railcoll.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes every file of a sweep into one directory: {@value #CSV_FILE}, {@value #MARKDOWN_FILE} and one
 * {@code <collective>-<placement>.png} per scenario that has sizes above 0. The entry point the CLI calls
 * once a sweep is done. Stateless.
 */
public final class BenchReport {
    public static final String CSV_FILE = "results.csv";
    public static final String MARKDOWN_FILE = "report.md";

    /** What was written, for the CLI to print. */
    public record Written(Path csv, Path markdown, List<Path> plots) {
        public Written {
            plots = List.copyOf(plots);
        }
    }

    private BenchReport() {
    }

    public static Written writeAll(Path outDir, List<BenchResult> results, TableOptions options, String commandLine,
                                   MachineFacts machine) {
        return writeAll(outDir, results, options, commandLine, RunFacts.of(machine));
    }

    /** As above, with the run's facts (load, commit, warm-up, peers) and its rail accounting in the CSV and report. */
    public static Written writeAll(Path outDir, List<BenchResult> results, TableOptions options, String commandLine,
                                   RunFacts facts) {
        try {
            Files.createDirectories(outDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + outDir, e);
        }
        Path csv = outDir.resolve(CSV_FILE);
        CsvResults.write(csv, results, facts.accounts());
        List<Path> plots = new ArrayList<>();
        List<MarkdownReport.Section> sections = new ArrayList<>();
        for (ResultTable table : ResultTable.build(results, options)) {
            Optional<String> link = Optional.empty();
            if (LatencyPlot.plottable(table)) {
                String name = table.slug() + ".png";
                LatencyPlot.write(table, outDir.resolve(name));
                plots.add(outDir.resolve(name));
                link = Optional.of(name);
            }
            sections.add(new MarkdownReport.Section(table, link));
        }
        Path markdown = outDir.resolve(MARKDOWN_FILE);
        MarkdownReport.write(markdown, commandLine, facts, sections);
        return new Written(csv, markdown, plots);
    }
}
