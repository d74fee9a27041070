package io.railcoll.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Placement specs as users type them: the three forms, and a clear refusal of every malformed one. */
class PlacementTest {

    @Test
    void theThreeFormsGiveTheRanksOfEachNode() {
        Placement uniform = Placement.parse(" 2x3 ");
        assertEquals(6, uniform.size());
        assertEquals(2, uniform.nodeCount());
        assertArrayEquals(new int[] {3, 4, 5}, uniform.ranksOf(1));

        Placement uneven = Placement.parse("3,4,2");
        assertEquals(9, uneven.size());
        assertEquals(2, uneven.fewestRanksOnANode());
        assertEquals(4, uneven.maxRanksPerNode());
        assertEquals(1, uneven.nodeOf(3));
        assertEquals(0, uneven.localRankOf(7));
        assertEquals(7, uneven.masterOf(2));

        Placement oneNode = Placement.parse("5");
        assertEquals(1, oneNode.nodeCount());
        assertEquals(5, oneNode.size());
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
            "0x2|at least one node",
            "-1x2|at least one node",
            "1x0|every node needs at least one rank",
            "2x-1|every node needs at least one rank",
            "3,0,2|every node needs at least one rank",
            "0|every node needs at least one rank",
            "2x|expected NODESxRANKS",
            "2x2x2|expected NODESxRANKS",
            "ax2|bad placement",
            "3,,2|bad placement",
            "''|bad placement"})
    void aMalformedSpecIsRefusedSayingWhy(String spec, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Placement.parse(spec));
        assertTrue(e.getMessage().contains(why), spec + ": " + e.getMessage());
    }

    @Test
    void noCountsAtAllAreRefused() {
        assertThrows(IllegalArgumentException.class, Placement::ofCounts);
        assertThrows(IllegalArgumentException.class, Placement::ofNodeIds);
    }
}
