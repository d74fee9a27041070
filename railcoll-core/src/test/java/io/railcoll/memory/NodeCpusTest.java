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
            assertTrue(e.getMessage().startsWith("RAILCOLL_NODE_CPUS=" + bad + " "), e.getMessage());
        }
    }

    @Test
    void ranksOfOtherEmulatedNodesOnTheHostCountToo() {
        assertTrue(NodeCpus.outnumbered(4, 2, 0), "four ranks of a node on two processors");
        assertTrue(!NodeCpus.outnumbered(2, 2, 0), "two ranks of a node on two processors, nobody else");
        assertTrue(NodeCpus.outnumbered(1, 2, 4), "one rank per node, four nodes emulated on two processors");
        assertTrue(!NodeCpus.outnumbered(1, 2, 2), "one rank per node, two nodes on two processors");
        assertEquals(0, NodeCpus.readHostRanks(null));
        assertEquals(16, NodeCpus.readHostRanks("16"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeCpus.readHostRanks("x"));
        assertTrue(e.getMessage().startsWith("RAILCOLL_HOST_RANKS=x is not a whole number; accepted: 1.."), e.getMessage());
    }

    @Test
    void ranksPerProcessorRoundsUpAndCountsTheHostsRanks() {
        assertEquals(1, NodeCpus.ranksPerProcessor(2, 2, 0));
        assertEquals(2, NodeCpus.ranksPerProcessor(3, 2, 0));
        assertEquals(2, NodeCpus.ranksPerProcessor(4, 2, 0));
        assertEquals(8, NodeCpus.ranksPerProcessor(4, 2, 16), "a 4-rank node of a 4x4 job emulated on two processors");
        assertEquals(1, NodeCpus.ranksPerProcessor(1, 8, 0));
    }
}
