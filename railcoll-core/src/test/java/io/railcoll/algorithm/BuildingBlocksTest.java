package io.railcoll.algorithm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuildingBlocksTest {

    @Test
    void radix() {
        assertEquals(0, Radix.ceilLog(1, 3));
        assertEquals(2, Radix.ceilLog(9, 3));
        assertEquals(3, Radix.ceilLog(10, 3));
        assertEquals(2, Radix.floorLog(26, 3));
        assertEquals(3, Radix.floorLog(27, 3));
        assertEquals(0, Radix.floorLog(1, 5));
        assertEquals(Long.MAX_VALUE, Radix.pow(2, 70));
    }

    @Test
    void knomialTreeOfTheJavadoc() {
        KnomialTree tree = new KnomialTree(9, 2, 0);
        assertEquals(2, tree.depth());
        assertEquals(List.of(1, 2, 3, 6), tree.childrenBottomUp(0));
        assertEquals(List.of(3, 6, 1, 2), tree.childrenTopDown(0));
        assertEquals(List.of(4, 5), tree.childrenBottomUp(3));
        assertEquals(3, tree.parent(5));
        assertEquals(6, tree.parent(8));
        assertEquals(3, tree.subtreeSize(6));
        KnomialTree rooted = new KnomialTree(5, 1, 3);
        assertEquals(0, rooted.relative(3));
        assertEquals(1, rooted.rank(3));
        assertEquals(1, rooted.subtreeSize(4), "truncated subtree of relative rank 4");
    }

    @Test
    void exchangeLayoutOfTheJavadoc() {
        ExchangeLayout layout = new ExchangeLayout(7, 1);
        assertEquals(4, layout.virtualSize());
        assertEquals(3, layout.extras());
        assertEquals(2, layout.levels());
        assertEquals(List.of(0, 2, 4, 6), List.of(layout.owner(0), layout.owner(1), layout.owner(2), layout.owner(3)));
        assertFalse(layout.isOwner(5));
        assertEquals(2, layout.virtualOf(5));
        assertEquals(5, layout.extraOf(4));
        assertEquals(-1, layout.extraOf(6));
        assertEquals(4, layout.groupRankStart(3, 1));
        assertEquals(7, layout.groupRankEnd(3, 1));
        ExchangeLayout mixed = new ExchangeLayout(6, 2);
        assertEquals(2, mixed.levels(), "radix 3 then a top digit of radix 2");
        assertEquals(0, mixed.extras());
        assertEquals(4, mixed.withDigit(1, 1, 1));
        assertTrue(mixed.isOwner(5));
    }
}
