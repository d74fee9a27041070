package io.railcoll.bench.apps;

import java.util.Arrays;

/**
 * The local half of one radix pass: the digit histogram of a rank's keys and a stable counting sort by that digit.
 * Digit {@code d} of an unsigned key is {@code (key >>> shift) & (2^digitBits - 1)}. Pure.
 */
final class DigitSort {
    private DigitSort() {
    }

    static int digit(long key, int shift, int digitBits) {
        return (int) ((key >>> shift) & ((1L << digitBits) - 1));
    }

    /** Fills {@code hist} ({@code 2^digitBits} entries) with the number of keys having each digit value. */
    static void histogram(long[] keys, int count, int shift, int digitBits, int[] hist) {
        Arrays.fill(hist, 0);
        for (int i = 0; i < count; i++) {
            hist[digit(keys[i], shift, digitBits)]++;
        }
    }

    /**
     * Writes {@code keys} into {@code out} ordered by digit, keeping the input order among equal digits (stability
     * is what makes least-significant-digit-first radix sort correct). {@code hist} must be the histogram of these
     * keys; it is not changed.
     */
    static void sortByDigit(long[] keys, int count, int shift, int digitBits, int[] hist, long[] out) {
        int[] next = new int[hist.length];
        for (int v = 1; v < hist.length; v++) {
            next[v] = next[v - 1] + hist[v - 1];
        }
        for (int i = 0; i < count; i++) {
            out[next[digit(keys[i], shift, digitBits)]++] = keys[i];
        }
    }
}
