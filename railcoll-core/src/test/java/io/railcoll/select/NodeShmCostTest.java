package io.railcoll.select;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.CpuScope;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.Simulator;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a node-phased algorithm is costed: the slowest node's step before, the masters' schedule as simulated, the
 * slowest node's step after, one after the other ({@code barrier.shm} across nodes). (The one-node case, priced on
 * {@code allgather.shm}, went when that became a node-step program, decision 0190.)
 */
class NodeShmCostTest {
    private static final NodePhased BARRIER_SHM = (NodePhased) AlgorithmCatalog.standard().byId("barrier.shm");
    /** 2 host cores shared by every rank, shared memory fast, rails slow: the testbed's proportions. */
    private static final CostModel MODEL = CostModel.hockney(new LinkCost(2_000, 0.1, 0), new LinkCost(30_000, 2, 0))
            .withCpu(2, CpuScope.HOST).withCopyNsPerByte(0.1);

    @ParameterizedTest
    @ValueSource(strings = {"4x4", "3,4,2", "2x1"})
    void theNodeStepsAndTheMastersScheduleAddUp(String placement) throws Exception {
        Shape shape = new Shape(Collective.BARRIER, Placement.parse(placement), 2, 0, 0);
        double masters = Simulator.predict(BARRIER_SHM.between(shape).orElseThrow(), shape, MODEL,
                Simulator.Mode.AUTO, 10_000_000).timeNs();
        double before = 0;
        double after = 0;
        for (int node = 0; node < shape.placement().nodeCount(); node++) {
            before = Math.max(before, NodeShmCost.stepNs(BARRIER_SHM.before(shape, node), node, shape, MODEL));
            after = Math.max(after, NodeShmCost.stepNs(BARRIER_SHM.after(shape, node), node, shape, MODEL));
        }
        assertTrue(masters > 0, "masters' dissemination priced at " + masters + " ns");
        assertEquals(before + masters + after, NodeShmCost.predictNs(BARRIER_SHM, shape, MODEL, 10_000_000), 1e-6);
    }
}
