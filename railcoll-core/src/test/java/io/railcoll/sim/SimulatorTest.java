package io.railcoll.sim;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulatorTest {
    /** Every message one step, no bytes: the simulated time is the number of steps. */
    private static final CostModel STEPS = CostModel.hockney(new LinkCost(1, 0, 0), new LinkCost(1, 0, 0));
    /** Every byte one unit, no startup: the simulated time is the beta bytes. */
    private static final CostModel BYTES = CostModel.hockney(new LinkCost(0, 1, 0), new LinkCost(0, 1, 0));
    /** A model where ports, rails, streams and cores all contend. */
    private static final CostModel CONTENDED = new CostModel(Map.of(
            LinkClass.SHARED_MEMORY, new LinkCost(2_000, 0.3, 0.8), LinkClass.RAIL, new LinkCost(5_000, 0.5, 0.5)),
            0.1, 1024, 2, 2, CpuScope.NODE);

    private static final AlgorithmCatalog CATALOG = AlgorithmCatalog.standard();

    /**
     * Algorithms whose messages never compete for a receive port in a way that depends on order: for them the
     * CostTerms model (ports taken in program order) and the simulator (ports taken in arrival order) agree. The
     * standard exchanges with a fold (N not a power of k+1) and the scatter-allgather broadcast with k > 1 overlap
     * phases, so their receive ports are taken in an order the two models define differently; they are compared
     * where they are synchronous.
     */
    private static final List<String> ORDER_FREE = List.of("allgather.direct", "allgather.bruck", "allgather.ring",
            "allgather.gather-bcast", "alltoall.direct", "alltoall.bruck", "alltoall.pairwise", "gather.binomial",
            "gather.direct", "broadcast.knomial", "barrier.dissemination");

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void withoutContentionTheSimulatorIsTheHockneyModelOfCostTerms(int k) {
        for (int n : new int[] {2, 3, 5, 8, 9, 16, 27}) {
            for (String id : ORDER_FREE) {
                assertHockney(CATALOG.byId(id), n, k, 1000);
            }
            if (n == (int) Math.pow(k + 1, Math.round(Math.log(n) / Math.log(k + 1)))) {
                assertHockney(CATALOG.byId("allgather.standard-exchange"), n, k, 1000);
                assertHockney(CATALOG.byId("alltoall.standard-exchange"), n, k, 1000);
            }
            if (k == 1) {
                assertHockney(CATALOG.byId("broadcast.scatter-allgather"), n, k, 100_000);
            }
        }
    }

    /** One rank per node and as many rails as ports: only the k-port limits of CostTerms apply. */
    private static void assertHockney(Algorithm a, int n, int k, long b) {
        Shape shape = new Shape(a.collective(), Placement.uniform(n, 1), k, b, n / 2);
        CostTerms cost = a.cost(shape);
        String where = a.id() + " N=" + n + " k=" + k;
        assertEquals(cost.steps(), Simulator.predict(a, shape, STEPS).timeNs(), where + " steps");
        assertEquals(cost.betaBytes(), Simulator.predict(a, shape, BYTES).timeNs(), where + " beta bytes");
    }

    @Test
    void nodeSymmetricRunsOneNodeAndPredictsWhatTheWholeJobDoes() {
        for (String id : List.of("allgather.direct", "allgather.ring", "alltoall.direct", "alltoall.pairwise",
                "barrier.dissemination")) {
            for (String placement : List.of("4x4", "8x2", "3x5")) {
                Algorithm a = CATALOG.byId(id);
                Shape shape = new Shape(a.collective(), Placement.parse(placement), 2, 4096, 0);
                Prediction full = Simulator.predict(a, shape, CONTENDED, Simulator.Mode.FULL, Long.MAX_VALUE);
                Prediction symmetric = Simulator.predict(a, shape, CONTENDED, Simulator.Mode.NODE_SYMMETRIC, Long.MAX_VALUE);
                assertEquals(full.timeNs(), symmetric.timeNs(), 1e-6 * full.timeNs(), id + " on " + placement);
                assertEquals(shape.placement().ranksOnNode(0), symmetric.simulatedRanks());
                assertEquals(shape.size(), full.simulatedRanks());
            }
        }
    }

    @Test
    void bruckIsNodeSymmetricUpToItsCopies() {
        // Ranks whose blocks wrap around copy more in Bruck's final shift; node 0's copies stand for all.
        Algorithm a = CATALOG.byId("allgather.bruck");
        Shape shape = new Shape(Collective.ALLGATHER, Placement.parse("4x4"), 2, 4096, 0);
        double full = Simulator.predict(a, shape, CONTENDED, Simulator.Mode.FULL, Long.MAX_VALUE).timeNs();
        double symmetric = Simulator.predict(a, shape, CONTENDED, Simulator.Mode.NODE_SYMMETRIC, Long.MAX_VALUE).timeNs();
        assertEquals(full, symmetric, 0.05 * full);
    }

    @Test
    void aScheduleThatTreatsTheRootSpeciallyIsNotNodeSymmetric() {
        Algorithm a = CATALOG.byId("gather.binomial");
        Shape shape = new Shape(Collective.GATHER, Placement.parse("4x4"), 2, 64, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Simulator.predict(a, shape, CONTENDED, Simulator.Mode.NODE_SYMMETRIC, Long.MAX_VALUE));
        assertTrue(e.getMessage().contains("not node-symmetric"), e.getMessage());
        // In the default mode a large job falls back to running every rank.
        Shape large = new Shape(Collective.GATHER, Placement.parse("64x8"), 2, 64, 0);
        assertEquals(512, Simulator.predict(a, large, CONTENDED).simulatedRanks());
    }

    @Test
    void aStripedRailMessageTakesEveryRailAndAShortOneTakesOne() {
        CostModel m = new CostModel(Map.of(LinkClass.SHARED_MEMORY, new LinkCost(0, 1, 0),
                LinkClass.RAIL, new LinkCost(100, 1, 0)), 0, 1024, 0, 0, CpuScope.NODE);
        Algorithm bcast = CATALOG.byId("broadcast.knomial");
        Shape small = new Shape(Collective.BROADCAST, Placement.uniform(2, 1), 2, 1024, 0);
        Shape large = new Shape(Collective.BROADCAST, Placement.uniform(2, 1), 2, 4096, 0);
        assertEquals(100 + 1024, Simulator.predict(bcast, small, m).timeNs());
        assertEquals(100 + 2048, Simulator.predict(bcast, large, m).timeNs());
    }

    @Test
    void ranksOfOneNodeShareItsRails() {
        // Four ranks per node each sending across: with 2 rails per node, bandwidth per rank halves compared with
        // one rank per node.
        CostModel m = CostModel.hockney(new LinkCost(0, 0, 0), new LinkCost(0, 1, 0));
        Algorithm direct = CATALOG.byId("alltoall.direct");
        double spread = Simulator.predict(direct, new Shape(Collective.ALLTOALL, Placement.uniform(2, 1), 2, 1000, 0), m)
                .timeNs();
        double packed = Simulator.predict(direct, new Shape(Collective.ALLTOALL, Placement.uniform(2, 4), 2, 1000, 0), m)
                .timeNs();
        // 2x1: one message each way, 1000 units. 2x4: each node sends 16 messages of 1000 over 2 rails.
        assertEquals(1000, spread);
        assertEquals(8000, packed);
    }

    @Test
    void aRailLimitLetsItsBurstThroughAtLinkSpeedAndHoldsTheRestToItsRate() {
        CostModel fast = CostModel.hockney(new LinkCost(0, 1, 0), new LinkCost(100, 1, 0));
        CostModel limited = fast.withRailLimit(new RailLimit(4, 1000));
        Algorithm bcast = CATALOG.byId("broadcast.knomial");
        Shape withinBurst = new Shape(Collective.BROADCAST, Placement.uniform(2, 1), 1, 1000, 0);
        Shape beyond = new Shape(Collective.BROADCAST, Placement.uniform(2, 1), 1, 3000, 0);
        assertEquals(100 + 1000, Simulator.predict(bcast, withinBurst, limited).timeNs());
        // The first 1000 bytes use the bucket, the other 2000 go at 4 per byte.
        assertEquals(2000 * 4, Simulator.predict(bcast, beyond, limited).timeNs());
        assertEquals(100 + 3000, Simulator.predict(bcast, beyond, fast).timeNs());
    }

    @Test
    void anEmptyBucketMakesARailCarryWhatALinkOfItsRateDoes() {
        // Links that cost nothing behind a bucket of 0 bytes at 1 per byte: the same times as Hockney links of 1 per
        // byte (see ranksOfOneNodeShareItsRails), so the buckets of a node's rails are shared as its rails are.
        CostModel limited = CostModel.hockney(new LinkCost(0, 0, 0), new LinkCost(0, 0, 0)).withRailLimit(new RailLimit(1, 0));
        Algorithm direct = CATALOG.byId("alltoall.direct");
        assertEquals(1000, Simulator.predict(direct, new Shape(Collective.ALLTOALL, Placement.uniform(2, 1), 2, 1000, 0),
                limited).timeNs());
        assertEquals(8000, Simulator.predict(direct, new Shape(Collective.ALLTOALL, Placement.uniform(2, 4), 2, 1000, 0),
                limited).timeNs());
    }

    @Test
    void processorTimeOnSharedCoresAddsUp() {
        // All cost is processor time and the whole job has one core: the collective takes at least the sum of every
        // message's processor time, and nothing overlaps it.
        CostModel oneCore = new CostModel(Map.of(LinkClass.SHARED_MEMORY, new LinkCost(1000, 0, 1),
                LinkClass.RAIL, new LinkCost(1000, 0, 1)), 0, 1024, 0, 1, CpuScope.HOST);
        Algorithm direct = CATALOG.byId("allgather.direct");
        Shape shape = new Shape(Collective.ALLGATHER, Placement.parse("2x2"), 2, 64, 0);
        // 4 ranks x 3 messages, each 1000 of processor time split between its two ends.
        assertEquals(12 * 1000, Simulator.predict(direct, shape, oneCore).timeNs(), 1e-6);
        CostModel ownCores = oneCore.withCpu(0, CpuScope.NODE);
        assertTrue(Simulator.predict(direct, shape, ownCores).timeNs() < 12 * 1000);
    }

    @Test
    void sharedMemoryStreamsLimitWhatANodeCopiesAtOnce() {
        CostModel unlimited = CostModel.hockney(new LinkCost(0, 1, 0), new LinkCost(0, 1, 0));
        Algorithm direct = CATALOG.byId("allgather.direct");
        Shape shape = new Shape(Collective.ALLGATHER, Placement.singleNode(4), 3, 100, 0);
        assertEquals(100, Simulator.predict(direct, shape, unlimited).timeNs());
        // 12 messages of 100 through one stream.
        assertEquals(1200, Simulator.predict(direct, shape, unlimited.withShmStreamsPerNode(1)).timeNs());
    }

    @Test
    void aSimulationOverItsBudgetIsRefusedWithTheReason() {
        Algorithm direct = CATALOG.byId("alltoall.direct");
        Shape shape = new Shape(Collective.ALLTOALL, Placement.parse("8x8"), 2, 1, 0);
        SimulationTooLargeException e = assertThrows(SimulationTooLargeException.class,
                () -> Simulator.predict(direct, shape, CONTENDED, Simulator.Mode.FULL, 1000));
        assertTrue(e.getMessage().contains("budget of 1000"), e.getMessage());
    }

    @Test
    void largePlacementsRunOneNodeWhenSymmetric() {
        Algorithm direct = CATALOG.byId("allgather.direct");
        Shape shape = new Shape(Collective.ALLGATHER, Placement.parse("256x16"), 4, 1024, 0);
        Prediction p = Simulator.predict(direct, shape, CONTENDED);
        assertEquals(16, p.simulatedRanks());
        assertEquals(16L * 4095, p.messages());
        assertTrue(p.method().startsWith("node-symmetric"), p.method());
    }

    @Test
    void predictionsAreDeterministic() {
        Algorithm a = CATALOG.byId("broadcast.scatter-allgather");
        Shape shape = new Shape(Collective.BROADCAST, Placement.parse("3,4,2"), 2, 100_000, 4);
        assertEquals(Simulator.predict(a, shape, CONTENDED).timeNs(), Simulator.predict(a, shape, CONTENDED).timeNs());
    }

    @Test
    void crossoversAreWhereTheFastestChanges() {
        // Startup-bound small blocks favour few steps (gather-bcast: 2 ceil(log3 N)); bandwidth-bound large ones
        // favour direct, which moves every block once.
        CostModel m = CostModel.hockney(new LinkCost(10_000, 1, 0), new LinkCost(10_000, 1, 0));
        Placement p = Placement.uniform(27, 1);
        List<Algorithm> algorithms = List.of(CATALOG.byId("allgather.direct"), CATALOG.byId("allgather.gather-bcast"));
        Crossovers.Sweep sweep = Crossovers.sweep(algorithms, b -> new Shape(Collective.ALLGATHER, p, 2, b, 0),
                Crossovers.simulating(m, Long.MAX_VALUE), List.of(1L, 64L, 4096L, 262144L), 8, id -> { });
        assertEquals("allgather.gather-bcast", sweep.fastest(0));
        assertEquals("allgather.direct", sweep.fastest(3));
        assertEquals(1, sweep.crossovers().size());
        Crossovers.Crossover x = sweep.crossovers().getFirst();
        // Between the two sizes the refined bounds bracket the size where the predictions meet.
        Shape below = new Shape(Collective.ALLGATHER, p, 2, x.belowBytes(), 0);
        Shape above = new Shape(Collective.ALLGATHER, p, 2, x.aboveBytes(), 0);
        assertTrue(Simulator.predict(algorithms.get(1), below, m).timeNs() <= Simulator.predict(algorithms.get(0), below, m).timeNs());
        assertTrue(Simulator.predict(algorithms.get(1), above, m).timeNs() > Simulator.predict(algorithms.get(0), above, m).timeNs());
    }
}
