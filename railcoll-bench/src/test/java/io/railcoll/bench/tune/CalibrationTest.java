package io.railcoll.bench.tune;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.select.ModelCost;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.CpuScope;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.Simulator;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CalibrationTest {
    private static final CostModel PING_PONG = new CostModel(Map.of(
            LinkClass.SHARED_MEMORY, new LinkCost(20_000, 0.1, 1), LinkClass.RAIL, new LinkCost(50_000, 0.2, 1)),
            0.05, 1024, 0, 2, CpuScope.HOST);

    @Test
    void recoversTheFactorsThatProducedTheTimings() {
        // The "measured" times: every startup time three times the ping-pong's, every time per byte five times, and
        // 80% of both processor time.
        CostModel truth = Calibration.model(PING_PONG, new double[] {Math.log(3), Math.log(5), Calibration.logit(0.8)});
        Placement p = Placement.parse("2x2");
        List<Calibration.Probe> probes = new ArrayList<>();
        for (String id : List.of("allgather.direct", "allgather.ring", "broadcast.knomial", "gather.direct")) {
            for (long b : new long[] {64, 65536, 1 << 20}) {
                Collective c = AlgorithmCatalog.standard().byId(id).collective();
                Shape shape = new Shape(c, p, 2, b, 0);
                probes.add(new Calibration.Probe(shape, id,
                        Simulator.predict(AlgorithmCatalog.standard().byId(id), shape, truth).timeNs()));
            }
        }
        Calibration.Result fit = Calibration.fit(PING_PONG, probes);
        assertTrue(fit.rmsLogError() < 0.02, "rms log error " + fit.rmsLogError());
        assertEquals(60_000, fit.model().link(LinkClass.SHARED_MEMORY).alphaNs(), 0.05 * 60_000);
        assertEquals(150_000, fit.model().link(LinkClass.RAIL).alphaNs(), 0.05 * 150_000);
        assertEquals(0.5, fit.model().link(LinkClass.SHARED_MEMORY).nsPerByte(), 0.05 * 0.5);
        assertEquals(1.0, fit.model().link(LinkClass.RAIL).nsPerByte(), 0.05);
        assertEquals(0.25, fit.model().copyNsPerByte(), 0.05 * 0.25);
        assertEquals(0.8, fit.model().link(LinkClass.RAIL).cpuFraction(), 0.05);
    }

    @Test
    void algorithmsWithNodeStepsAreFittedWithThePredictionSelectionRanksBy() {
        // The fit must see the time selection compares, or it tunes the model to a different number: since decision
        // 0194 that is the simulation of every program, node steps included.
        Placement p = Placement.parse("2x2");
        Shape barrier = new Shape(Collective.BARRIER, p, 2, 0, 0);
        Shape allgather = new Shape(Collective.ALLGATHER, p, 2, 65536, 0);
        Shape gather = new Shape(Collective.GATHER, Placement.parse("1x4"), 1, 65536, 0);
        for (Calibration.Probe probe : List.of(new Calibration.Probe(gather, "gather.shm", 1),
                new Calibration.Probe(barrier, "barrier.shm", 1),
                new Calibration.Probe(allgather, "allgather.smp-direct-shm", 1),
                new Calibration.Probe(allgather, "allgather.direct", 1))) {
            double fitted = Calibration.predict(PING_PONG, List.of(probe))[0];
            double selected = ModelCost.predict(AlgorithmCatalog.standard().byId(probe.algorithmId()), probe.shape(),
                    PING_PONG, Simulator.DEFAULT_MAX_OPS).predictedNs().orElseThrow();
            assertEquals(selected, fitted, probe.algorithmId());
        }
        // Node-step programs (decisions 0157, 0187, 0190): selection prices what runs.
        assertEquals(simulated("gather.shm", gather), fitted("gather.shm", gather), 1e-6);
        assertEquals(simulated("barrier.shm", barrier), fitted("barrier.shm", barrier), 1e-6);
        assertEquals(simulated("allgather.smp-direct-shm", allgather), fitted("allgather.smp-direct-shm", allgather),
                1e-6);
    }

    private static double simulated(String id, Shape shape) {
        return Simulator.predict(AlgorithmCatalog.standard().byId(id), shape, PING_PONG).timeNs();
    }

    private static double fitted(String id, Shape shape) {
        return Calibration.predict(PING_PONG, List.of(new Calibration.Probe(shape, id, 1)))[0];
    }

    @Test
    void theFitIsNoWorseThanWhereItStarted() {
        // Timings the model cannot match exactly (noise): the fit still lowers the error.
        Placement p = Placement.parse("2x2");
        List<Calibration.Probe> probes = new ArrayList<>();
        double[] noise = {1.3, 0.6, 2.0, 0.9, 1.1, 0.5};
        String[] ids = {"allgather.direct", "allgather.ring", "gather.direct"};
        for (int i = 0; i < 6; i++) {
            String id = ids[i % 3];
            Shape shape = new Shape(AlgorithmCatalog.standard().byId(id).collective(), p, 2, 1000L << i, 0);
            double t = Simulator.predict(AlgorithmCatalog.standard().byId(id), shape, PING_PONG).timeNs();
            probes.add(new Calibration.Probe(shape, id, 4 * t * noise[i]));
        }
        Calibration.Result fit = Calibration.fit(PING_PONG, probes);
        Calibration.Result none = new Calibration.Result(PING_PONG, probes, Calibration.predict(PING_PONG, probes));
        assertTrue(fit.rmsLogError() < none.rmsLogError(), fit.rmsLogError() + " vs " + none.rmsLogError());
    }
}
