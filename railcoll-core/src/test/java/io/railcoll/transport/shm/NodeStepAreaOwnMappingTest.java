package io.railcoll.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.railcoll.transport.NodeArea;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node-mate's word as its own process reads it through its own mapping (cross-memory attach at the mapping address
 * its attach slot records), for a node wait's time-out message: here both "processes" are one (two mappings of the
 * region, local ranks 0 and 1), so it reads what the word holds, through local rank 0's mapping, not local rank 1's.
 */
class NodeStepAreaOwnMappingTest {
    private Path dir;
    private List<NodeRegion> regions;

    @BeforeEach
    void setUp() throws Exception {
        dir = RegionFixtures.scratchDirectory();
        ShmConfig config = ShmConfig.defaults().withDirectory(dir).withRingBytes(4096)
                .withAttachTimeoutNs(10_000_000_000L);
        regions = RegionFixtures.openAll("own", 0, 2, config);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (NodeRegion r : regions) {
            r.close();
        }
        RegionFixtures.deleteTree(dir);
    }

    private static boolean crossMemoryAttachToSelf() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(ValueLayout.JAVA_LONG);
            word.set(ValueLayout.JAVA_LONG, 0, 0x5eedL);
            return Cma.probe(ProcessHandle.current().pid(), word.address(), 0x5eedL);
        }
    }

    @Test
    void aNodeMatesWordReadsInItsOwnMappingWhatItRaised() {
        assumeTrue(crossMemoryAttachToSelf(), "cross-memory attach refused here: " + Cma.ptraceDiagnosis());
        NodeArea raiser = regions.get(0).stepArea();
        NodeArea reader = regions.get(1).stepArea();
        raiser.raise(1, 7L << 20 | 2, 0x777);
        assertEquals(7L << 20 | 2, reader.flag(0, 1));
        assertEquals(7L << 20 | 2, reader.flagInOwnMapping(0, 1));
        assertEquals(0, reader.flagInOwnMapping(0, 3));
        // Local rank 1's word through local rank 1's mapping: what it raised, as seen from local rank 0.
        reader.raise(0, 9L << 20 | 1, 0x999);
        assertEquals(9L << 20 | 1, raiser.flagInOwnMapping(1, 0));
    }
}
