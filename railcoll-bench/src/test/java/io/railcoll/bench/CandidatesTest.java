package io.railcoll.bench;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What "all" expands to: the node-step algorithms (decision 0101) only where shared memory is on, as the *.shm ones. */
class CandidatesTest {
    private static final AlgorithmCatalog CATALOG = AlgorithmCatalog.standard();

    @Test
    void nodeStepAlgorithmsNeedSharedMemoryOn() {
        Shape barrier = new Shape(Collective.BARRIER, Placement.parse("2,1,2"), 2, 1, 0);
        Shape broadcast = new Shape(Collective.BROADCAST, Placement.singleNode(3), 1, 1, 0);
        for (String id : new String[] {"barrier.shm"}) {
            Algorithm a = CATALOG.byId(id);
            assertTrue(Candidates.runnable(a, barrier, Map.of()), id + " with shared memory on");
            assertFalse(Candidates.runnable(a, barrier, Map.of("RAILCOLL_SHM", "off")), id + " with RAILCOLL_SHM=off");
        }
        Algorithm pipeline = CATALOG.byId("broadcast.shm");
        assertTrue(Candidates.runnable(pipeline, broadcast, Map.of()));
        assertFalse(Candidates.runnable(pipeline, broadcast, Map.of("RAILCOLL_SHM", "0")));
    }

    @Test
    void singleCopyAlgorithmsNeedCrossMemoryAttachOnToo() {
        Shape broadcast = new Shape(Collective.BROADCAST, Placement.singleNode(4), 1, 1, 0);
        Algorithm singleCopy = CATALOG.byId("broadcast.shm-single-copy");
        assertTrue(Candidates.runnable(singleCopy, broadcast, Map.of()));
        assertFalse(Candidates.runnable(singleCopy, broadcast, Map.of("RAILCOLL_CMA", "off")), "RAILCOLL_CMA=off");
        assertFalse(Candidates.runnable(singleCopy, broadcast, Map.of("RAILCOLL_SHM", "off")), "RAILCOLL_SHM=off");
    }
}
