package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

class MarkdownReportTest {
    static final MachineFacts MACHINE = new MachineFacts("2025-01-02T03:04:05Z", 2, "Test CPU", "25+36 (Test)", "Linux x");

    @Test
    void holdsCommandMachineTableWinnersAndPlot() {
        ResultTable t = ResultTable.build(ResultTableTest.sweep(), ResultTableTest.OPTIONS).getFirst();
        String md = MarkdownReport.render("bin/railcoll bench --peer openmpi", MACHINE,
                List.of(new MarkdownReport.Section(t, Optional.of("allgather-4x4.png"))));
        assertContains(md, "```sh\nbin/railcoll bench --peer openmpi\n```");
        assertContains(md, "| cores | 2 (Test CPU) |");
        assertContains(md, "| JDK | 25+36 (Test) |");
        assertContains(md, "| date | 2025-01-02T03:04:05Z |");
        assertContains(md, "## allgather: 4 nodes x 4 ranks, 2 rails, engine tcp");
        assertContains(md, "![allgather: 4 nodes x 4 ranks, 2 rails, engine tcp](allgather-4x4.png)");
        assertContains(md, "| size | ring | bruck | smp.bruck | openmpi | best/flat | best/openmpi |");
        // Each median with the fastest and slowest sample beside it.
        assertContains(md, "| 1B | 10.0 [9.00-11.0] | 8.00 [7.20-8.80] | **4.00** [3.60-4.40] | 5.00 [4.50-5.50] | 2.00x | 0.80x |");
        assertContains(md, "| 4B | **6.00** [5.40-6.60] | - | - | - | 1.00x | - |");
        assertContains(md, "- 1B: **smp.bruck**, 2.00x faster than the runner-up; 2.00x faster than the best flat "
                + "algorithm; 0.80x the time of openmpi");
        assertContains(md, "- 4B to 1K: **ring**, 1.25x faster than the runner-up; 2.00x the time of openmpi\n");
    }

    @Test
    void machineFactsOfThisMachine() {
        MachineFacts facts = MachineFacts.current(java.time.Clock.fixed(java.time.Instant.parse("2025-01-02T03:04:05Z"),
                java.time.ZoneOffset.UTC));
        assertTrue(facts.cores() >= 1);
        assertTrue(facts.date().startsWith("2025-01-02T03:04:05"), facts.date());
        assertTrue(facts.jdk().startsWith(Runtime.version().toString()), facts.jdk());
        // A real wake-up takes at least a microsecond and, even on a crowded machine, well under a second.
        assertTrue(facts.wakeUpRoundTripUs() >= 0.5 && facts.wakeUpRoundTripUs() < 1e6, "" + facts.wakeUpRoundTripUs());
    }

    @Test
    void theWakeUpRoundTripIsStatedWhenMeasuredOnly() {
        ResultTable t = ResultTable.build(ResultTableTest.sweep(), ResultTableTest.OPTIONS).getFirst();
        MachineFacts measured = new MachineFacts("2025-01-02T03:04:05Z", 2, "Test CPU", "25+36 (Test)", "Linux x", 12.34);
        assertContains(MarkdownReport.render("x", measured, List.of(new MarkdownReport.Section(t, Optional.empty()))),
                "| thread wake-up round trip | 12.3 us");
        assertTrue(!MarkdownReport.render("x", MACHINE, List.of(new MarkdownReport.Section(t, Optional.empty())))
                .contains("wake-up"));
    }

    private static void assertContains(String text, String part) {
        assertTrue(text.contains(part), () -> "missing:\n" + part + "\nin:\n" + text);
    }
}
