package io.railcoll.bench.rails;

import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PhysicalLimitTest {
    static final long MIB = 1 << 20;
    static final long TWO_GBIT = 2_000_000_000L;

    @Test
    void theIssuesCase4x4AllgatherOf1MiBOver2x2GbitTakes25Ms() {
        PhysicalLimit l = PhysicalLimit.of(Collective.ALLGATHER, Placement.uniform(4, 4), MIB, 0, 2, TWO_GBIT, 250_000);
        assertEquals(12 * MIB, l.intoBusiestNodeBytes());
        assertEquals(25_165.824, l.floorUs(), 1e-6);
        // The token buckets let 2 x 250000 bytes through at once.
        assertEquals((12 * MIB - 500_000) * 8.0 / 4e9 * 1e6, l.impossibleBelowUs(), 1e-6);
        assertEquals(0.5, l.shareOf(2 * l.floorUs()), 1e-12);
    }

    @Test
    void bytesIntoTheBusiestNodePerCollective() {
        Placement uneven = Placement.ofCounts(3, 4, 2);
        long b = 1000;
        assertEquals((9 - 2) * b, PhysicalLimit.intoBusiestNode(Collective.ALLGATHER, uneven, b, 0));
        // Gather: only the root's node receives; root 4 is on node 1 (4 ranks).
        assertEquals((9 - 4) * b, PhysicalLimit.intoBusiestNode(Collective.GATHER, uneven, b, 4));
        assertEquals(b, PhysicalLimit.intoBusiestNode(Collective.BROADCAST, uneven, b, 0));
        // All-to-all: node k receives n_k x (N - n_k) blocks: 3x6, 4x5, 2x7.
        assertEquals(20 * b, PhysicalLimit.intoBusiestNode(Collective.ALLTOALL, uneven, b, 0));
        assertEquals(0, PhysicalLimit.intoBusiestNode(Collective.BARRIER, uneven, b, 0));
        assertEquals(0, PhysicalLimit.intoBusiestNode(Collective.ALLGATHER, Placement.singleNode(8), b, 0));
    }

    @Test
    void allreduceMustBringTwiceTheNodesShareOfTheVector() {
        // 2 (M-1)/M b (decision 0177): 4 nodes 1.5 b, 2 nodes b (the other node's vector), 3 uneven nodes 4/3 b;
        // one node nothing.
        assertEquals(3 * MIB / 2, PhysicalLimit.intoBusiestNode(Collective.ALLREDUCE, Placement.uniform(4, 4), MIB, 0));
        assertEquals(MIB, PhysicalLimit.intoBusiestNode(Collective.ALLREDUCE, Placement.uniform(2, 2), MIB, 0));
        assertEquals(4 * 3000 / 3, PhysicalLimit.intoBusiestNode(Collective.ALLREDUCE, Placement.ofCounts(3, 4, 2),
                3000, 0));
        assertEquals(0, PhysicalLimit.intoBusiestNode(Collective.ALLREDUCE, Placement.singleNode(8), MIB, 0));
        // The issue's 4x4 case: 1 MiB of all-reduce over 2 x 2 Gbit/s cannot take less than 3.15 ms.
        PhysicalLimit l = PhysicalLimit.of(Collective.ALLREDUCE, Placement.uniform(4, 4), MIB, 0, 2, TWO_GBIT, 250_000);
        assertEquals(3_145.728, l.floorUs(), 1e-6);
    }
}
