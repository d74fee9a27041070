package io.railcoll.select;

import io.railcoll.schedule.Collective;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.CpuScope;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.RailLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TuningFileTest {
    private static final String HEADER = """
            railcoll.tuning.version = 1
            model.shm.alpha-ns = 2000
            model.shm.ns-per-byte = 0.25
            model.rail.alpha-ns = 30000
            model.rail.ns-per-byte = 0.5
            """;

    @TempDir
    Path dir;

    private static Tuning sample() {
        CostModel model = new CostModel(Map.of(
                LinkClass.SHARED_MEMORY, new LinkCost(2500, 0.125, 1),
                LinkClass.RAIL, new LinkCost(31000.5, 0.375, 0.75),
                LinkClass.MULTICAST, new LinkCost(50000, 0.5, 0.25)), 0.0625, 2048, 3, 2.5, CpuScope.HOST,
                new RailLimit(4.5, 250_000));
        List<Rule> rules = List.of(
                new Rule("rule.allgather.10", Collective.ALLGATHER, new Range(0, 256), Range.ANY, Range.exactly(4),
                        Range.exactly(4), Range.exactly(2), "allgather.gather-bcast", "test"),
                new Rule("rule.allgather.20", Collective.ALLGATHER, new Range(1024 * 1024, Long.MAX_VALUE),
                        new Range(2, 64), Range.ANY, Range.ANY, Range.ANY, "allgather.ring", "test"),
                new Rule("rule.barrier.5", Collective.BARRIER, Range.ANY, Range.ANY, Range.ANY, Range.ANY, Range.ANY,
                        "barrier.dissemination", "test"),
                new Rule("rule.gather.17", Collective.GATHER, new Range(1 << 20, Long.MAX_VALUE), new Range(3, 256),
                        Range.exactly(1), Range.ANY, Range.ANY, Processors.OWN, "gather.direct", "test"),
                new Rule("rule.gather.18", Collective.GATHER, Range.ANY, Range.ANY, Range.ANY, Range.ANY, Range.ANY,
                        Processors.SHARED, "gather.direct", "test"));
        return new Tuning(model, rules, Map.of("placement", "4x4", "date", "today",
                "command", "C:\\railcoll\\bin tune --out a=b:c"), "test");
    }

    @Test
    void whatIsWrittenReadsBackEqual() {
        Tuning t = sample();
        String text = TuningFile.format(t);
        Tuning back = TuningFile.parse(text, "round-trip");
        assertEquals(t.model(), back.model());
        assertEquals(t.measured(), back.measured());
        assertEquals(t.rules().size(), back.rules().size());
        for (int i = 0; i < t.rules().size(); i++) {
            Rule a = t.rules().get(i);
            Rule b = back.rules().get(i);
            assertEquals(List.of(a.name(), a.collective(), a.sizeBytes(), a.ranks(), a.nodes(), a.ranksPerNode(), a.ports(),
                    a.processors(), a.algorithmId()), List.of(b.name(), b.collective(), b.sizeBytes(), b.ranks(), b.nodes(),
                    b.ranksPerNode(), b.ports(), b.processors(), b.algorithmId()));
            assertTrue(b.origin().startsWith("round-trip line "), b.origin());
        }
        assertEquals(text, TuningFile.format(back));
    }

    @Test
    void writesAndLoadsAFile() {
        Path file = dir.resolve("t.properties");
        TuningFile.write(sample(), file);
        Tuning back = TuningFile.load(file);
        assertEquals(sample().model(), back.model());
        assertEquals(file.toString(), back.source());
    }

    @Test
    void optionalModelKeysTakeTheirDefaults() {
        CostModel m = TuningFile.parse(HEADER, "min").model();
        assertEquals(new LinkCost(2000, 0.25, 0), m.link(LinkClass.SHARED_MEMORY));
        assertEquals(1024, m.stripeThresholdBytes());
        assertEquals(0, m.cpuCores());
        assertEquals(CpuScope.NODE, m.cpuScope());
        assertFalse(m.multicast().isPresent());
        assertFalse(m.rails().isPresent());
    }

    @Test
    void aRailLimitNeedsBothItsKeysAndAWholeBurst() {
        CostModel m = TuningFile.parse(HEADER + "model.rail.rate-ns-per-byte = 4\nmodel.rail.burst-bytes = 65536\n", "limit")
                .model();
        assertEquals(new RailLimit(4, 65536), m.rails().orElseThrow());
        assertError(HEADER + "model.rail.rate-ns-per-byte = 4\n", "line 6", "model.rail.burst-bytes is missing");
        assertError(HEADER + "model.rail.burst-bytes = 1000\n", "line 6", "model.rail.rate-ns-per-byte is missing");
        assertError(HEADER + "model.rail.rate-ns-per-byte = 4\nmodel.rail.burst-bytes = 1.5\n", "line 7",
                "a whole number of bytes");
        assertError(HEADER + "model.rail.rate-ns-per-byte = 0\nmodel.rail.burst-bytes = 1\n", "line 6", "must be finite and > 0");
    }

    @Test
    void rulesAreOrderedByCollectiveThenNumerically() {
        Tuning t = TuningFile.parse(HEADER + """
                rule.gather.100 = gather.direct
                rule.gather.9 = gather.binomial if size=..1k
                rule.allgather.20 = allgather.ring if size=1m..
                """, "order");
        assertEquals(List.of("rule.gather.9", "rule.gather.100"),
                t.rulesFor(Collective.GATHER).stream().map(Rule::name).toList());
        assertEquals(new Range(0, 1024), t.rulesFor(Collective.GATHER).getFirst().sizeBytes());
    }

    /** processors=own|shared (decision 0196): read, written back as given, and anything else refused by name. */
    @Test
    void theProcessorConditionIsReadWrittenAndCheckedByName() {
        Tuning t = TuningFile.parse(HEADER + """
                rule.gather.1 = gather.direct if size=1m.. processors=own
                rule.gather.2 = gather.binomial if processors=shared nodes=2
                rule.gather.3 = gather.direct if size=4
                """, "processors");
        List<Rule> rules = t.rulesFor(Collective.GATHER);
        assertEquals(List.of(Processors.OWN, Processors.SHARED, Processors.ANY),
                rules.stream().map(Rule::processors).toList());
        assertEquals("size=1m.. processors=own", rules.get(0).conditions());
        assertEquals("nodes=2 processors=shared", rules.get(1).conditions());
        assertEquals("processors=own", new Rule("rule.gather.4", Collective.GATHER, Range.ANY, Range.ANY, Range.ANY,
                Range.ANY, Range.ANY, Processors.OWN, "gather.direct", "test").conditions());
        assertTrue(TuningFile.format(t).contains("rule.gather.2 = gather.binomial if nodes=2 processors=shared\n"),
                TuningFile.format(t));
        assertEquals(rules.stream().map(Rule::conditions).toList(), TuningFile.parse(TuningFile.format(t), "again")
                .rulesFor(Collective.GATHER).stream().map(Rule::conditions).toList());
        assertError(HEADER + "rule.gather.1 = gather.direct if processors=mine\n", "line 6",
                "processors=mine is neither own (every rank has a processor of its own) nor shared");
        assertError(HEADER + "rule.gather.1 = gather.direct if processors=\n", "line 6", "processors= is neither own");
        assertError(HEADER + "rule.gather.1 = gather.direct if processors=own processors=shared\n", "line 6",
                "processors is given twice");
        assertError(HEADER + "rule.gather.1 = gather.direct if processors\n", "line 6",
                "bad condition 'processors'; conditions are size=, ranks=, nodes=, ranks-per-node=, ports= with a range"
                        + " such as 4, 1..64k, 4k.. or ..256, and processors=own|shared");
        assertError(HEADER + "rule.gather.1 = gather.direct if processors=1..4\n", "line 6", "processors=1..4 is neither");
    }

    @Test
    void theBuiltInTableLoads() {
        Tuning t = TuningFile.builtIn();
        assertEquals("built-in", t.source());
        assertTrue(t.model().link(LinkClass.RAIL).alphaNs() > 0);
    }

    @Test
    void errorsNameTheLine() {
        assertError(HEADER + "model.rail.alpha_ns = 3\n", "line 6", "unknown key");
        assertError(HEADER + "\n\nmodel.cpu.cores = lots\n", "line 8", "expected a number");
        assertError(HEADER + "rule.allgather.1 = allgather.fastest\n", "line 6", "unknown algorithm 'allgather.fastest'");
        assertError(HEADER + "rule.gather.1 = allgather.ring\n", "line 6", "allgather.ring is a allgather algorithm");
        assertError(HEADER + "rule.gather.x = gather.direct\n", "line 6", "rule.<collective>.<order>");
        assertError(HEADER + "rule.gather.1 = gather.direct when size=4\n", "line 6", "expected 'if'");
        assertError(HEADER + "rule.gather.1 = gather.direct if bytes=4\n", "line 6", "bad condition 'bytes=4'");
        assertError(HEADER + "rule.gather.1 = gather.direct if size=9..3\n", "line 6", "0 <= min <= max");
        assertError(HEADER + "rule.gather.1 = gather.direct if size=4 size=5\n", "line 6", "size is given twice");
        assertError(HEADER + "model.shm.cpu-fraction = 2\n", "line 6", "processor share must be in [0, 1]");
        assertError(HEADER.replace("railcoll.tuning.version = 1", "railcoll.tuning.version = 2"), "line 1",
                "this railcoll reads version 1");
        assertError(HEADER.replace("model.rail.ns-per-byte = 0.5\n", ""), "", "model.rail.ns-per-byte is missing");
    }

    @Test
    void aKeyGivenTwiceIsAnErrorNamingBothLines() {
        assertError(HEADER + "model.rail.alpha-ns = 1\n", "line 6", "already set on line 4");
    }

    @Test
    void aRuleWhoseAlgorithmCannotRunAShapeItCoversIsRejected() {
        // 4096 nodes of 8 ranks with 1 GiB blocks: an all-to-all's buffers (N*N blocks per level) overflow 64 bits,
        // which no algorithm can run; the rule covers such shapes.
        assertError(HEADER + "rule.alltoall.10 = alltoall.direct if size=1g.. nodes=4096\n", "line 6",
                "alltoall.direct cannot run a shape this rule covers (4096x8");
        // The same rule for small jobs is fine.
        TuningFile.parse(HEADER + "rule.alltoall.10 = alltoall.direct if size=1g.. nodes=4\n", "ok");
    }

    @Test
    void aRuleThatCoversNoSampleShapeIsRejected() {
        assertError(HEADER + "rule.gather.1 = gather.direct if ranks=7 nodes=2 ranks-per-node=2\n", "line 6",
                "covers none of the sample shapes");
    }

    private static void assertError(String text, String line, String message) {
        TuningFileException e = assertThrows(TuningFileException.class, () -> TuningFile.parse(text, "t.properties"));
        assertTrue(e.getMessage().startsWith("t.properties" + (line.isEmpty() ? "" : " " + line)), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
