package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

import java.util.List;
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

    @Test
    void rejectsTwoResultsForOnePoint() {
        assertThrows(IllegalArgumentException.class,
                () -> ResultTable.build(List.of(point(RING, 1, 3), point(RING, 1, 4)), OPTIONS));
    }
}
