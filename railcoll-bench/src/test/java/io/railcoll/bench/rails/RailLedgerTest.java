package io.railcoll.bench.rails;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RailLedgerTest {
    @Test
    void sumsPassesAndKeepsEachNodesFirstRank() {
        RailLedger ledger = new RailLedger(Placement.uniform(2, 2), List.of("rail0", "rail1"));
        for (int pass = 0; pass < 2; pass++) {
            for (int rank = 0; rank < 4; rank++) {
                // Ranks 1 and 3 are not their node's first: their lines must not count twice.
                assertEquals(rank % 2 == 0, ledger.accept(RailLedger.line("allgather.ring", 1024, rank, 10, 500, "rail0",
                        1000 * (rank + 1), 10)));
                ledger.accept(RailLedger.line("allgather.ring", 1024, rank, 10, 500, "rail1", 2000, 20));
            }
        }
        assertFalse(ledger.accept("sample,allgather,4,1024,10,0,1.0"));
        assertFalse(ledger.accept(RailLedger.line("x", 1, 0, 1, 1, "eth0", 1, 1)));
        Map<RailLedger.Point, RailTraffic> traffic = ledger.traffic();
        RailTraffic t = traffic.get(new RailLedger.Point("allgather.ring", 1024));
        assertEquals(20, t.calls());
        assertEquals(1000, t.elapsedNs());
        // rail0: node 0 got 2 x 1000, node 1 (rank 2) 2 x 3000, over 20 calls.
        assertEquals((2000 + 6000) / 20.0, t.intoRailPerCall(0), 1e-9);
        assertEquals(1, t.busiestNode());
        assertEquals((6000 + 4000) / 20.0, t.intoBusiestNodePerCall(), 1e-9);
        assertTrue(t.outOfRailPerCall(1) > 0);
    }
}
