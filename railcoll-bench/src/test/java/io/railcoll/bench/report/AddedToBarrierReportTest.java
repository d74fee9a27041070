package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static io.railcoll.bench.report.Fixtures.PEER;
import static io.railcoll.bench.report.Fixtures.RING;
import static io.railcoll.bench.report.Fixtures.SMP;
import static io.railcoll.bench.report.Fixtures.point;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The figure added to a barrier loop (decision 0232) through the table, the console, the Markdown report and the CSV. */
class AddedToBarrierReportTest {

    /**
     * Hand-checked (OSU medians, then added medians; min and max 10% around the OSU median, 0.1 us around the added):
     * <pre>
     * size  ring       smp        openmpi   | best/flat  best/peer | added least  added least/peer
     * 1B    10 / 2.0   4 / 1.5    5 / 3.0   | 10/4=2.50  4/5=0.80  | smp 1.5      1.5/3.0=0.50
     * 4B    6 / -0.2   -          7 / 0.4   | 1.00       6/7=0.86  | ring -0.2    - (not above 0)
     * 1K    20         25         10        | 1.00       2.00      | -            -
     * </pre>
     */
    static List<BenchResult> sweep() {
        return List.of(
                added(point(PEER, 1, 5), 3.0), added(point(PEER, 4, 7), 0.4), point(PEER, 1024, 10),
                added(point(RING, 1, 10), 2.0), added(point(RING, 4, 6), -0.2), point(RING, 1024, 20),
                added(point(SMP, 1, 4), 1.5), point(SMP, 1024, 25));
    }

    private static BenchResult added(BenchResult r, double medianUs) {
        return r.withAddedToBarrier(new AddedToBarrier(medianUs, medianUs - 0.1, medianUs + 0.1));
    }

    private static ResultTable table() {
        return ResultTable.build(sweep(), ResultTableTest.OPTIONS).getFirst();
    }

    @Test
    void rowsHoldTheLeastAddedFigureAndItsRatioToThePeer() {
        ResultTable t = table();
        assertTrue(t.hasAddedToBarrier());
        assertTrue(t.hasAddedRatios());
        assertEquals(List.of(0, 1, 2), t.addedColumns());
        ResultTable.Row one = t.rows().get(0);
        assertEquals(1, one.addedBest(), "smp.bruck adds the least, though ring's OSU figure is not the best either");
        assertEquals(0.5, one.addedRatiosToPeers().getFirst().getAsDouble(), 1e-12);
        assertEquals(0.8, one.ratioToPeer().getAsDouble(), 1e-12, "the OSU ratio is unchanged");
        ResultTable.Row four = t.rows().get(1);
        assertEquals(0, four.addedBest());
        assertEquals(OptionalDouble.empty(), four.addedRatiosToPeers().getFirst(), "a difference below 0 has no ratio");
        ResultTable.Row large = t.rows().get(2);
        assertEquals(-1, large.addedBest());
        assertEquals(List.of(Optional.empty(), Optional.empty(), Optional.empty()), large.addedToBarrier());
    }

    @Test
    void theConsoleShowsAnAddedColumnPerSeriesAndTheRatio() {
        String console = ConsoleTableWriter.render(table());
        String header = console.lines().skip(1).findFirst().orElseThrow();
        assertTrue(header.matches("size\\s+ring\\s+smp\\.bruck\\s+openmpi\\s+best/flat\\s+best/openmpi\\s+ring added"
                + "\\s+smp\\.bruck added\\s+openmpi added\\s+added least/openmpi"), header);
        assertTrue(row(console, "1B").matches("1B\\s+10\\.0\\s+4\\.00\\*\\s+5\\.00\\s+2\\.50x\\s+0\\.80x\\s+2\\.00\\s+1\\.50"
                + "\\s+3\\.00\\s+0\\.50x"), row(console, "1B"));
        assertTrue(row(console, "4B").matches("4B\\s+6\\.00\\*\\s+-\\s+7\\.00\\s+1\\.00x\\s+0\\.86x\\s+-0\\.200\\s+-"
                + "\\s+0\\.400\\s+-"), row(console, "4B"));
        assertTrue(row(console, "1K").matches("1K\\s+20\\.0\\*\\s+25\\.0\\s+10\\.0\\s+1\\.00x\\s+2\\.00x(\\s+-){4}"),
                row(console, "1K"));
        assertTrue(console.contains("added = what one call adds to a loop of barriers"), console);
    }

    @Test
    void theMarkdownTableShowsTheAddedFiguresWithTheirSpread() {
        String md = MarkdownReport.render("bin/railcoll bench --peer openmpi", MarkdownReportTest.MACHINE,
                List.of(new MarkdownReport.Section(table(), Optional.empty())));
        assertTrue(md.contains("| size | ring | smp.bruck | openmpi | best/flat | best/openmpi | ring added | smp.bruck added "
                + "| openmpi added | added least/openmpi |"), md);
        assertTrue(md.contains("| 1B | 10.0 [9.00-11.0] | **4.00** [3.60-4.40] | 5.00 [4.50-5.50] | 2.50x | 0.80x "
                + "| 2.00 [1.90 to 2.10] | 1.50 [1.40 to 1.60] | 3.00 [2.90 to 3.10] | 0.50x |"), md);
        assertTrue(md.contains("| 4B | **6.00** [5.40-6.60] | - | 7.00 [6.30-7.70] | 1.00x | 0.86x "
                + "| -0.200 [-0.300 to -0.100] | - | 0.400 [0.300 to 0.500] | - |"), md);
        assertTrue(md.contains("Columns headed *added*"), md);
    }

    @Test
    void aTableWithoutTheFigureHasNoAddedColumns() {
        ResultTable t = ResultTable.build(ResultTableTest.sweep(), ResultTableTest.OPTIONS).getFirst();
        assertFalse(t.hasAddedToBarrier());
        assertFalse(ConsoleTableWriter.render(t).contains("added"));
    }

    @Test
    void theCsvCarriesTheFigureAndReadsItBack() throws IOException {
        StringBuilder csv = new StringBuilder();
        CsvResults.write(csv, sweep());
        String[] lines = csv.toString().split("\n");
        assertTrue(lines[0].endsWith(",samples,added_to_barrier_us_median,added_to_barrier_us_min,added_to_barrier_us_max"),
                lines[0]);
        assertTrue(lines[1].endsWith(",1,5.000,4.500,5.500,5,3.000,2.900,3.100"), lines[1]);
        assertTrue(lines[3].endsWith(",1024,10.000,9.000,11.000,5,,,"), "no figure, empty cells: " + lines[3]);
        assertTrue(lines[5].endsWith(",4,6.000,5.400,6.600,5,-0.200,-0.300,-0.100"), lines[5]);
        // Values a CSV's three decimals keep exactly, read back as written.
        List<BenchResult> exact = List.of(
                new BenchResult(PEER, 1, 0.5, 0.25, 0.75, 5, OptionalDouble.empty())
                        .withAddedToBarrier(new AddedToBarrier(0.25, -0.125, 0.5)),
                new BenchResult(RING, 65536, 12.5, 12.25, 13.0, 5, OptionalDouble.of(80.5)));
        StringBuilder again = new StringBuilder();
        CsvResults.write(again, exact);
        assertEquals(exact, CsvResults.read(new StringReader(again.toString())));
    }

    private static String row(String console, String size) {
        return console.lines().filter(l -> l.startsWith(size + " ")).findFirst().orElseThrow();
    }
}
