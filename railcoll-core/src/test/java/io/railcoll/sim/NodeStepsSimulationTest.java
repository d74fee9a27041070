package io.railcoll.sim;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the simulator prices node steps (decision 0101): copies as copies, a flag as one shared-memory startup. */
class NodeStepsSimulationTest {
    private static final double ALPHA_SHM = 100;
    private static final double COPY_NS_PER_BYTE = 0.1;
    private static final CostModel MODEL = CostModel.hockney(new LinkCost(ALPHA_SHM, 0, 0), new LinkCost(5_000, 1, 0))
            .withCopyNsPerByte(COPY_NS_PER_BYTE);
    private static final AlgorithmCatalog CATALOG = AlgorithmCatalog.standard();

    @Test
    void aBarrierOfFlagsOnOneNodeCostsTwoFlagCrossings() {
        // flags to the master, the master's release (decision 0187: the master leaves first)
        Shape shape = new Shape(Collective.BARRIER, Placement.parse("1x4"), 2, 0, 0);
        assertEquals(2 * ALPHA_SHM, Simulator.predict(CATALOG.byId("barrier.shm"), shape, MODEL).timeNs(), 1e-9);
    }

    @Test
    void aBarrierOfFlagsAcrossNodesAddsTheMastersRoundsAndTwoCrossings() {
        Shape shape = new Shape(Collective.BARRIER, Placement.parse("4x2"), 1, 0, 0);
        // flags to the master, two dissemination rounds of one rail startup, the release flag
        assertEquals(2 * ALPHA_SHM + 2 * 5_000, Simulator.predict(CATALOG.byId("barrier.shm"), shape, MODEL).timeNs(),
                1e-9);
    }

    /**
     * A block in the flag's line (decision 0202) costs its flag crossing and nothing more: a 1x4 broadcast of 24 bytes
     * is one crossing, while 25 bytes go through the node buffer, a crossing plus the root's write and a reader's read.
     */
    @Test
    void aBlockInTheFlagsLineCostsOneCrossingAndNoCopy() {
        Algorithm broadcast = CATALOG.byId("broadcast.shm");
        double inLine = Simulator.predict(broadcast, new Shape(Collective.BROADCAST, Placement.parse("1x4"), 2, 24, 1),
                MODEL).timeNs();
        assertEquals(ALPHA_SHM, inLine, 1e-9);
        double slot = Simulator.predict(broadcast, new Shape(Collective.BROADCAST, Placement.parse("1x4"), 2, 25, 1),
                MODEL).timeNs();
        assertEquals(ALPHA_SHM + 2 * 25 * COPY_NS_PER_BYTE, slot, 1e-9);
        // An all-gather's ranks each await three node-mates' lines: one crossing deep, the own block's copy (after the
        // raise) hidden behind it.
        double allgather = Simulator.predict(CATALOG.byId("allgather.shm"), new Shape(Collective.ALLGATHER,
                Placement.parse("1x4"), 2, 8, 0), MODEL).timeNs();
        assertEquals(ALPHA_SHM, allgather, 1e-9);
    }

    /** Readers copy chunk j while the root writes chunk j+1: less than a write of the message plus a read of it. */
    @Test
    void aPipelinedBroadcastOverlapsTheRootsWritesWithTheReadersReads() {
        long b = 1 << 20;
        Shape shape = new Shape(Collective.BROADCAST, Placement.parse("1x4"), 2, b, 1);
        Algorithm pipeline = CATALOG.byId("broadcast.shm");
        double ns = Simulator.predict(pipeline, shape, MODEL).timeNs();
        double writeThenRead = 2 * b * COPY_NS_PER_BYTE;
        assertTrue(ns < 0.7 * writeThenRead, ns + " ns, write then read " + writeThenRead);
        assertTrue(ns > b * COPY_NS_PER_BYTE, ns + " ns: at least the root's write");
    }

    /**
     * {@code allgather.smp-direct-shm} priced from its program (decisions 0156, 0157): on slow rails, at 1 MiB per
     * rank on 4x4, the node's copies hide behind the masters' exchange (pieces overlap), so the time stays within 10% of the
     * rails' bound, each master receiving (M-1) L b over k rails, and far below that bound plus every copy in turn.
     */
    @Test
    void theSmpDirectShmAllgatherHidesItsNodeCopiesBehindTheRails() {
        long b = 1 << 20;
        Shape shape = new Shape(Collective.ALLGATHER, Placement.parse("4x4"), 2, b, 0);
        double ns = Simulator.predict(CATALOG.byId("allgather.smp-direct-shm"), shape, MODEL).timeNs();
        double rails = 3.0 * 4 * b * 1 / 2;
        // a mate writes b and reads 15 b; the master reads 3 b and writes 12 b
        double copies = 16.0 * b * COPY_NS_PER_BYTE + 15.0 * b * COPY_NS_PER_BYTE;
        assertTrue(ns >= rails, ns + " ns, rails' bound " + rails);
        assertTrue(ns < 1.1 * rails && ns < rails + 0.5 * copies, ns + " ns, rails' bound " + rails + ", copies "
                + copies);
    }

    /**
     * Single copy (decision 0143): a pull is one copy of its bytes plus one startup, with no node-buffer round trip,
     * so an all-gather costs each rank its own block's copy and L - 1 pulls, and a broadcast beats the pipeline.
     */
    @Test
    void singleCopyStepsArePricedAsOneCopyPlusAStartup() {
        long b = 1 << 20;
        Shape allgather = new Shape(Collective.ALLGATHER, Placement.parse("1x4"), 1, b, 0);
        double ns = Simulator.predict(CATALOG.byId("allgather.shm-single-copy"), allgather, MODEL).timeNs();
        double copies = 4 * b * COPY_NS_PER_BYTE + 3 * ALPHA_SHM;
        assertTrue(ns >= copies && ns <= copies + 3 * ALPHA_SHM, ns + " ns, copies and startups " + copies);
        Shape broadcast = new Shape(Collective.BROADCAST, Placement.parse("1x4"), 1, b, 2);
        double single = Simulator.predict(CATALOG.byId("broadcast.shm-single-copy"), broadcast, MODEL).timeNs();
        double pipeline = Simulator.predict(CATALOG.byId("broadcast.shm"), broadcast, MODEL).timeNs();
        assertTrue(single < pipeline, "single copy " + single + " ns, pipeline " + pipeline + " ns");
        assertTrue(single < b * COPY_NS_PER_BYTE, single + " ns: the root and each reader copy a part at once");
    }

    @Test
    void anAwaitOfARaiseNeverMadeIsRefused() {
        Shape shape = new Shape(Collective.BARRIER, Placement.parse("1x2"), 1, 0, 0);
        Algorithm broken = new Algorithm() {
            @Override
            public String id() {
                return "barrier.broken";
            }

            @Override
            public Collective collective() {
                return Collective.BARRIER;
            }

            @Override
            public RankProgram program(Shape s, int rank) {
                return new RankProgram(rank, List.of(new Op.Publish(0), new Op.AwaitFlag(1 - rank, 0, 2)), 0);
            }

            @Override
            public String summary() {
                return "awaits a second raise nobody makes";
            }
        };
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> Simulator.predict(broken, shape, MODEL));
        assertTrue(e.getMessage().contains("never made"), e.getMessage());
    }
}
