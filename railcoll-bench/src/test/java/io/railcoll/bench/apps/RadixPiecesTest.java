package io.railcoll.bench.apps;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RadixPiecesTest {

    @Test
    void countingSortByDigitIsStable() {
        // Digit = low 4 bits; the high bits tell equal-digit keys apart so their order can be checked.
        long[] keys = {0x13, 0x21, 0x03, 0x11, 0x2f, 0x01};
        int[] hist = new int[16];
        DigitSort.histogram(keys, keys.length, 0, 4, hist);
        assertEquals(3, hist[1]);
        assertEquals(2, hist[3]);
        assertEquals(1, hist[15]);
        long[] out = new long[keys.length];
        DigitSort.sortByDigit(keys, keys.length, 0, 4, hist, out);
        assertArrayEquals(new long[] {0x21, 0x11, 0x01, 0x13, 0x03, 0x2f}, out);
        assertEquals(0xf, DigitSort.digit(0xf000_0000_0000_0000L, 60, 4), "digits of unsigned keys use the top bit");
    }

    @Test
    void planFollowsTheDocumentedExample() {
        // rank 0 digit-sorted: 0a 1b 1c, rank 1: 0d 0e 1f (1-bit digits): see RadixPlan's Javadoc.
        RadixPlan plan = new RadixPlan(new int[] {1, 2, 2, 1}, new BlockSplit(6, 2), 2);
        assertEquals(1, plan.sendCount(0, 0));
        assertEquals(2, plan.sendCount(0, 1));
        assertEquals(2, plan.sendCount(1, 0));
        assertEquals(1, plan.sendCount(1, 1));
        assertEquals(1, plan.sendFirst(0, 1));
        assertEquals(2, plan.maxSendCount());
        long[] out0 = new long[3];
        plan.place(0, new long[] {0xa}, 0, 0, out0);
        plan.place(1, new long[] {0xd, 0xe}, 0, 0, out0);
        assertArrayEquals(new long[] {0xa, 0xd, 0xe}, out0);
        long[] out1 = new long[3];
        plan.place(0, new long[] {0xb, 0xc}, 0, 1, out1);
        plan.place(1, new long[] {0xf}, 0, 1, out1);
        assertArrayEquals(new long[] {0xb, 0xc, 0xf}, out1);
    }

    @Test
    void planRejectsCountsThatDoNotAddUp() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new RadixPlan(new int[] {1, 2, 2, 2}, new BlockSplit(6, 2), 2));
        assertTrue(e.getMessage().contains("rank 1"), e.getMessage());
    }

    /** The whole sort with the plan moving keys between arrays instead of ranks. */
    @ParameterizedTest(name = "{0} keys of {1} bits over {2} ranks, {3}-bit digits")
    @CsvSource({"1,32,1,8", "7,32,3,8", "100,32,7,8", "1000,64,5,8", "1000,64,4,11", "513,20,16,3", "3,64,5,16"})
    void sortingThroughThePlanMatchesASequentialSort(long total, int bits, int ranks, int digitBits) {
        KeySource source = new KeySource(99, bits);
        BlockSplit split = new BlockSplit(total, ranks);
        long[][] keys = new long[ranks][];
        for (int r = 0; r < ranks; r++) {
            keys[r] = source.keysOf(split, r);
        }
        int buckets = 1 << digitBits;
        for (int pass = 0; pass < RadixSorter.passes(bits, digitBits); pass++) {
            int shift = pass * digitBits;
            int[] all = new int[ranks * buckets];
            long[][] sorted = new long[ranks][];
            for (int r = 0; r < ranks; r++) {
                int[] h = new int[buckets];
                DigitSort.histogram(keys[r], keys[r].length, shift, digitBits, h);
                System.arraycopy(h, 0, all, r * buckets, buckets);
                sorted[r] = new long[keys[r].length];
                DigitSort.sortByDigit(keys[r], keys[r].length, shift, digitBits, h, sorted[r]);
            }
            RadixPlan plan = new RadixPlan(all, split, buckets);
            long[][] next = new long[ranks][];
            for (int p = 0; p < ranks; p++) {
                next[p] = new long[split.count(p)];
                int received = 0;
                for (int r = 0; r < ranks; r++) {
                    received += plan.place(r, sorted[r], plan.sendFirst(r, p), p, next[p]);
                }
                assertEquals(split.count(p), received, "rank " + p + " pass " + pass);
            }
            keys = next;
        }
        long[] expected = source.sortedAll(total);
        long[] got = Arrays.stream(keys).flatMapToLong(Arrays::stream).toArray();
        assertArrayEquals(expected, got);
    }

    @Test
    void keysAreSeededUnsignedAndIndependentOfTheSplit() {
        KeySource k32 = new KeySource(5, 32);
        for (long g = 0; g < 1000; g++) {
            assertTrue(k32.key(g) >= 0 && k32.key(g) < (1L << 32));
        }
        assertArrayEquals(k32.keysOf(new BlockSplit(10, 1), 0),
                java.util.stream.LongStream.concat(Arrays.stream(k32.keysOf(new BlockSplit(10, 3), 0)),
                        java.util.stream.LongStream.concat(Arrays.stream(k32.keysOf(new BlockSplit(10, 3), 1)),
                                Arrays.stream(k32.keysOf(new BlockSplit(10, 3), 2)))).toArray());
        long[] sorted64 = new KeySource(5, 64).sortedAll(1000);
        assertEquals(-1, RadixChecks.firstUnsorted(sorted64));
        assertTrue(sorted64[999] < 0, "the largest unsigned 64-bit keys have the top bit set");
        assertThrows(IllegalArgumentException.class, () -> new KeySource(1, 65));
    }

    @Test
    void checksumIgnoresOrderButNotContent() {
        long[] keys = new KeySource(3, 32).keysOf(new BlockSplit(100, 1), 0);
        long[] shuffled = keys.clone();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(1);
        for (int i = shuffled.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        assertNotEquals(Hashing.of(keys, 100), Hashing.of(shuffled, 100), "the shuffle moved keys");
        assertEquals(KeyChecksum.of(keys, 100), KeyChecksum.of(shuffled, 100));
        assertEquals(new KeySource(3, 32).checksum(100), KeyChecksum.of(keys, 100));
        long[] changed = keys.clone();
        changed[17] ^= 1;
        assertNotEquals(KeyChecksum.of(keys, 100), KeyChecksum.of(changed, 100));
        long[] duplicated = keys.clone();
        duplicated[1] = duplicated[0];
        assertNotEquals(KeyChecksum.of(keys, 100), KeyChecksum.of(duplicated, 100));
        assertEquals(KeyChecksum.of(keys, 100), KeyChecksum.of(keys, 40).plus(KeyChecksum.of(Arrays.copyOfRange(keys, 40, 100), 60)));
    }
}
