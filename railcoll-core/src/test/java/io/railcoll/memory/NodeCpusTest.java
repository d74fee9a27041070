package io.railcoll.memory;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeCpusTest {
    @Test
    void theLaunchersCountWinsOverTheRanksOwnAffinity() {
        assertEquals(8, NodeCpus.read(" 8 "));
        assertEquals(Runtime.getRuntime().availableProcessors(), NodeCpus.read(null));
        assertEquals(Runtime.getRuntime().availableProcessors(), NodeCpus.read(""));
    }

    @Test
    void nonsenseIsRefusedNamingTheVariable() {
        for (String bad : new String[] {"0", "-2", "two"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeCpus.read(bad));
            assertTrue(e.getMessage().startsWith("RAILCOLL_NODE_CPUS must be a positive number"), e.getMessage());
        }
    }
}
