package io.railcoll.algorithm.variable;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.Simulator;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The v-variants' schedules over what the catalog-wide property tests (one count pattern per block size) do not
 * vary: many seeded count vectors per (N, placement, k, root) — all zero, one non-empty block, zeros among odd sizes,
 * one block far larger than the rest — element sizes above one byte and non-commutative operators for
 * reduce-scatterv, every root on uneven placements. Each shape goes through the {@link ScheduleChecker} (every
 * rank's RECV holds exactly the bytes of the right ranks' SEND at the right places, no hazard, no deadlock, cost as
 * claimed) and through the {@link Simulator}, which must run every rank's program to the end.
 */
class VariableAlgorithmsTest {
    private static final long SEED = 0x7A12L;
    private static final CostModel STEPS = CostModel.hockney(new LinkCost(1, 0, 0), new LinkCost(1, 0, 0));
    private static final CostModel BYTES = CostModel.hockney(new LinkCost(0, 1, 0), new LinkCost(0, 1, 0));
    private static final List<Collective> VARIANTS = List.of(Collective.GATHERV, Collective.SCATTERV,
            Collective.ALLGATHERV, Collective.ALLTOALLV, Collective.REDUCE_SCATTERV);

    private static List<Algorithm> algorithms() {
        List<Algorithm> list = new ArrayList<>();
        for (Collective c : VARIANTS) {
            list.addAll(AlgorithmCatalog.standard().forCollective(c));
        }
        return list;
    }

    /** Counts of {@code size} entries in units of {@code unit} bytes, of kind {@code kind} (0..4). */
    static long[] counts(int size, int kind, int unit, Random random) {
        long[] c = new long[size];
        switch (kind) {
            case 0 -> { } // all zero
            case 1 -> c[random.nextInt(size)] = unit * (1 + random.nextInt(100));
            case 2 -> {
                for (int i = 0; i < size; i++) {
                    c[i] = random.nextInt(3) == 0 ? 0 : unit * (1 + 2L * random.nextInt(500));
                }
            }
            case 3 -> {
                for (int i = 0; i < size; i++) {
                    c[i] = unit * (random.nextInt(4));
                }
                c[random.nextInt(size)] = unit * 65537L;
            }
            default -> {
                for (int i = 0; i < size; i++) {
                    c[i] = unit * (1 + random.nextInt(9));
                }
            }
        }
        return c;
    }

    static Shape shape(Collective c, Placement p, int k, int root, int kind, int elementBytes, boolean commutative,
                       Random random) {
        int n = p.size();
        BlockCounts counts = c == Collective.ALLTOALLV ? BlockCounts.matrix(n, counts(n * n, kind, elementBytes, random))
                : BlockCounts.perRank(counts(n, kind, elementBytes, random));
        return Shape.variable(c, p, k, c.hasRoot() ? root : 0, counts, elementBytes, commutative);
    }

    private static void assertPasses(Algorithm a, Shape shape) {
        if (a.unsupportedReason(shape).isPresent()) {
            assertFalse(shape.commutative(), a.id() + " refused " + shape + ": " + a.unsupportedReason(shape).get());
            return;
        }
        ScheduleChecker.Report report = ScheduleChecker.check(a, shape);
        assertTrue(report.ok(), report::describe);
        // The simulator takes receive ports in arrival order, the cost terms in program order: with blocks of
        // different sizes the two differ (SimulatorTest compares them where they agree). Here: it simulates every
        // rank's program to the end, and a message of the largest block is on the path.
        double steps = Simulator.predict(a, shape, STEPS).timeNs();
        double bytes = Simulator.predict(a, shape, BYTES).timeNs();
        assertTrue(Double.isFinite(steps) && steps >= (shape.size() > 1 ? 1 : 0), () -> a.id() + " steps " + steps);
        assertTrue(Double.isFinite(bytes) && bytes >= 0, () -> a.id() + " bytes " + bytes);
        assertEquals(report.claimed(), a.cost(shape));
    }

    @TestFactory
    Stream<DynamicTest> seededCountVectorsOnEveryKindOfPlacement() {
        return algorithms().stream().map(a -> DynamicTest.dynamicTest(a.id(), () -> {
            Random random = new Random(SEED ^ a.id().hashCode());
            for (int i = 0; i < 400; i++) {
                int n = 1 + random.nextInt(24);
                Placement p = switch (random.nextInt(3)) {
                    case 0 -> Placement.uniform(n, 1);
                    case 1 -> Placement.singleNode(n);
                    default -> n >= 9 ? Placement.ofCounts(3, 4, n - 7) : Placement.uniform(1, n);
                };
                int k = 1 + random.nextInt(3);
                int root = random.nextInt(n);
                int element = a.collective().reduces() ? new int[] {1, 4, 8, 16}[random.nextInt(4)] : 1;
                boolean commutative = !a.collective().reduces() || random.nextBoolean();
                assertPasses(a, shape(a.collective(), p, k, root, i % 5, element, commutative, random));
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyRootOnUnevenNodesThreeFourTwoAndOneByFive() {
        return algorithms().stream().map(a -> DynamicTest.dynamicTest(a.id(), () -> {
            Random random = new Random(SEED + a.id().hashCode());
            for (Placement p : List.of(Placement.ofCounts(3, 4, 2), Placement.uniform(1, 5), Placement.uniform(5, 1))) {
                for (int root = 0; root < p.size(); root++) {
                    for (int kind = 0; kind < 5; kind++) {
                        for (int k = 1; k <= 2; k++) {
                            assertPasses(a, shape(a.collective(), p, k, root, kind, 1, true, random));
                            if (a.collective().reduces()) {
                                assertPasses(a, shape(a.collective(), p, k, root, kind, 8, false, random));
                            }
                        }
                    }
                }
            }
        }));
    }

    @Test
    void theRingRefusesNonCommutativeAndTheDirectFormCombinesInRankOrder() {
        Shape shape = Shape.variable(Collective.REDUCE_SCATTERV, Placement.ofCounts(3, 4, 2), 1, 0,
                BlockCounts.perRank(8, 0, 16, 24, 8, 0, 0, 40, 8), 8, false);
        assertTrue(AlgorithmCatalog.standard().byId("reduce-scatterv.ring").unsupportedReason(shape).isPresent());
        assertTrue(ScheduleChecker.check(AlgorithmCatalog.standard().byId("reduce-scatterv.direct"), shape).ok());
    }

    @Test
    void countsAreValidatedAndDigestsTellVectorsApart() {
        assertThrows(IllegalArgumentException.class, () -> BlockCounts.perRank(1, -1));
        assertThrows(IllegalArgumentException.class, () -> BlockCounts.matrix(2, 1, 2, 3));
        assertThrows(IllegalArgumentException.class, () -> Shape.variable(Collective.GATHERV, Placement.uniform(3, 1), 1,
                0, BlockCounts.perRank(1, 2), 1, true));
        assertThrows(IllegalArgumentException.class, () -> Shape.variable(Collective.REDUCE_SCATTERV,
                Placement.uniform(2, 1), 1, 0, BlockCounts.perRank(8, 4), 8, true));
        assertThrows(IllegalArgumentException.class, () -> Shape.variable(Collective.ALLTOALLV, Placement.uniform(2, 1),
                1, 0, BlockCounts.perRank(1, 2), 1, true));
        assertThrows(IllegalArgumentException.class, () -> BlockCounts.perRank(Long.MAX_VALUE, 1));
        Random random = new Random(SEED);
        java.util.Set<Long> digests = new java.util.HashSet<>();
        java.util.Set<List<Long>> vectors = new java.util.HashSet<>();
        for (int i = 0; i < 20000; i++) {
            long[] c = counts(1 + random.nextInt(8), 2, 1, random);
            BlockCounts a = BlockCounts.perRank(c);
            vectors.add(java.util.Arrays.stream(c).boxed().toList());
            assertEquals(a, BlockCounts.perRank(c.clone()));
            assertEquals(a.digest(), BlockCounts.perRank(c.clone()).digest());
            c[random.nextInt(c.length)] += 1;
            assertTrue(a.digest() != BlockCounts.perRank(c).digest(), "one count changed by one, same digest");
            digests.add(a.digest());
        }
        assertEquals(vectors.size(), digests.size(), "distinct vectors and distinct digests");
        assertTrue(BlockCounts.perRank(1, 2).digest() != BlockCounts.matrix(1, 1).digest());
    }
}
