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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a node-phased algorithm is costed: its node steps around the masters' schedule one after the other, or, where
 * it overlaps them ({@code allgather.smp-direct-shm} from 256 KiB per node), hidden behind the masters' schedule
 * but for the last step, and never faster than that schedule alone.
 */
class NodeShmCostTest {
    private static final NodePhased SMP_DIRECT_SHM =
            (NodePhased) AlgorithmCatalog.standard().byId("allgather.smp-direct-shm");
    /** 2 host cores shared by every rank, shared memory fast, rails slow: the testbed's proportions. */
    private static final CostModel MODEL = CostModel.hockney(new LinkCost(2_000, 0.1, 0), new LinkCost(30_000, 2, 0))
            .withCpu(2, CpuScope.HOST).withCopyNsPerByte(0.1);

    private static double masters(Shape shape) {
        return Simulator.predict(SMP_DIRECT_SHM.between(shape).orElseThrow(), shape, MODEL,
                Simulator.Mode.AUTO, 10_000_000).timeNs();
    }

    private static double sequential(Shape shape) {
        double before = 0;
        double after = 0;
        for (int node = 0; node < shape.placement().nodeCount(); node++) {
            before = Math.max(before, NodeShmCost.stepNs(SMP_DIRECT_SHM.before(shape, node), node, shape, MODEL));
            after = Math.max(after, NodeShmCost.stepNs(SMP_DIRECT_SHM.after(shape, node), node, shape, MODEL));
        }
        return before + masters(shape) + after;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 4096, 32768})
    void belowTheOverlapTheStepsAddUp(long b) throws Exception {
        Shape shape = new Shape(Collective.ALLGATHER, Placement.uniform(4, 4), 2, b, 0);
        assertNull(SMP_DIRECT_SHM.overlap(shape, 0));
        assertEquals(sequential(shape), NodeShmCost.predictNs(SMP_DIRECT_SHM, shape, MODEL, 10_000_000), 1e-6);
    }

    @ParameterizedTest
    @ValueSource(longs = {65536, 262144, 1 << 20})
    void overlappedStepsHideBehindTheMastersScheduleButNeverBeatIt(long b) throws Exception {
        Shape shape = new Shape(Collective.ALLGATHER, Placement.uniform(4, 4), 2, b, 0);
        assertNotNull(SMP_DIRECT_SHM.overlap(shape, 0));
        double predicted = NodeShmCost.predictNs(SMP_DIRECT_SHM, shape, MODEL, 10_000_000);
        assertTrue(predicted < sequential(shape), predicted + " ns, sequential " + sequential(shape) + " ns");
        assertTrue(predicted >= masters(shape), predicted + " ns, masters alone " + masters(shape) + " ns");
    }
}
