package io.railcoll.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.railcoll.transport.NodeArea;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a node-mate's raises before its latest tell a wait that the latest (a later call's) met (decision 0242): the
 * digest of the awaited call where one of the three kept was its, that the node-mate skipped the awaited call where
 * the newest of them not after it came before it, and nothing where all three came after. Local rank 0 raises, local rank 1 reads, in one process.
 */
class NodeStepAreaRaisedBeforeTest {
    private static final long COUNT_BITS = 20;
    private Path dir;
    private List<NodeRegion> regions;

    @BeforeEach
    void setUp() throws Exception {
        dir = RegionFixtures.scratchDirectory();
        ShmConfig config = ShmConfig.defaults().withDirectory(dir).withRingBytes(4096)
                .withAttachTimeoutNs(10_000_000_000L);
        regions = RegionFixtures.openAll("before", 0, 2, config);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (NodeRegion r : regions) {
            r.close();
        }
        RegionFixtures.deleteTree(dir);
    }

    @Test
    void theRaiseBeforeTheLatestTellsWhetherTheAwaitedCallRaisedTheFlag() {
        NodeArea raiser = regions.get(0).stepArea();
        NodeArea reader = regions.get(1).stepArea();
        // Flag 2 raised in calls 3 (twice: two chunks) and 40, with digests 0x333 and 0x404; flag 1 only in call 40.
        raiser.raise(2, 3L << COUNT_BITS | 1, 0x333);
        raiser.raise(2, 3L << COUNT_BITS | 2, 0x333);
        raiser.raise(2, 40L << COUNT_BITS | 1, 0x404);
        raiser.raise(1, 40L << COUNT_BITS | 1, 0x404);

        assertEquals(0x333, reader.raisedBefore(0, 2, 3), "call 3 raised it just before call 40");
        assertEquals(NodeArea.SKIPPED, reader.raisedBefore(0, 2, 5), "no raise between call 3 and call 40");
        assertEquals(NodeArea.SKIPPED, reader.raisedBefore(0, 2, 39), "no raise between call 3 and call 40");
        assertEquals(-1, reader.raisedBefore(0, 2, 40), "the latest itself is raisedCall's to tell");
        assertEquals(NodeArea.SKIPPED, reader.raisedBefore(0, 1, 7), "the flag's first raise was call 40's");
        assertEquals(0x404, reader.raisedCall(0, 2, 40));
        assertEquals(-1, reader.raisedCall(0, 2, 3));

        // Raises in calls 41 and 42: call 3 is three raises back, the oldest the flag keeps.
        raiser.raise(2, 41L << COUNT_BITS | 1, 0x415);
        raiser.raise(2, 42L << COUNT_BITS | 1, 0x42a);
        assertEquals(0x333, reader.raisedBefore(0, 2, 3));
        assertEquals(0x404, reader.raisedBefore(0, 2, 40));
        assertEquals(0x415, reader.raisedBefore(0, 2, 41));
        assertEquals(NodeArea.SKIPPED, reader.raisedBefore(0, 2, 4), "no raise between calls 3 and 40");
        assertEquals(-1, reader.raisedBefore(0, 2, 2), "what came before call 3 is four raises back: not kept");
        // One more, in call 50: call 3 is four raises back, which the flag no longer tells.
        raiser.raise(2, 50L << COUNT_BITS | 1, 0x500);
        assertEquals(-1, reader.raisedBefore(0, 2, 3));
        assertEquals(0x404, reader.raisedBefore(0, 2, 40));
        assertEquals(NodeArea.SKIPPED, reader.raisedBefore(0, 2, 45), "no raise between calls 42 and 50");
        // Flags keep their own: flag 1's first raise is still call 40's, and flag 3 was never raised.
        assertEquals(NodeArea.SKIPPED, reader.raisedBefore(0, 1, 39));
        raiser.raise(3, 60L << COUNT_BITS | 1, 0x600);
        assertEquals(NodeArea.SKIPPED, reader.raisedBefore(0, 3, 59));
        assertEquals(0x42a, reader.raisedBefore(0, 2, 42), "flag 3's raise leaves flag 2's alone");
    }
}
