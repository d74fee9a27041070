package io.railcoll.bench.tune;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
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
    @Test
    void recoversTheModelThatProducedTheTimings() {
        CostModel truth = new CostModel(Map.of(LinkClass.SHARED_MEMORY, new LinkCost(60_000, 0.6, 1),
                LinkClass.RAIL, new LinkCost(150_000, 0.9, 1)), 0.3, 1024, 0, 2, CpuScope.HOST);
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
        // Start a factor of three or more off in every parameter.
        CostModel start = new CostModel(Map.of(LinkClass.SHARED_MEMORY, new LinkCost(20_000, 0.1, 1),
                LinkClass.RAIL, new LinkCost(30_000, 0.2, 1)), 0.05, 1024, 0, 2, CpuScope.HOST);
        Calibration.Result fit = Calibration.fit(start, probes);
        // The timings pin the model down only so far (two classes of processor time on shared cores trade off a
        // little), but every parameter comes back within a quarter and the predictions within a few percent.
        assertTrue(fit.rmsLogError() < 0.03, "rms log error " + fit.rmsLogError());
        assertWithin(60_000, fit.model().link(LinkClass.SHARED_MEMORY).alphaNs());
        assertWithin(0.6, fit.model().link(LinkClass.SHARED_MEMORY).nsPerByte());
        assertWithin(150_000, fit.model().link(LinkClass.RAIL).alphaNs());
        assertWithin(0.9, fit.model().link(LinkClass.RAIL).nsPerByte());
    }

    private static void assertWithin(double expected, double actual) {
        assertEquals(expected, actual, 0.25 * expected);
    }
}
