package io.railcoll.select;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the built-in table picks where it was measured (docs/results/main-job, allgather.md, shm-node.md): on the
 * testbed's 4x4 with 2 rails a node-aware all-gather at every size, on its 4x2 up to 16 KiB (the ring from 32 KiB); on
 * one node, with shared memory on, the collectives the node buffer carries out, and without shared memory something
 * that runs by messages.
 */
class BuiltInTableTest {
    private static String choice(String placement, int rails, long blockBytes) {
        return choice(Collective.ALLGATHER, placement, rails, blockBytes, false);
    }

    private static String choice(Collective c, String placement, int rails, long blockBytes, boolean shm) {
        AlgorithmSelector selector = AlgorithmSelector.fromEnvironment(Map.of(), Map.of());
        if (shm) {
            selector.enableTransport(NodePhased.TRANSPORT);
        }
        return selector.select(new Shape(c, Placement.parse(placement), rails, blockBytes, 0)).id();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576})
    void onTheMainJobsClusterEveryAllgatherSizeGetsANodeAwareAlgorithm(long b) {
        for (boolean shm : new boolean[] {true, false}) {
            String id = choice(Collective.ALLGATHER, "4x4", 2, b, shm);
            assertTrue(id.contains(".smp-") || id.contains(".mc-"), "4x4, shm " + shm + ", " + b + " B: " + id);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {8192, 16384, 131072, 262144, 1048576})
    void fromEightKibTheMainJobsClusterRunsTheOverlappedSmpDirectOutside32To128KiB(long b) {
        assertEquals("allgather.smp-direct-shm", choice(Collective.ALLGATHER, "4x4", 2, b, true), b + " B");
    }

    @ParameterizedTest
    @ValueSource(longs = {32768, 65536, 131071})
    void around64KiBTheMainJobsClusterRunsTheGatherBasedMultiGroupAllgather(long b) {
        assertEquals("allgather.mc-gather-based", choice(Collective.ALLGATHER, "4x4", 2, b, true), b + " B");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 2, 4, 64, 255, 256, 511, 512, 1024})
    void smallAllgathersOnTheMainJobsClusterGoByOneGroupAt1And256BytesAndBySmpGatherBcastBetween(long b) {
        String expected = b <= 1 || (b >= 256 && b < 512) ? "allgather.mc-1group" : "allgather.smp-gather-bcast";
        assertEquals(expected, choice(Collective.ALLGATHER, "4x4", 2, b, true), b + " B");
    }

    @ParameterizedTest
    @ValueSource(longs = {8192, 16384, 32767})
    void around16KiBTheMainJobsClusterRunsTheBruckAlltoall(long b) {
        assertEquals("alltoall.bruck", choice(Collective.ALLTOALL, "4x4", 2, b, true), b + " B");
    }

    @ParameterizedTest
    @ValueSource(longs = {131072, 262144, 1048576})
    void fromHundredTwentyEightKibTheMainJobsClusterBroadcastsByScatterAllgather(long b) {
        assertEquals("broadcast.scatter-allgather", choice(Collective.BROADCAST, "4x4", 2, b, true), b + " B");
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
    @ValueSource(longs = {0, 1, 64, 4096, 16384, 65536, 262144, 1048576})
    void onOneNodeTheNodeBufferCarriesEveryCollective(long b) {
        for (String p : new String[] {"1x2", "1x4", "1x8", "1x16"}) {
            assertEquals("allgather.shm", choice(Collective.ALLGATHER, p, 1, b, true), p + ", " + b + " B");
            assertEquals("gather.shm", choice(Collective.GATHER, p, 1, b, true), p + ", " + b + " B");
            assertEquals("broadcast.shm", choice(Collective.BROADCAST, p, 1, b, true), p + ", " + b + " B");
            assertEquals("barrier.shm", choice(Collective.BARRIER, p, 1, 0, true), p);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 4096, 1048576})
    void withoutSharedMemoryOneNodeRunsByMessages(long b) {
        for (Collective c : new Collective[] {Collective.ALLGATHER, Collective.GATHER, Collective.BROADCAST}) {
            assertFalse(choice(c, "1x8", 1, b, false).endsWith(".shm"), c + " " + b);
        }
    }
}
