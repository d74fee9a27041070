package io.railcoll.select;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.Simulator;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlgorithmSelectorTest {
    private static final String HEADER = """
            railcoll.tuning.version = 1
            model.shm.alpha-ns = 2000
            model.shm.ns-per-byte = 0.25
            model.rail.alpha-ns = 30000
            model.rail.ns-per-byte = 0.5
            """;
    private static final Placement P4X4 = Placement.parse("4x4");

    private static AlgorithmSelector selector(String rules) {
        return new AlgorithmSelector(Map.of(), TuningFile.parse(HEADER + rules, "t.properties"));
    }

    private static Shape allgather(Placement p, long b) {
        return new Shape(Collective.ALLGATHER, p, 2, b, 0);
    }

    @Test
    void aRuleAppliesInsideItsRangesOnly() {
        AlgorithmSelector s = selector("rule.allgather.10 = allgather.ring if size=1k..4k nodes=4 ranks-per-node=4 ports=2\n");
        assertEquals("allgather.ring", s.select(allgather(P4X4, 1024)).id());
        assertEquals("allgather.ring", s.select(allgather(P4X4, 4096)).id());
        Explanation outside = s.explain(allgather(P4X4, 4097));
        assertEquals(Explanation.Reason.MODEL, outside.reason());
        assertEquals(Explanation.Reason.MODEL, s.explain(allgather(Placement.parse("2x8"), 2048)).reason());
        assertEquals(Explanation.Reason.MODEL,
                s.explain(new Shape(Collective.ALLGATHER, P4X4, 1, 2048, 0)).reason());
    }

    @Test
    void theFirstMatchingRuleWins() {
        AlgorithmSelector s = selector("""
                rule.allgather.20 = allgather.direct
                rule.allgather.10 = allgather.ring if size=..64
                """);
        assertEquals("allgather.ring", s.select(allgather(P4X4, 64)).id());
        assertEquals("allgather.direct", s.select(allgather(P4X4, 65)).id());
    }

    @Test
    void ranksPerNodeMustHoldOnEveryNodeOfAnUnevenPlacement() {
        AlgorithmSelector s = selector("rule.allgather.10 = allgather.ring if ranks-per-node=2..4\n");
        assertEquals("allgather.ring", s.select(allgather(Placement.parse("3,4,2"), 8)).id());
        assertEquals(Explanation.Reason.MODEL, s.explain(allgather(Placement.parse("3,5,2"), 8)).reason());
    }

    @Test
    void explainNamesTheRuleAndItsLine() {
        AlgorithmSelector s = selector("rule.allgather.10 = allgather.ring if size=..64\n");
        Explanation e = s.explain(allgather(P4X4, 8));
        assertEquals(Explanation.Reason.RULE, e.reason());
        assertEquals("allgather.ring", e.chosen());
        assertTrue(e.why().contains("rule.allgather.10 (t.properties line 6)"), e.why());
        assertTrue(e.render().contains("runs: allgather.ring"), e.render());
    }

    @Test
    void forcedWinsOverRulesAndNeverFallsBack() {
        AlgorithmSelector s = selector("rule.alltoall.10 = alltoall.bruck\n");
        s.force("alltoall.pairwise");
        assertEquals("alltoall.pairwise", s.select(new Shape(Collective.ALLTOALL, P4X4, 2, 64, 0)).id());
        assertEquals(Explanation.Reason.FORCED, s.explain(new Shape(Collective.ALLTOALL, P4X4, 2, 64, 0)).reason());
        // A shape no all-to-all can run (its buffers overflow 64 bits): the forced algorithm fails with the reason.
        Shape impossible = new Shape(Collective.ALLTOALL, Placement.uniform(4096, 1), 2, 1L << 40, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.select(impossible));
        assertTrue(e.getMessage().contains("alltoall.pairwise cannot run") && e.getMessage().contains("overflow"),
                e.getMessage());
        s.clear(Collective.ALLTOALL);
        assertEquals("alltoall.bruck", s.select(new Shape(Collective.ALLTOALL, P4X4, 2, 64, 0)).id());
    }

    @Test
    void withoutARuleTheModelsFastestRuns() {
        AlgorithmSelector s = selector("");
        for (Collective c : Collective.values()) {
            for (long b : new long[] {1, 4096, 1 << 20}) {
                Shape shape = new Shape(c, P4X4, 2, c == Collective.BARRIER ? 0 : b, 0);
                Explanation e = s.explain(shape);
                assertEquals(Explanation.Reason.MODEL, e.reason());
                double best = Double.POSITIVE_INFINITY;
                String fastest = null;
                for (Explanation.Candidate candidate : e.candidates()) {
                    Algorithm listed = AlgorithmCatalog.standard().byId(candidate.id());
                    if (listed instanceof io.railcoll.schedule.MulticastUser
                            || listed instanceof io.railcoll.schedule.NodeRegionUser) {
                        // its transport or the node region is off here: listed, not costed (MulticastSelectionTest)
                        assertTrue(candidate.detail().startsWith("cannot run"), candidate.detail());
                        continue;
                    }
                    double ns = candidate.predictedNs().orElseThrow();
                    Algorithm a = AlgorithmCatalog.standard().byId(candidate.id());
                    assertEquals(Simulator.predict(a, shape, s.tuning().model()).timeNs(), ns, candidate.id());
                    if (a.deterministic()) {
                        // priced, but chosen only on a deterministic communicator (decision 0091)
                        assertTrue(candidate.detail().contains("deterministic"), candidate.detail());
                        continue;
                    }
                    if (ns < best) {
                        best = ns;
                        fastest = candidate.id();
                    }
                }
                assertEquals(fastest, e.chosen(), c + " " + b);
                assertEquals(fastest, s.select(shape).id());
            }
        }
    }

    @Test
    void startupBoundModelsPickFewestStepsAndBandwidthBoundOnesFewestBytes() {
        // One rank per node, no contention: predictions are CostTerms' steps, or beta bytes.
        Placement p = Placement.uniform(27, 1);
        CostModel steps = CostModel.hockney(new LinkCost(1, 0, 0), new LinkCost(1, 0, 0));
        CostModel bytes = CostModel.hockney(new LinkCost(0, 1, 0), new LinkCost(0, 1, 0));
        Shape shape = new Shape(Collective.GATHER, p, 2, 1000, 0);
        Tuning t = TuningFile.parse(HEADER, "t");
        // gather.binomial: 3 steps, 13000 beta bytes; gather.direct: 13 steps, 13000.
        assertEquals("gather.binomial", new AlgorithmSelector(Map.of(), t.withModel(steps)).select(shape).id());
        Shape bcast = new Shape(Collective.BROADCAST, p, 1, 270_000, 0);
        // k-nomial broadcast moves the whole message down 5 levels; scatter-allgather about 2b.
        assertEquals("broadcast.scatter-allgather",
                new AlgorithmSelector(Map.of(), t.withModel(bytes)).select(bcast).id());
        assertEquals("broadcast.knomial", new AlgorithmSelector(Map.of(), t.withModel(steps)).select(bcast).id());
    }

    @Test
    void theModelDecidesOncePerPowerOfTwoBucket() {
        AlgorithmSelector s = selector("");
        Explanation e = s.explain(allgather(P4X4, 6000));
        assertEquals(4096, e.costedBytes());
        assertEquals(s.select(allgather(P4X4, 4096)).id(), s.select(allgather(P4X4, 8191)).id());
        assertEquals(0, AlgorithmSelector.bucket(0));
        assertEquals(1, AlgorithmSelector.bucket(1));
        assertEquals(13, AlgorithmSelector.bucket(4096));
        assertEquals(13, AlgorithmSelector.bucket(8191));
    }

    @Test
    void aMatchingRuleWhoseAlgorithmCannotRunTheShapeIsSkippedAndSaidSo() {
        // The rule is valid for the shapes its check samples, but not for this one (buffers overflow 64 bits).
        AlgorithmSelector s = selector("rule.alltoall.10 = alltoall.bruck if size=1m..\n");
        Shape huge = new Shape(Collective.ALLTOALL, Placement.uniform(5000, 1), 2, 1L << 40, 0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.select(huge));
        assertTrue(e.getMessage().contains("no alltoall algorithm supports"), e.getMessage());
        Shape fine = new Shape(Collective.ALLTOALL, P4X4, 2, 1 << 20, 0);
        assertEquals("alltoall.bruck", s.select(fine).id());
        List<String> notes = s.explain(huge).notes();
        assertTrue(notes.getFirst().contains("rule.alltoall.10") && notes.getFirst().contains("cannot run"), notes.toString());
    }

    /** Node steps need the node region: without it the selector says so, forced or not (decision 0101). */
    @Test
    void nodeStepsNeedTheNodeRegion() {
        String flags = io.railcoll.algorithm.shm.NodeFlagBarrier.ID;
        AlgorithmSelector s = selector("rule.barrier.10 = " + flags + " if nodes=1\n");
        Shape barrier = new Shape(Collective.BARRIER, Placement.parse("1x4"), 2, 0, 0);
        assertTrue(!s.select(barrier).id().equals(flags), s.select(barrier).id());
        s.enableTransport(io.railcoll.schedule.NodeRegionUser.TRANSPORT);
        assertEquals(flags, s.select(barrier).id());
        AlgorithmSelector off = selector("");
        off.force(flags);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> off.select(barrier));
        assertTrue(e.getMessage().contains("no node region"), e.getMessage());
    }

    /**
     * processors=own / processors=shared (decision 0196): a rule applies only where the fact the communicator set
     * says so; the fact starts false (ranks may share), and changing it forgets the choice remembered for a shape.
     */
    @Test
    void aProcessorConditionFollowsTheFactSelectionWasGiven() {
        AlgorithmSelector s = selector("""
                rule.allgather.10 = allgather.ring if processors=own
                rule.allgather.20 = allgather.direct if processors=shared
                """);
        Shape shape = allgather(P4X4, 4096);
        assertTrue(!s.everyRankHasAProcessor());
        assertEquals("allgather.direct", s.select(shape).id());
        s.everyRankHasAProcessor(true);
        assertEquals("allgather.ring", s.select(shape).id(), "the same shape object, after the fact changed");
        Explanation own = s.explain(shape);
        assertEquals(Explanation.Reason.RULE, own.reason());
        assertTrue(own.why().contains("rule.allgather.10") && own.why().contains("processors=own"), own.why());
        s.everyRankHasAProcessor(false);
        assertEquals("allgather.direct", s.select(shape).id());
        assertTrue(s.explain(shape).why().contains("processors=shared"), s.explain(shape).why());
        // Without a condition a rule holds either way.
        AlgorithmSelector plain = selector("rule.allgather.10 = allgather.ring\n");
        for (boolean own2 : new boolean[] {false, true}) {
            plain.everyRankHasAProcessor(own2);
            assertEquals("allgather.ring", plain.select(shape).id());
        }
    }
}
