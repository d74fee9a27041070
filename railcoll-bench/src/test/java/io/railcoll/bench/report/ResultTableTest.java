package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

import static io.railcoll.bench.report.Fixtures.BRUCK;
import static io.railcoll.bench.report.Fixtures.PEER;
import static io.railcoll.bench.report.Fixtures.RING;
import static io.railcoll.bench.report.Fixtures.SMP;
import static io.railcoll.bench.report.Fixtures.point;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultTableTest {
    static final TableOptions OPTIONS = TableOptions.withPeer(Set.of("allgather.ring", "allgather.bruck"), "openmpi");

    /**
     * Hand-checked:
     * <pre>
     * size  ring  bruck  smp  openmpi | best  runner-up  best/flat  best/peer
     * 1B    10    8      4    5       | smp   bruck      8/4=2.00   4/5=0.80
     * 4B    6     -      -    -       | ring  -          6/6=1.00   -
     * 1K    20    30     25   10      | ring  smp        1.00       20/10=2.00
     * </pre>
     */
    static List<BenchResult> sweep() {
        return List.of(
                point(PEER, 1, 5), point(PEER, 1024, 10),
                point(RING, 1, 10), point(RING, 4, 6), point(RING, 1024, 20),
                point(BRUCK, 1, 8), point(BRUCK, 1024, 30),
                point(SMP, 1, 4), point(SMP, 1024, 25));
    }

    @Test
    void marksTheBestAndComputesSpeedupsByHand() {
        ResultTable t = ResultTable.build(sweep(), OPTIONS).getFirst();
        assertEquals(List.of("ring", "bruck", "smp.bruck", "openmpi"), t.columns().stream().map(ResultTable.Column::label).toList());
        assertTrue(t.columns().getLast().peer());
        assertEquals(List.of(1L, 4L, 1024L), t.rows().stream().map(ResultTable.Row::sizeBytes).toList());

        ResultTable.Row small = t.rows().get(0);
        assertEquals(2, small.best());
        assertEquals(1, small.runnerUp());
        assertEquals(2.0, small.speedupOverFlat().getAsDouble(), 1e-12);
        assertEquals(0.8, small.ratioToPeer().getAsDouble(), 1e-12);
        assertEquals(2.0, small.marginOverRunnerUp().getAsDouble(), 1e-12);

        ResultTable.Row lonely = t.rows().get(1);
        assertEquals(0, lonely.best());
        assertEquals(-1, lonely.runnerUp());
        assertEquals(OptionalDouble.empty(), lonely.mediansUs().get(1));
        assertEquals(1.0, lonely.speedupOverFlat().getAsDouble(), 1e-12);
        assertTrue(lonely.ratioToPeer().isEmpty());
        assertTrue(lonely.marginOverRunnerUp().isEmpty());

        ResultTable.Row large = t.rows().get(2);
        assertEquals(0, large.best(), "the peer is faster but is never marked best");
        assertEquals(2, large.runnerUp());
        assertEquals(1.0, large.speedupOverFlat().getAsDouble(), 1e-12);
        assertEquals(2.0, large.ratioToPeer().getAsDouble(), 1e-12);
        assertEquals(1.25, large.marginOverRunnerUp().getAsDouble(), 1e-12);
    }

    @Test
    void titleCarriesWhatAllColumnsShare() {
        ResultTable t = ResultTable.build(sweep(), OPTIONS).getFirst();
        assertEquals("allgather: 4 nodes x 4 ranks, 2 rails, engine tcp", t.title());
        assertEquals("allgather-4x4", t.slug());
        assertTrue(t.hasSpeedup());
        assertTrue(t.hasPeer());
    }

    @Test
    void winnersMergeConsecutiveSizes() {
        List<ResultTable.WinningRange> w = ResultTable.build(sweep(), OPTIONS).getFirst().winners();
        assertEquals(2, w.size());
        assertEquals("smp.bruck", w.get(0).winner().label());
        assertEquals(1, w.get(0).fromBytes());
        assertEquals(1, w.get(0).toBytes());
        assertEquals("ring", w.get(1).winner().label());
        assertEquals(4, w.get(1).fromBytes());
        assertEquals(1024, w.get(1).toBytes());
        assertEquals(1.25, w.get(1).minMargin().getAsDouble(), 1e-12);
    }

    @Test
    void oneTablePerScenarioAndLabelsShowWhatDiffers() {
        Series shm = new Series(Collective.ALLGATHER, "allgather.ring", 4, "4", 2, "shm");
        Series uneven = new Series(Collective.ALLGATHER, "allgather.ring", 3, "3,4,2", 2, "tcp");
        List<ResultTable> tables = ResultTable.build(
                List.of(point(RING, 1, 3), point(shm, 1, 2), point(uneven, 1, 9)), TableOptions.withoutPeer(Set.of()));
        assertEquals(2, tables.size());
        assertEquals(List.of("ring [tcp]", "ring [shm]"),
                tables.get(0).columns().stream().map(ResultTable.Column::label).toList());
        assertEquals("allgather: 4 nodes x 4 ranks, 2 rails", tables.get(0).title());
        assertEquals("allgather-3-4-2", tables.get(1).slug());
        assertFalse(tables.get(1).hasSpeedup(), "no flat algorithm given, no speedup column");
        assertFalse(tables.get(1).hasPeer());
    }

    /**
     * Decision 0223: smp.bruck refused 4 B (no result, and the sweep says so), bruck has no 4 B result for no stated
     * reason. The refused cell reads n/a, the other "-", the best and the ratios are of the columns that ran, and the
     * notes say why once; nothing reads 0.
     */
    @Test
    void aRefusedPointReadsNotApplicableAndTheOthersStillCompare() {
        TableOptions options = OPTIONS.withRefused(Map.of("allgather.smp.bruck", List.of(4L)));
        ResultTable t = ResultTable.build(sweep(), options).getFirst();
        ResultTable.Row four = t.rows().get(1);
        assertEquals(List.of(false, false, true, false), four.refused());
        assertEquals(0, four.best());
        assertEquals(List.of(false, false, false, false), t.rows().get(0).refused());
        assertTrue(t.hasRefused());
        assertFalse(ResultTable.build(sweep(), OPTIONS).getFirst().hasRefused());
        String console = ConsoleTableWriter.render(t);
        String row = console.lines().filter(l -> l.startsWith("4B")).findFirst().orElseThrow();
        assertTrue(row.matches("4B\\s+6\\.00\\*\\s+-\\s+n/a\\s+-\\s+1\\.00x\\s+-"), row);
        assertTrue(console.contains("n/a: the algorithm refuses that size"), console);

        MachineFacts m = new MachineFacts("2026-11-28T22:00:00Z", 2, "cpu", "25", "Linux");
        String note = "n/a (allgather.smp.bruck refuses 4B on 4x4: a reason)";
        RunFacts facts = RunFacts.of(m).withRefusals(List.of(note));
        String md = MarkdownReport.render("bin/railcoll bench", facts,
                List.of(new MarkdownReport.Section(t, java.util.Optional.empty())));
        assertTrue(md.contains("| 4B | **6.00** [5.40-6.60] | - | n/a | - | 1.00x | - |"), md);
        assertTrue(md.contains("**Points not run**:\n\n- " + note + "\n"), md);
        assertTrue(RunHeader.render(facts).contains("not run: " + note + "\n"), RunHeader.render(facts));
    }

    @Test
    void rejectsTwoResultsForOnePoint() {
        assertThrows(IllegalArgumentException.class,
                () -> ResultTable.build(List.of(point(RING, 1, 3), point(RING, 1, 4)), OPTIONS));
    }
}
