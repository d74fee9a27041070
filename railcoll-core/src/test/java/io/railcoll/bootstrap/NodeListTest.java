package io.railcoll.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Slurm's host list syntax. */
class NodeListTest {

    @Test
    void plainNamesAndRangesWithLeadingZeros() {
        assertEquals(List.of("vm"), NodeList.expand("vm"));
        assertEquals(List.of("node01", "node02", "node03", "node04"), NodeList.expand("node[01-04]"));
        assertEquals(List.of("n8", "n9", "n10"), NodeList.expand("n[8-10]"));
        assertEquals(List.of("node007", "node010"), NodeList.expand("node[007,010]"));
    }

    @Test
    void listsOfItemsAndSeveralBracketsPerName() {
        assertEquals(List.of("a1", "a3", "a4", "b", "c02"), NodeList.expand("a[1,3-4],b,c[02]"));
        assertEquals(List.of("r1-n1", "r1-n2", "r2-n1", "r2-n2"), NodeList.expand("r[1-2]-n[1-2]"));
        assertEquals("gpu-a100-07", NodeList.first("gpu-a100-[07-12],cpu[1-3]"));
    }

    @Test
    void malformedListsAreNamed() {
        for (String bad : new String[] {"node[1-", "node]1[", "node[a-b]", "node[5-1]", "", " , "}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeList.expand(bad));
            assertTrue(e.getMessage().contains("node list"), e.getMessage());
        }
    }
}
