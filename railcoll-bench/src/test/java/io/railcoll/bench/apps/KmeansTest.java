package io.railcoll.bench.apps;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The property the k-means app's bit-for-bit checks stand on: however the points are split over ranks and in
 * whatever order the partial sums are added, the totals are the same bits as one process summing every point.
 */
class KmeansTest {

    @Test
    void partialSumsAddedInAnyOrderEqualTheSingleProcessSumBitForBit() {
        Random random = new Random(2026);
        for (int round = 0; round < 20; round++) {
            int points = 1 + random.nextInt(3000);
            int dims = 1 + random.nextInt(6);
            int clusters = 1 + random.nextInt(Math.min(points, 12));
            int ranks = 1 + random.nextInt(9);
            long seed = random.nextLong();
            double[] centroids = KmeansPoints.range(seed, 0, clusters, dims, clusters);
            double[] all = KmeansPoints.range(seed, 0, points, dims, clusters);
            double[] whole = new double[clusters * (dims + 1)];
            KmeansStep.accumulate(all, points, dims, centroids, clusters, whole);

            BlockSplit split = new BlockSplit(points, ranks);
            double[][] partials = new double[ranks][whole.length];
            for (int r = 0; r < ranks; r++) {
                double[] mine = KmeansPoints.range(seed, split.start(r), split.count(r), dims, clusters);
                assertArrayEquals(Arrays.copyOfRange(all, (int) split.start(r) * dims,
                        (int) (split.start(r) + split.count(r)) * dims), mine, "a rank makes the same points as the whole");
                KmeansStep.accumulate(mine, split.count(r), dims, centroids, clusters, partials[r]);
            }
            for (int order = 0; order < 3; order++) {
                double[] sum = new double[whole.length];
                List<Integer> ranksInOrder = new java.util.ArrayList<>(java.util.stream.IntStream.range(0, ranks).boxed().toList());
                java.util.Collections.shuffle(ranksInOrder, random);
                for (int r : ranksInOrder) {
                    for (int i = 0; i < sum.length; i++) {
                        sum[i] += partials[r][i];
                    }
                }
                for (int i = 0; i < sum.length; i++) {
                    assertEquals(Double.doubleToRawLongBits(whole[i]), Double.doubleToRawLongBits(sum[i]),
                            "element " + i + " of round " + round);
                }
            }
            assertEquals(points, KmeansStep.pointsCounted(whole, dims, clusters));
        }
    }

    @Test
    void lloydIterationsConvergeOnTheBlobs() {
        KmeansConfig c = KmeansConfig.parse(List.of("points=4000", "dims=2", "clusters=4", "iterations=30", "seed=7"), false);
        double[] after30 = KmeansStep.reference(c);
        KmeansConfig more = KmeansConfig.parse(List.of("points=4000", "dims=2", "clusters=4", "iterations=31", "seed=7"), false);
        assertArrayEquals(after30, KmeansStep.reference(more), "a converged assignment no longer moves the centroids");
        KmeansConfig one = KmeansConfig.parse(List.of("points=4000", "dims=2", "clusters=4", "iterations=1", "seed=7"), false);
        assertNotEquals(Arrays.toString(after30), Arrays.toString(KmeansStep.reference(one)), "iterations do move them");
    }

    @Test
    void differenceNamesTheFirstDifferingCoordinate() {
        double[] a = {1, 2, 3, 4, 5, 6};
        double[] b = a.clone();
        assertNull(KmeansApp.difference(a, b, 3));
        b[4] = Math.nextUp(b[4]);
        assertTrue(KmeansApp.difference(a, b, 3).startsWith("centroid 1 dim 1 is"), KmeansApp.difference(a, b, 3));
    }

    @Test
    void optionsBeyondExactSumsOrWithMoreClustersThanPointsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> KmeansConfig.parse(List.of("points=5000000"), false));
        assertThrows(IllegalArgumentException.class, () -> KmeansConfig.parse(List.of("points=3", "clusters=4"), false));
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
                () -> KmeansConfig.parse(List.of("baseline=allgather.ring"), false));
        assertTrue(kind.getMessage().contains("compares allreduce algorithms"), kind.getMessage());
    }

    /** A deterministic job compares the rank-order all-reduce by default and refuses one that does not add in order. */
    @Test
    void aDeterministicJobTakesTheRankOrderBaselineAndRefusesAnother() {
        assertEquals("allreduce.deterministic", KmeansConfig.parse(List.of(), true).baseline().id());
        assertEquals("allreduce.ring", KmeansConfig.parse(List.of(), false).baseline().id());
        for (String option : List.of("baseline=allreduce.ring", "algorithm=allreduce.recursive-doubling")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> KmeansConfig.parse(List.of(option), true));
            assertTrue(e.getMessage().contains("does not add in rank order"), e.getMessage());
        }
    }
}
