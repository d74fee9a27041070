package io.railcoll.select;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the built-in table picks where it was measured (docs/results/main-job, allgather.md, shm-node.md): on the
 * testbed's 4x4 with 2 rails a node-aware all-gather at every size, on its 4x2 up to 16 KiB (the ring from 32 KiB); on
 * one node, with shared memory on, the collectives the node buffer carries out, and without shared memory something
 * that runs by messages.
 */
class BuiltInTableTest {
    /**
     * A rank's start-up reads the built-in table without the runnability check (it ships in the jar); this is where
     * that check runs on it, so a rule whose algorithm cannot run a shape it covers fails the build, naming its line.
     */
    @Test
    void theBuiltInTablePassesTheChecksEveryTuningFileGets() {
        Tuning checked = TuningFile.parse(TuningFile.builtInText(), "built-in");
        assertEquals(checked, TuningFile.builtIn());
        assertFalse(checked.rules().isEmpty());
    }

    private static String choice(String placement, int rails, long blockBytes) {
        return choice(Collective.ALLGATHER, placement, rails, blockBytes, false);
    }

    private static String choice(Collective c, String placement, int rails, long blockBytes, boolean shm) {
        AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        if (shm) {
            selector.enableTransport(NodeRegionUser.TRANSPORT);
        }
        return selector.select(new Shape(c, Placement.parse(placement), rails, blockBytes, 0)).id();
    }

    /** The choice on one node where shared memory is on and the node agreed on single copy. */
    private static String singleCopyChoice(Collective c, String placement, long blockBytes) {
        AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        selector.enableTransport(NodeRegionUser.TRANSPORT);
        selector.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
        return selector.select(new Shape(c, Placement.parse(placement), 1, blockBytes, 0)).id();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576})
    void onTheMainJobsClusterEveryAllgatherSizeGetsANodeAwareAlgorithm(long b) {
        for (boolean shm : new boolean[] {true, false}) {
            String id = choice(Collective.ALLGATHER, "4x4", 2, b, shm);
            assertTrue(id.contains(".smp-") || id.contains(".mc-"), "4x4, shm " + shm + ", " + b + " B: " + id);
        }
    }

    /** The main job's cluster (4x4, 2 rails, shared memory on): what each rule of the built-in table sends where. */
    @ParameterizedTest(name = "{0} of {1} B: {2}")
    @CsvSource({
            // all-gather: 1-group at 0-1 B and 256-511 B, SMP-aware gather-and-broadcast between, up to 2 KiB
            "allgather, 0, allgather.mc-1group", "allgather, 1, allgather.mc-1group",
            "allgather, 2, allgather.smp-gather-bcast", "allgather, 64, allgather.smp-gather-bcast",
            "allgather, 255, allgather.smp-gather-bcast", "allgather, 256, allgather.mc-1group",
            "allgather, 511, allgather.mc-1group", "allgather, 512, allgather.smp-gather-bcast",
            "allgather, 1024, allgather.smp-gather-bcast",
            // from 8 KiB the overlapped SMP-aware Direct, but the gather-based multi-group at 32-128 KiB
            "allgather, 8192, allgather.smp-direct-shm", "allgather, 16384, allgather.smp-direct-shm",
            "allgather, 32768, allgather.mc-gather-based", "allgather, 65536, allgather.mc-gather-based",
            "allgather, 131071, allgather.mc-gather-based", "allgather, 131072, allgather.smp-direct-shm",
            "allgather, 1048576, allgather.smp-direct-shm",
            // all-to-all by Bruck at 8-32 KiB; broadcast by scatter-allgather from 128 KiB
            "alltoall, 8192, alltoall.bruck", "alltoall, 32767, alltoall.bruck",
            "broadcast, 131072, broadcast.scatter-allgather", "broadcast, 1048576, broadcast.scatter-allgather",
            // all-reduce at 512 KiB-1 MiB by the leaders' direct exchange (measured at 1 MiB on 16 processors)
            "allreduce, 524288, allreduce.multi-leader-direct", "allreduce, 1048576, allreduce.multi-leader-direct"})
    void onTheMainJobsClusterEachRuleSendsItsSizesWhereItSays(String collective, long b, String expected) {
        assertEquals(expected, choice(Collective.fromId(collective), "4x4", 2, b, true));
    }

    /**
     * The rules' SMP-aware Direct with node steps is a program the engine runs (decision 0157), chosen only where
     * the node region is enabled.
     */
    @ParameterizedTest
    @ValueSource(longs = {8192, 16384, 131072, 1048576})
    void theSmpDirectShmRuleNeedsTheNodeRegion(long b) {
        Shape shape = new Shape(Collective.ALLGATHER, Placement.parse("4x4"), 2, b, 0);
        AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        assertNotEquals("allgather.smp-direct-shm", selector.select(shape).id(), "no node region yet");
        selector.enableTransport(NodeRegionUser.TRANSPORT);
        assertEquals("allgather.smp-direct-shm", selector.select(shape).id());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 64, 1024, 4096, 16384, 32768, 65536, 262144, 1048576})
    void withTwoRanksPerNodeSmallBlocksAreNodeAwareAndLargeOnesTakeTheRing(long b) {
        String id = choice("4x2", 2, b);
        if (b < 32768) {
            assertTrue(id.contains(".smp-") || id.contains(".mc-"), "4x2, " + b + " B: " + id);
        } else {
            assertEquals("allgather.ring", id, "4x2, " + b + " B");
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 64, 4096, 16384, 65536, 131072, 262144, 524287, 524288, 1048576, 4194304})
    void onOneNodeTheNodeBufferCarriesEveryCollective(long b) {
        for (String p : new String[] {"1x2", "1x3", "1x4", "1x8", "1x16"}) {
            // Node-step programs (decision 0190): also what a non-blocking call runs.
            assertEquals("allgather.shm", choice(Collective.ALLGATHER, p, 1, b, true), p + ", " + b + " B");
            assertEquals("gather.shm", choice(Collective.GATHER, p, 1, b, true), p + ", " + b + " B");
            // Broadcasts: the node buffer's pipeline (decisions 0181, 0186); without single copy agreed also on 2-3 ranks.
            assertEquals("broadcast.shm", choice(Collective.BROADCAST, p, 1, b, true), p + ", " + b + " B");
            // With single copy agreed, nodes of 2-3 ranks pull 64 KiB and up straight from the root (decision 0182).
            String withCma = b >= 65536 && (p.equals("1x2") || p.equals("1x3")) ? "broadcast.shm-single-copy"
                    : "broadcast.shm";
            assertEquals(withCma, singleCopyChoice(Collective.BROADCAST, p, b), p + ", " + b + " B, single copy");
            assertEquals("barrier.shm", choice(Collective.BARRIER, p, 1, 0, true), p);
        }
    }

    /**
     * Where the node agreed on cross-memory attach, one-node gathers and all-gathers of 2 ranks go single copy from
     * 64 KiB, as the node collectives did by themselves before gather.shm and allgather.shm became node-step programs
     * (decision 0191); gathers of 3 or more ranks from 1 MiB (decisions 0197, 0234); smaller blocks, and all-gathers of
     * more ranks, stay in the node buffer.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 1, 1024, 65535, 65536, 65537, 1048576, 4194304})
    void onOneNodeLargeGathersAndAllgathersAmongFewRanksGoSingleCopy(long b) {
        AlgorithmSelector cma = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        cma.enableTransport(NodeRegionUser.TRANSPORT);
        cma.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
        for (String p : new String[] {"1x2", "1x3", "1x4", "1x5", "1x8", "1x16"}) {
            int n = Placement.parse(p).size();
            boolean large = b >= 65536;
            for (int root : new int[] {0, n - 1}) {
                Shape gather = new Shape(Collective.GATHER, Placement.parse(p), 1, b, root);
                // From 1 MiB on 3 or more ranks single copy wherever ranks share processors too (decision 0234).
                assertEquals(large && n == 2 || n >= 3 && b >= 1048576 ? "gather.shm-single-copy" : "gather.shm",
                        cma.select(gather).id(), p + ", " + b + " B, root " + root);
            }
            Shape allgather = new Shape(Collective.ALLGATHER, Placement.parse(p), 1, b, 0);
            assertEquals(large && n == 2 ? "allgather.shm-single-copy" : "allgather.shm", cma.select(allgather).id(),
                    p + ", " + b + " B");
        }
    }

    /**
     * Where every rank of the job has a processor of its own (decision 0196) and the node agreed on single copy,
     * gathers of 3 or more ranks and all-reduces of 3 or more ranks go single copy from 1 MiB (the 16-processor
     * machine's figures); 2-rank gathers from 64 KiB as before, 2-rank all-reduces stay in the node buffer (measured
     * slower here, decision 0171); all-gathers and broadcasts are as where ranks share processors. Where ranks share
     * processors, gathers and all-reduces of 3 or more ranks from 1 MiB go single copy too (decision 0234). Without
     * single copy, the node buffer.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 8, 65536, 262144, 1048575, 1048576, 1048583, 4194304, 16L << 20})
    void whereEveryRankHasAProcessorLargeGathersAndAllreducesGoSingleCopy(long b) {
        for (String p : new String[] {"1x2", "1x3", "1x4", "1x16", "1x256"}) {
            Placement placement = Placement.parse(p);
            int n = placement.size();
            AlgorithmSelector own = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
            own.enableTransport(NodeRegionUser.TRANSPORT);
            own.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
            own.everyRankHasAProcessor(true);
            AlgorithmSelector shared = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
            shared.enableTransport(NodeRegionUser.TRANSPORT);
            shared.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
            AlgorithmSelector ownNoCma = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
            ownNoCma.enableTransport(NodeRegionUser.TRANSPORT);
            ownNoCma.everyRankHasAProcessor(true);
            String where = p + ", " + b + " B";
            boolean twoRankSingleCopy = n == 2 && b >= 65536;
            boolean large = n >= 3 && b >= 1048576;
            for (int root : new int[] {0, n - 1}) {
                Shape gather = new Shape(Collective.GATHER, placement, 1, b, root);
                assertEquals(twoRankSingleCopy || large ? "gather.shm-single-copy" : "gather.shm",
                        own.select(gather).id(), where + ", root " + root);
                assertEquals(twoRankSingleCopy || large ? "gather.shm-single-copy" : "gather.shm",
                        shared.select(gather).id(), where + ", root " + root + ", ranks share processors");
                assertEquals("gather.shm", ownNoCma.select(gather).id(), where + ", root " + root + ", no single copy");
            }
            Shape allgather = new Shape(Collective.ALLGATHER, placement, 1, b, 0);
            assertEquals(twoRankSingleCopy ? "allgather.shm-single-copy" : "allgather.shm", own.select(allgather).id(),
                    where);
            Shape broadcast = new Shape(Collective.BROADCAST, placement, 1, b, n - 1);
            assertEquals(shared.select(broadcast).id(), own.select(broadcast).id(), where);
            // Barriers: the dissemination in node flags where every rank has a processor (decisions 0201, 0230).
            Shape barrier = new Shape(Collective.BARRIER, placement, 1, 0, 0);
            assertEquals("barrier.shm-dissemination", own.select(barrier).id(), where);
            assertEquals("barrier.shm", shared.select(barrier).id(), where + ", ranks share processors");
            for (boolean commutative : new boolean[] {true, false}) {
                Shape allreduce = Shape.reduction(Collective.ALLREDUCE, placement, 1, b - b % 8, 0, 8, commutative);
                String wr = where + (commutative ? "" : ", in rank order");
                // Small vectors on 3-16 ranks with a processor each: recursive doubling in node steps (decision 0201).
                boolean doubling = n >= 3 && n <= 16 && b - b % 8 <= 16384;
                assertEquals(n >= 3 && b - b % 8 >= 1048576 ? "allreduce.shm-single-copy"
                        : doubling ? "allreduce.shm-doubling" : "allreduce.shm", own.select(allreduce).id(), wr);
                assertEquals(n >= 3 && b - b % 8 >= 1048576 ? "allreduce.shm-single-copy" : "allreduce.shm",
                        shared.select(allreduce).id(), wr + ", ranks share processors");
                assertEquals(doubling ? "allreduce.shm-doubling" : "allreduce.shm", ownNoCma.select(allreduce).id(),
                        wr + ", no single copy");
            }
        }
    }

    /**
     * One-node all-reduce in the node buffer (decision 0170), blocking and non-blocking (a schedule the engine runs),
     * any operator, also where single copy is agreed; without shared memory, or on several nodes, by messages.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 8, 1024, 8192, 131072, 1048576, 16L << 20})
    void onOneNodeAllreduceRunsInTheNodeBuffer(long b) {
        for (String p : new String[] {"1x2", "1x3", "1x4", "1x16"}) {
            for (boolean commutative : new boolean[] {true, false}) {
                Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.parse(p), 1, b, 0, 8, commutative);
                AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
                selector.enableTransport(NodeRegionUser.TRANSPORT);
                assertEquals("allreduce.shm", selector.select(shape).id(), p + ", " + b + " B");
                assertEquals("allreduce.shm", selector.select(shape).id(), p + ", " + b + " B");
                AlgorithmSelector noShm = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
                assertFalse(noShm.select(shape).id().equals("allreduce.shm"), p + ", " + b + " B");
            }
        }
        // Where the node agreed on cross-memory attach too: the node buffer on 2 ranks (single copy measured no faster
        // there, decision 0171), and below 1 MiB; single copy from 1 MiB on more ranks (decisions 0197, 0234).
        AlgorithmSelector cma = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        cma.enableTransport(NodeRegionUser.TRANSPORT);
        cma.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
        assertEquals(b >= 1048576 ? "allreduce.shm-single-copy" : "allreduce.shm", cma.select(
                Shape.reduction(Collective.ALLREDUCE, Placement.parse("1x4"), 1, b, 0, 8, false)).id(), b + " B");
        assertEquals("allreduce.shm", cma.select(
                Shape.reduction(Collective.ALLREDUCE, Placement.parse("1x2"), 1, b, 0, 8, false)).id(), "1x2, " + b + " B");
        Shape twoNodes = Shape.reduction(Collective.ALLREDUCE, Placement.parse("2x2"), 1, b, 0, 8, true);
        AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        selector.enableTransport(NodeRegionUser.TRANSPORT);
        assertFalse(selector.select(twoNodes).id().equals("allreduce.shm"), "2x2, " + b + " B");
    }

    /**
     * One-node reduce-scatter, scan and exscan in node steps where they were measured to lead (decisions 0222, 0229):
     * the reduce-scatter at every size on 2 ranks and up to 64 KiB blocks on 3-4 (from there the ring), the prefixes
     * at every size on 2 ranks and up to 64 KiB on 3-4, any operator; without shared memory, or on several nodes, by
     * messages.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 8, 1024, 8184, 8192, 65536, 65544, 1048576})
    void onOneNodeReduceScatterAndPrefixesRunInTheNodeBufferWhereTheyLead(long b) {
        for (String p : new String[] {"1x2", "1x3", "1x4"}) {
            int n = Placement.parse(p).size();
            for (boolean commutative : new boolean[] {true, false}) {
                AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
                selector.enableTransport(NodeRegionUser.TRANSPORT);
                AlgorithmSelector noShm = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
                String where = p + ", " + b + " B" + (commutative ? "" : ", in rank order");
                Shape rs = Shape.reduction(Collective.REDUCE_SCATTER, Placement.parse(p), 1, b, 0, 8, commutative);
                if (n == 2 || b <= 65536) {
                    assertEquals("reduce-scatter.shm", selector.select(rs).id(), where);
                } else if (commutative) {
                    assertEquals("reduce-scatter.ring", selector.select(rs).id(), where);
                }
                assertFalse(noShm.select(rs).id().endsWith(".shm"), where);
                for (Collective c : new Collective[] {Collective.SCAN, Collective.EXSCAN}) {
                    Shape scan = Shape.reduction(c, Placement.parse(p), 1, b, 0, 8, commutative);
                    if (n == 2 || b <= 65536) {
                        assertEquals(c.id() + ".shm", selector.select(scan).id(), where);
                    }
                    assertFalse(noShm.select(scan).id().endsWith(".shm"), where);
                }
            }
        }
        AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        selector.enableTransport(NodeRegionUser.TRANSPORT);
        Shape twoNodes = Shape.reduction(Collective.SCAN, Placement.parse("2x2"), 1, b, 0, 8, true);
        assertFalse(selector.select(twoNodes).id().endsWith(".shm"), "2x2, " + b + " B");
    }

    /**
     * The single-copy prefixes (decision 0227) are never the model's choice, single copy agreed or not, on any node
     * size (the model, which prices them as cheap, would pick them from 64 KiB on 5 ranks and more); forced, they run.
     */
    @ParameterizedTest
    @ValueSource(longs = {8, 65536, 1048576, 16777216})
    void theSingleCopyPrefixesRunOnlyWhenForcedOrNamedByARule(long b) {
        for (int n : new int[] {2, 3, 4, 5, 8, 16}) {
            for (boolean own : new boolean[] {true, false}) {
                for (Collective c : new Collective[] {Collective.SCAN, Collective.EXSCAN}) {
                    AlgorithmSelector cma = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
                    cma.enableTransport(NodeRegionUser.TRANSPORT);
                    cma.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
                    cma.everyRankHasAProcessor(own);
                    Shape shape = Shape.reduction(c, Placement.singleNode(n), 1, b, 0, 8, true);
                    String where = c.id() + " 1x" + n + ", " + b + " B";
                    assertFalse(cma.select(shape).id().endsWith("single-copy"), where + ": " + cma.select(shape).id());
                    if (n >= 5) { // no rule for these: the model's candidates are explained
                        assertTrue(cma.explain(shape).toString().contains("chosen only by a rule or when forced"),
                                where + ": " + cma.explain(shape));
                    }
                }
            }
        }
        AlgorithmSelector forced = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        forced.enableTransport(NodeRegionUser.TRANSPORT);
        forced.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
        forced.force("exscan.shm-single-copy");
        assertEquals("exscan.shm-single-copy", forced.select(Shape.reduction(Collective.EXSCAN, Placement.singleNode(3),
                1, b, 0, 8, false)).id());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 4096, 1048576})
    void withoutSharedMemoryOneNodeRunsByMessages(long b) {
        for (Collective c : new Collective[] {Collective.ALLGATHER, Collective.GATHER, Collective.BROADCAST}) {
            assertFalse(choice(c, "1x8", 1, b, false).endsWith(".shm"), c + " " + b);
        }
    }
    /**
     * Single copy is agreed node by node, so an algorithm that needs it on several nodes is never chosen by a rule or
     * the model (ranks on nodes that agreed differently would choose differently): only forced (decision 0207). The
     * model would have chosen allreduce.multi-leader-single-copy at 2x2 from 1 MiB.
     */
    @ParameterizedTest
    @ValueSource(longs = {8, 65536, 1048576, 4194304, 16777216})
    void aSingleCopyAlgorithmAcrossNodesRunsOnlyWhenForced(long b) {
        for (String p : new String[] {"2x2", "4x4", "3,4,2", "5x2", "2x8"}) {
            for (boolean own : new boolean[] {true, false}) {
                AlgorithmSelector cma = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
                cma.enableTransport(NodeRegionUser.TRANSPORT);
                cma.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
                cma.everyRankHasAProcessor(own);
                Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.parse(p), 2, b, 0, 8, true);
                assertFalse(cma.select(shape) instanceof io.railcoll.schedule.PeerAccessUser,
                        p + ", " + b + " B: " + cma.select(shape).id());
                assertTrue(cma.explain(shape).toString().contains("chosen only when forced"),
                        p + ", " + b + " B: " + cma.explain(shape));
            }
        }
        AlgorithmSelector forced = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        forced.enableTransport(NodeRegionUser.TRANSPORT);
        forced.enableTransport(io.railcoll.schedule.PeerAccessUser.TRANSPORT);
        forced.force("allreduce.multi-leader-single-copy");
        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.parse("2x2"), 2, b, 0, 8, true);
        assertEquals("allreduce.multi-leader-single-copy", forced.select(shape).id());
    }
}
