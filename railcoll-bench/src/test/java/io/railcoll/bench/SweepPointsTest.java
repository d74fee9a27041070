package io.railcoll.bench;

import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decision 0223: which (algorithm, size) points a bench sweep runs. {@code allreduce.shm-doubling} keeps a slot per
 * rank and round in the 2 MiB node buffer, so it runs vectors up to 256 KiB on 1x2 and up to 16 KiB on 1x16.
 */
class SweepPointsTest {
    private static final Map<String, String> ENV = Map.of();
    private static final String DOUBLING = "allreduce.shm-doubling";

    private static SweepPoints allreduce(Placement p, List<String> algorithms, long... sizes) {
        return SweepPoints.of(Collective.ALLREDUCE, p, 2, 0, algorithms, sizes, ENV);
    }

    @Test
    void allKeepsAnAlgorithmThatRefusesSomeSizesAndMarksThoseSizesAlone() {
        SweepPoints points = allreduce(Placement.uniform(1, 2), List.of("all"), 8, 256 << 10, 512 << 10, 1 << 20);
        int d = points.algorithms().indexOf(DOUBLING);
        assertTrue(d >= 0, points.algorithms().toString());
        assertTrue(points.runs(d, 0) && points.runs(d, 1), "8 B and 256 KiB fit its slots on 1x2");
        assertFalse(points.runs(d, 2) || points.runs(d, 3), "512 KiB and 1 MiB do not");
        assertTrue(points.refusal(d, 2).orElseThrow().contains("node buffer"), points.refusal(d, 2).orElseThrow());
        assertArrayEquals(new long[] {8, 256 << 10}, points.sizesRun(d));
        int shm = points.algorithms().indexOf("allreduce.shm");
        for (int z = 0; z < 4; z++) {
            assertTrue(points.runs(shm, z), "allreduce.shm takes vectors of any size");
        }
        assertEquals(4 * points.algorithms().size() - 2, points.runnable());
        assertEquals(Map.of(DOUBLING, List.of(512L << 10, 1L << 20)), points.refusedSizes());
        List<String> notes = points.notes();
        assertEquals(2, notes.size(), notes.toString());
        assertTrue(notes.getFirst().startsWith("n/a (allreduce.shm-doubling refuses 512K on 1x2: its slots"),
                notes.getFirst());
        assertTrue(notes.get(1).startsWith("n/a (allreduce.shm-doubling refuses 1M on 1x2: "), notes.get(1));
    }

    @Test
    void theLimitFollowsThePlacement() {
        SweepPoints points = allreduce(Placement.uniform(1, 16), List.of(DOUBLING), 8, 16 << 10, 32 << 10);
        assertTrue(points.runs(0, 0) && points.runs(0, 1));
        assertFalse(points.runs(0, 2), "1x16: 32 KiB exceeds the node buffer");
        assertTrue(points.runsAt(0, 4096) && !points.runsAt(0, 65536), "sizes outside the sweep (the JIT warm-up's)");
    }

    @Test
    void autoRunsEverySizeAndNamesAreDeduplicatedInOrder() {
        SweepPoints points = allreduce(Placement.uniform(1, 2), List.of("auto", DOUBLING, "auto", DOUBLING), 8, 1 << 20);
        assertEquals(List.of("auto", DOUBLING), points.algorithms());
        assertTrue(points.runs(0, 0) && points.runs(0, 1));
        assertTrue(points.runs(1, 0) && !points.runs(1, 1));
        assertTrue(points.runsAt(0, 1 << 30), "selection refuses nothing");
    }

    @Test
    void aNamedAlgorithmThatRunsNoSizeIsABadOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> allreduce(Placement.uniform(1, 2), List.of(DOUBLING), 512 << 10, 1 << 20));
        assertTrue(e.getMessage().contains(DOUBLING) && e.getMessage().contains("runs none of the sizes")
                && e.getMessage().contains("node buffer"), e.getMessage());
        // Placement-wide: a one-node algorithm on two nodes.
        e = assertThrows(IllegalArgumentException.class,
                () -> allreduce(Placement.uniform(2, 2), List.of("allreduce.shm"), 8));
        assertTrue(e.getMessage().contains("allreduce.shm runs none"), e.getMessage());
    }

    @Test
    void allLeavesOutAnAlgorithmThatRefusesEverySizeAndSaysSo() {
        SweepPoints points = allreduce(Placement.uniform(1, 2), List.of("all"), 1 << 20);
        assertFalse(points.algorithms().contains(DOUBLING));
        assertTrue(points.algorithms().contains("allreduce.shm"));
        assertTrue(points.notes().stream().anyMatch(n -> n.startsWith("left out of all: allreduce.shm-doubling (it"
                + " refuses every size swept; at 1M: its slots")), points.notes().toString());
        // An algorithm that cannot run the placement at any size is left out silently, as before: one node's on two.
        SweepPoints twoNodes = allreduce(Placement.uniform(2, 2), List.of("all"), 8, 1 << 20);
        assertFalse(twoNodes.algorithms().contains("allreduce.shm"), twoNodes.algorithms().toString());
        assertEquals(List.of(), twoNodes.notes());
    }

    @Test
    void unknownNamesAndOtherCollectivesAlgorithmsAreBadOptions() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> allreduce(Placement.uniform(1, 2), List.of("allreduce.nope"), 8));
        assertTrue(e.getMessage().contains("unknown allreduce algorithm 'allreduce.nope'")
                && e.getMessage().contains("allreduce.shm-doubling"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> allreduce(Placement.uniform(1, 2), List.of("allgather.ring"), 8));
        assertTrue(e.getMessage().contains("unknown allreduce algorithm"), e.getMessage());
    }

    @Test
    void theJobsSettingsCountLikeTheEnginesTransports() {
        Map<String, String> noShm = Map.of("RAILCOLL_SHM", "off");
        SweepPoints points = SweepPoints.of(Collective.ALLREDUCE, Placement.uniform(1, 2), 2, 0, List.of("all"),
                new long[] {8}, noShm);
        assertFalse(points.algorithms().contains("allreduce.shm"), points.algorithms().toString());
        assertTrue(points.algorithms().contains("allreduce.ring"), points.algorithms().toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SweepPoints.of(
                Collective.ALLREDUCE, Placement.uniform(1, 2), 2, 0, List.of(DOUBLING), new long[] {8}, noShm));
        assertTrue(e.getMessage().contains("RAILCOLL_SHM=off"), e.getMessage());
    }

    /** Every shape the bench builds is a valid one, and {@code all} keeps only algorithms with a size to run. */
    @Test
    void everyCollectiveSweepsOnEveryPlacement() {
        for (Placement p : List.of(Placement.uniform(1, 2), Placement.uniform(2, 2), Placement.uniform(1, 16))) {
            for (Collective c : Collective.values()) {
                long[] sizes = c == Collective.BARRIER ? new long[] {0}
                        : c.reduces() ? new long[] {0, 8, 1 << 20} : new long[] {0, 1, 1 << 20};
                SweepPoints points = SweepPoints.of(c, p, 2, p.size() - 1, List.of("all", "auto"), sizes, ENV);
                assertTrue(points.algorithms().size() >= 2, c + " on " + p.describe() + ": " + points.algorithms());
                for (int a = 0; a < points.algorithms().size(); a++) {
                    assertTrue(points.sizesRun(a).length > 0, points.algorithms().get(a));
                }
            }
        }
    }

    @Test
    void aRootedCollectiveIsJudgedAtItsRoot() {
        SweepPoints points = SweepPoints.of(Collective.BROADCAST, Placement.uniform(2, 2), 2, 3, List.of("all"),
                new long[] {1, 4096}, ENV);
        assertFalse(points.algorithms().isEmpty());
        assertEquals(2 * points.algorithms().size(), points.runnable(), points.notes().toString());
    }
}
