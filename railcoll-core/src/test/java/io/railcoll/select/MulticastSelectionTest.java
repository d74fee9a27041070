package io.railcoll.select;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.MulticastUser;
import io.railcoll.schedule.Op;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.Simulator;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Selection of the transport-provided {@code broadcast.multicast}: enabled or not, placement, cost, explanation. */
class MulticastSelectionTest {
    private static final String BASE = """
            railcoll.tuning.version = 1
            model.shm.alpha-ns = 2000
            model.shm.ns-per-byte = 0.25
            model.rail.alpha-ns = 30000
            model.rail.ns-per-byte = 0.5
            """;
    private static final String MCAST = BASE + """
            model.mcast.alpha-ns = 20000
            model.mcast.ns-per-byte = 0.6
            """;
    private static final Placement P4X4 = Placement.parse("4x4");

    private static AlgorithmSelector selector(String tuning, boolean enabled) {
        AlgorithmSelector s = new AlgorithmSelector(Map.of(), TuningFile.parse(tuning, "t.properties"));
        if (enabled) {
            s.enableTransport("multicast");
        }
        return s;
    }

    private static Shape broadcast(Placement p, long b, int root) {
        return new Shape(Collective.BROADCAST, p, 2, b, root);
    }

    @Test
    void theCatalogListsItAsAMulticastProgramWithItsPaper() {
        var a = AlgorithmCatalog.standard().byId("broadcast.multicast");
        assertTrue(a instanceof MulticastUser);
        Shape shape = broadcast(P4X4, 100, 5);
        for (int r = 0; r < 16; r++) {
            assertEquals(List.of(new Op.Multicast(5, Buffer.RECV, 0, 100)), a.program(shape, r).ops(), "rank " + r);
        }
        assertTrue(a.summary().contains("paper 003"), a.summary());
    }

    @Test
    void forcingItWhileMulticastIsOffFailsSayingHowToTurnItOn() {
        AlgorithmSelector s = selector(MCAST, false);
        s.force("broadcast.multicast");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.select(broadcast(P4X4, 8, 0)));
        assertTrue(e.getMessage().contains("RAILCOLL_MCAST=auto"), e.getMessage());
        assertTrue(s.explain(broadcast(P4X4, 8, 0)).why().contains("cannot run"), s.explain(broadcast(P4X4, 8, 0)).why());
    }

    @Test
    void forcingItOnOneNodeFailsNamingThePlacement() {
        AlgorithmSelector s = selector(MCAST, true);
        s.force("broadcast.multicast");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.select(broadcast(Placement.singleNode(4), 8, 0)));
        assertTrue(e.getMessage().contains("one node"), e.getMessage());
        assertEquals("broadcast.multicast", s.select(broadcast(P4X4, 8, 3)).id());
    }

    @Test
    void offItIsNeverChosenWhateverTheModelSays() {
        AlgorithmSelector s = selector(MCAST, false);
        for (long b : new long[] {0, 1, 1400, 65536, 4 << 20}) {
            assertNotEquals("broadcast.multicast", s.select(broadcast(P4X4, b, 0)).id());
        }
    }

    @Test
    void withoutMulticastParametersItIsNotCostedAndOnlyRunsWhenForced() {
        AlgorithmSelector s = selector(BASE, true);
        Explanation e = s.explain(broadcast(P4X4, 1 << 20, 0));
        var c = e.candidates().stream().filter(x -> x.id().equals("broadcast.multicast")).findFirst().orElseThrow();
        assertTrue(c.predictedNs().isEmpty() && c.detail().contains("model.mcast"), c.toString());
        assertNotEquals("broadcast.multicast", s.select(broadcast(P4X4, 1 << 20, 0)).id());
    }

    @Test
    void theModelPicksItExactlyWhenItsPredictionBeatsEveryScheduleAlgorithm() {
        AlgorithmSelector s = selector(MCAST, true);
        CostModel model = TuningFile.parse(MCAST, "t").model();
        Random rnd = new Random(8);
        String[] placements = {"4x4", "2x8", "3,4,2", "8x2", "16x1"};
        int picked = 0;
        int passed = 0;
        for (int i = 0; i < 40; i++) {
            Placement p = Placement.parse(placements[rnd.nextInt(placements.length)]);
            long b = 1L << rnd.nextInt(23);
            int root = rnd.nextInt(p.size());
            Shape shape = broadcast(p, b, root);
            double mc = MulticastCost.predictNs(shape, model).orElseThrow();
            double best = Double.POSITIVE_INFINITY;
            for (var a : AlgorithmCatalog.standard().forCollective(Collective.BROADCAST)) {
                if (!(a instanceof MulticastUser) && a.unsupportedReason(shape).isEmpty()) {
                    best = Math.min(best, Simulator.predict(a, shape, model, Simulator.Mode.AUTO,
                            AlgorithmSelector.SELECTION_MAX_OPS).timeNs());
                }
            }
            boolean chosen = s.select(shape).id().equals("broadcast.multicast");
            assertEquals(mc < best, chosen, shape + ": multicast " + mc + " ns, best schedule " + best + " ns");
            picked += chosen ? 1 : 0;
            passed += chosen ? 0 : 1;
        }
        assertTrue(picked > 0 && passed > 0, "the sample must exercise both outcomes: picked " + picked + ", passed " + passed);
    }

    @Test
    void theMulticastCostDoesNotGrowWithTheMembersExceptForTheSyncTree() {
        CostModel model = TuningFile.parse(MCAST, "t").model();
        OptionalDouble four = MulticastCost.predictNs(broadcast(Placement.parse("4x1"), 1 << 20, 0), model);
        OptionalDouble sixteen = MulticastCost.predictNs(broadcast(P4X4, 1 << 20, 0), model);
        // 4 members: sync depth 1; 16 members: depth 2; one more rail alpha up and down.
        assertEquals(2 * 30000.0, sixteen.getAsDouble() - four.getAsDouble(), 1e-6);
        double small = MulticastCost.predictNs(broadcast(P4X4, 8, 0), model).getAsDouble();
        assertEquals(20000 + 8 * 0.6 + 2 * 2 * 30000.0 / 16, small, 1e-6);
        assertFalse(MulticastCost.predictNs(broadcast(P4X4, 8, 0), TuningFile.parse(BASE, "t").model()).isPresent());
    }

    @Test
    void theGatherMulticastAllgatherCostsItsSimulatedGatherPlusTheMulticastOfTheWholeResult() {
        AlgorithmSelector s = selector(MCAST, true);
        CostModel model = TuningFile.parse(MCAST, "t").model();
        Shape shape = new Shape(Collective.ALLGATHER, P4X4, 2, 4096, 0);
        var c = s.explain(shape).candidates().stream().filter(x -> x.id().equals("allgather.smp-gather-mcast"))
                .findFirst().orElseThrow();
        double gather = Simulator.predict(io.railcoll.algorithm.allgather.SmpGatherBroadcastAllgather.gatherToRoot(),
                shape, model, Simulator.Mode.AUTO, AlgorithmSelector.SELECTION_MAX_OPS).timeNs();
        assertEquals(gather + MulticastCost.predictNs(16 * 4096, 16, model).getAsDouble(), c.predictedNs().getAsDouble(), 1e-6);
        // Priced through its one program: the simulator runs the gather's messages and prices the Multicast op.
        assertTrue(c.detail().startsWith("simulated"), c.detail());
        assertTrue(selector(MCAST, false).explain(shape).candidates().stream()
                .anyMatch(x -> x.id().equals("allgather.smp-gather-mcast") && x.detail().startsWith("cannot run")));
    }

    @Test
    void aRuleNamingItIsSkippedWhileMulticastIsOff() {
        String rules = MCAST + "rule.broadcast.10 = broadcast.multicast if size=1k.. nodes=2..\n";
        assertEquals("broadcast.multicast", selector(rules, true).select(broadcast(P4X4, 4096, 0)).id());
        assertNotEquals("broadcast.multicast", selector(rules, false).select(broadcast(P4X4, 4096, 0)).id());
    }
}
