package io.railcoll.transport.mcast;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Which fragments of one message have arrived: a bitmap and a count. Reused across messages by
 * {@link #reset(int)} (the word array only grows). One owner thread.
 */
final class FragmentSet {
    private long[] words = new long[1];
    private int count;
    private int received;

    void reset(int fragmentCount) {
        int n = (fragmentCount + 63) >>> 6;
        if (words.length < n) {
            words = new long[n];
        } else {
            Arrays.fill(words, 0, n, 0L);
        }
        count = fragmentCount;
        received = 0;
    }

    int count() {
        return count;
    }

    int received() {
        return received;
    }

    boolean complete() {
        return received == count;
    }

    boolean has(int i) {
        return (words[i >>> 6] & (1L << i)) != 0;
    }

    /** Marks fragment {@code i}; false if it was already there (a duplicate). */
    boolean add(int i) {
        long bit = 1L << i;
        int w = i >>> 6;
        if ((words[w] & bit) != 0) {
            return false;
        }
        words[w] |= bit;
        received++;
        return true;
    }

    /** The first fragment at or after {@code from} that is in the set, or -1. */
    int nextSet(int from) {
        if (from >= count) {
            return -1;
        }
        int w = from >>> 6;
        long word = words[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                int i = (w << 6) + Long.numberOfTrailingZeros(word);
                return i < count ? i : -1;
            }
            if (++w >= wordCount()) {
                return -1;
            }
            word = words[w];
        }
    }

    void remove(int i) {
        long bit = 1L << i;
        int w = i >>> 6;
        if ((words[w] & bit) != 0) {
            words[w] &= ~bit;
            received--;
        }
    }

    void addAll() {
        int n = (count + 63) >>> 6;
        Arrays.fill(words, 0, n, -1L);
        received = count;
    }

    int wordCount() {
        return (count + 63) >>> 6;
    }

    long word(int w) {
        return words[w];
    }

    /** Writes the bitmap's words (little-endian longs) at {@code out}'s position. */
    void writeWords(ByteBuffer out) {
        for (int w = 0; w < wordCount(); w++) {
            out.putLong(words[w]);
        }
    }
}
