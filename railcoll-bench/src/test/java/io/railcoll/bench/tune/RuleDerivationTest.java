package io.railcoll.bench.tune;

import io.railcoll.select.Range;
import io.railcoll.select.Rule;
import io.railcoll.select.Tuning;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkCost;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RuleDerivationTest {
    private static final Placement P = Placement.parse("4x4");
    /** Startup-bound: the model picks the binomial gather (3 steps on 16 ranks, k=2) over direct (8) at every size. */
    private static final Tuning STEPS = new Tuning(CostModel.hockney(new LinkCost(1, 0, 0), new LinkCost(1, 0, 0)),
            List.of(), Map.of(), "test");

    @TempDir
    Path dir;

    /** A sweep where gather.binomial measures 100 at every size and gather.direct {@code directNs[i]}. */
    private SweepResults sweep(long[] sizes, double[] directNs) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            for (int s = 0; s < 3; s++) {
                lines.add("gather,gather.binomial," + sizes[i] + ",100");
                lines.add("gather,gather.direct," + sizes[i] + "," + (long) directNs[i]);
            }
        }
        Path file = dir.resolve("sweep.csv");
        Files.write(file, lines);
        return SweepResults.read(file);
    }

    @Test
    void rulesOnlyWhereTheModelsChoiceLosesByMoreThanTheMargin() throws IOException {
        // direct wins clearly at 4 and 16 (one run of sizes), within the margin at 64, and loses elsewhere.
        SweepResults s = sweep(new long[] {1, 4, 16, 64, 256}, new double[] {150, 50, 60, 95, 120});
        List<Rule> rules = RuleDerivation.derive(s, SweepResults.Statistic.MEDIAN, STEPS, P, 2, 0.10, "test");
        assertEquals(1, rules.size(), rules.toString());
        Rule r = rules.getFirst();
        assertEquals("gather.direct", r.algorithmId());
        assertEquals(new Range(4, 63), r.sizeBytes());
        assertEquals(Range.exactly(4), r.nodes());
        assertEquals(Range.exactly(4), r.ranksPerNode());
        assertEquals(Range.exactly(2), r.ports());
    }

    @Test
    void theFirstRangeStartsAtZeroAndTheLastIsOpen() throws IOException {
        SweepResults s = sweep(new long[] {1, 64, 4096}, new double[] {50, 120, 50});
        List<Rule> rules = RuleDerivation.derive(s, SweepResults.Statistic.MEDIAN, STEPS, P, 2, 0.10, "test");
        assertEquals(List.of(new Range(0, 63), new Range(4096, Long.MAX_VALUE)),
                rules.stream().map(Rule::sizeBytes).toList());
        assertEquals(List.of("rule.gather.10", "rule.gather.20"), rules.stream().map(Rule::name).toList());
    }

    @Test
    void noRuleWhenTheModelIsRight() throws IOException {
        SweepResults s = sweep(new long[] {1, 1024, 1 << 20}, new double[] {105, 200, 300});
        assertEquals(List.of(), RuleDerivation.derive(s, SweepResults.Statistic.MEDIAN, STEPS, P, 2, 0.10, "test"));
    }
}
