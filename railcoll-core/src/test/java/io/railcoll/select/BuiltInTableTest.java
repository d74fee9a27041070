package io.railcoll.select;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the built-in table picks where it was measured (docs/results/main-job, allgather.md, shm-node.md): on the
 * testbed's 4x4 and 4x2 with 2 rails a node-aware all-gather at every size, as every measurement there showed; on
 * one node a multi-connection all-gather from 3 ranks and the ring with 2.
 */
class BuiltInTableTest {
    private static final AlgorithmSelector BUILT_IN = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());

    private static String choice(String placement, int rails, long blockBytes) {
        return BUILT_IN.select(new Shape(Collective.ALLGATHER, Placement.parse(placement), rails, blockBytes, 0)).id();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576})
    void onTheMeasuredClustersEveryAllgatherSizeGetsANodeAwareAlgorithm(long b) {
        for (String p : new String[] {"4x4", "4x2"}) {
            String id = choice(p, 2, b);
            assertTrue(id.contains(".smp-") || id.contains(".mc-"), p + ", " + b + " B: " + id);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 64, 4096, 65536, 1048576})
    void onOneNodeTheMultiConnectionAllgathersOrTheRingForTwo(long b) {
        assertEquals("allgather.ring", choice("1x2", 1, b));
        for (String p : new String[] {"1x4", "1x8", "1x16"}) {
            assertTrue(choice(p, 1, b).contains(".mc-"), p + ", " + b + " B: " + choice(p, 1, b));
        }
    }
}
