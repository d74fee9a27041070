package io.railcoll.algorithm;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlgorithmCatalogTest {
    private final AlgorithmCatalog catalog = AlgorithmCatalog.standard();

    @Test
    void listsEveryAlgorithm() {
        assertEquals(List.of("gather.binomial", "gather.direct", "gather.shm", "gather.shm-single-copy", "allgather.direct",
                "allgather.standard-exchange", "allgather.bruck", "allgather.ring", "allgather.gather-bcast",
                "allgather.smp-gather-bcast", "allgather.smp-gather-mcast", "allgather.smp-direct", "allgather.smp-bruck",
                "allgather.mc-1group", "allgather.mc-gather-based", "allgather.mc-2group", "allgather.mc-groups",
                "allgather.shm", "allgather.smp-direct-shm", "allgather.shm-single-copy", "alltoall.direct", "alltoall.standard-exchange", "alltoall.bruck", "alltoall.pairwise",
                "broadcast.knomial", "broadcast.scatter-allgather", "broadcast.multicast", "broadcast.shm",
                "broadcast.shm-single-copy", "broadcast.shm-scatter-allgather",
                "allreduce.recursive-doubling", "allreduce.ring", "allreduce.rabenseifner", "allreduce.kport",
                "allreduce.smp", "allreduce.multi-leader", "allreduce.multi-leader-rabenseifner",
                "allreduce.multi-leader-direct", "allreduce.shm", "allreduce.shm-doubling", "allreduce.shm-single-copy",
                "allreduce.multi-leader-single-copy",
                "reduce.binomial", "reduce.rabenseifner",
                "reduce-scatter.ring", "reduce-scatter.recursive-halving", "reduce-scatter.shm",
                "scan.recursive-doubling", "exscan.recursive-doubling", "scan.smp", "scan.shm", "exscan.shm", "scan.shm-single-copy", "exscan.shm-single-copy",
                "allreduce.deterministic", "reduce.deterministic",
                "reduce-scatter.deterministic", "scan.deterministic", "exscan.deterministic", "scatter.binomial",
                "scatter.direct", "gatherv.direct", "gatherv.binomial",
                "scatterv.direct", "scatterv.binomial", "allgatherv.ring", "allgatherv.direct", "alltoallv.direct",
                "alltoallv.pairwise", "reduce-scatterv.ring", "reduce-scatterv.direct", "barrier.dissemination",
                "barrier.shm", "barrier.shm-dissemination"), catalog.ids());
    }

    /**
     * The one-node gather and all-gather in shared memory hand the checker, simulator and cost model the programs the
     * engine runs (node steps, decision 0190), not a stand-in the node's shared memory replaces.
     */
    @Test
    void theNodeBuffersGatherAndAllgatherAreTheirOwnPrograms() {
        for (String id : List.of("gather.shm", "allgather.shm")) {
            Algorithm a = catalog.byId(id);
            assertTrue(a instanceof io.railcoll.schedule.NodeRegionUser, id);
            Shape shape = new Shape(a.collective(), Placement.singleNode(3), 1, 100, 1);
            assertTrue(a.program(shape, 0).ops().stream().anyMatch(o -> o instanceof io.railcoll.schedule.Op.NodeWrite
                    || o instanceof io.railcoll.schedule.Op.NodeRead), id);
        }
    }

    @Test
    void idsNameTheirCollectiveAndSummariesAreThere() {
        for (Algorithm a : catalog.all()) {
            assertTrue(a.id().startsWith(a.collective().id() + "."), a.id());
            assertFalse(a.summary().isBlank(), a.id());
            assertSame(a, catalog.byId(a.id()));
        }
    }

    @Test
    void everyAlgorithmStatesItsOwnCost() throws NoSuchMethodException {
        // The interface's default measures the programs, which the checker could not hold against anything.
        for (Algorithm a : catalog.all()) {
            assertEquals(a.getClass(), a.getClass().getMethod("cost", Shape.class).getDeclaringClass(), a.id());
        }
    }

    @Test
    void perCollective() {
        assertEquals(List.of("alltoall.direct", "alltoall.standard-exchange", "alltoall.bruck", "alltoall.pairwise"),
                catalog.forCollective(Collective.ALLTOALL).stream().map(Algorithm::id).toList());
        for (Collective c : Collective.values()) {
            assertFalse(catalog.forCollective(c).isEmpty(), c.id());
        }
    }

    @Test
    void unknownIdListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> catalog.byId("allgather.magic"));
        assertTrue(e.getMessage().startsWith("unknown algorithm 'allgather.magic'; known: gather.binomial, gather.direct"),
                e.getMessage());
    }

    @Test
    void requireSaysWhyAShapeCannotRun() {
        Shape gather = new Shape(Collective.GATHER, Placement.ofCounts(3, 4, 2), 2, 64, 4);
        assertSame(catalog.byId("gather.direct"), catalog.require("gather.direct", gather));
        IllegalArgumentException wrongCollective = assertThrows(IllegalArgumentException.class,
                () -> catalog.require("allgather.bruck", gather));
        assertTrue(wrongCollective.getMessage().contains("allgather.bruck runs allgather, but the shape is a gather"),
                wrongCollective.getMessage());
        Shape huge = new Shape(Collective.ALLTOALL, Placement.uniform(64, 1), 2, Long.MAX_VALUE / 1000, 0);
        IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> catalog.require("alltoall.bruck", huge));
        assertTrue(tooBig.getMessage().contains("overflow 64 bits"), tooBig.getMessage());
    }
}
