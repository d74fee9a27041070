package io.railcoll.bench.peer;

import io.railcoll.bench.rails.RailLedger;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RankToNodeTest {
    @Test
    void keepsTheFirstRankOfEveryNodeThatHeldRanks() {
        List<String> lines = List.of(RailLedger.line("peer", 8, 0, 1, 1, "rail0", 5, 5),
                RailLedger.line("peer", 8, 1, 1, 1, "rail0", 5, 5),
                RailLedger.line("peer", 8, 2, 1, 1, "rail0", 7, 7),
                RailLedger.line("peer", 8, 3, 1, 1, "rail0", 7, 7));
        assertEquals(List.of(lines.get(0), lines.get(2)), RankToNode.remap(lines, Map.of(0, 0, 1, 0, 2, 1, 3, 1)));
        // Every rank on node 0 (the loopback control): only rank 0 counts; the other node reads as zero.
        assertEquals(List.of(lines.get(0)), RankToNode.remap(lines, Map.of(0, 0, 1, 0, 2, 0, 3, 0)));
    }
}
