package io.railcoll.bench.apps;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BlockSplitTest {

    @ParameterizedTest(name = "{0} items over {1} ranks")
    @CsvSource({"0,1", "1,1", "1,5", "3,5", "10,4", "12,4", "101,5", "1000003,16"})
    void rangesTileTheItemsInOrder(long total, int ranks) {
        BlockSplit s = new BlockSplit(total, ranks);
        long next = 0;
        for (int r = 0; r < ranks; r++) {
            assertEquals(next, s.start(r));
            assertTrue(s.count(r) <= s.block(), "rank " + r + " exceeds the block");
            assertTrue(s.block() - s.count(r) <= 1 || total == 0, "counts differ by at most one");
            next = s.end(r);
        }
        assertEquals(total, next);
        assertEquals((long) s.block() * ranks - total, s.paddingSlots());
    }

    @Test
    void ownerAgreesWithTheRanges() {
        BlockSplit s = new BlockSplit(23, 5);
        for (long g = 0; g < 23; g++) {
            int r = s.owner(g);
            assertTrue(s.start(r) <= g && g < s.end(r), "index " + g + " given to rank " + r);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> s.owner(23));
        assertThrows(IndexOutOfBoundsException.class, () -> s.owner(-1));
    }

    @Test
    void unevenCountsArePaddedToOneBlock() {
        BlockSplit s = new BlockSplit(10, 4);
        assertEquals(3, s.block());
        assertEquals(3, s.count(0));
        assertEquals(3, s.count(1));
        assertEquals(2, s.count(2));
        assertEquals(2, s.count(3));
        assertEquals(2, s.paddingSlots());
        // Fewer items than ranks: the last ranks hold none but still exchange one (padding) slot.
        BlockSplit few = new BlockSplit(2, 5);
        assertEquals(1, few.block());
        assertEquals(0, few.count(4));
    }

    @Test
    void rejectsImpossibleSplits() {
        assertThrows(IllegalArgumentException.class, () -> new BlockSplit(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> new BlockSplit(5, 0));
        assertThrows(IllegalArgumentException.class, () -> new BlockSplit(Long.MAX_VALUE / 2, 2));
    }
}
