package io.railcoll.bench.apps;

import java.util.Arrays;

/**
 * The radix app's keys: key g is SplitMix64's output for index g of the stream seeded with {@code seed}, keeping
 * its top {@code keyBits} bits, so any rank (or the checker) can regenerate any key without communication, and the
 * keys do not depend on the number of ranks. Keys are unsigned: {@code keyBits = 64} uses the sign bit as a value bit.
 */
record KeySource(long seed, int keyBits) {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    KeySource {
        if (keyBits < 1 || keyBits > 64) {
            throw new IllegalArgumentException("keys have 1 to 64 bits, got " + keyBits);
        }
    }

    long key(long index) {
        long k = Hashing.mix(seed + (index + 1) * GOLDEN_GAMMA);
        return keyBits == 64 ? k : k >>> (64 - keyBits);
    }

    /** The keys {@code rank} starts with. */
    long[] keysOf(BlockSplit split, int rank) {
        long[] out = new long[split.count(rank)];
        long first = split.start(rank);
        for (int i = 0; i < out.length; i++) {
            out[i] = key(first + i);
        }
        return out;
    }

    /** The checksum of all {@code total} keys, computed from the generator alone. */
    KeyChecksum checksum(long total) {
        KeyChecksum.Builder b = new KeyChecksum.Builder();
        for (long g = 0; g < total; g++) {
            b.add(key(g));
        }
        return b.build();
    }

    /** Every key sorted as unsigned numbers: the exact expected output, for small problems. */
    long[] sortedAll(long total) {
        long[] all = new long[Math.toIntExact(total)];
        for (int g = 0; g < all.length; g++) {
            all[g] = key(g) ^ Long.MIN_VALUE;
        }
        // Flipping the sign bit maps unsigned order onto signed order, so the JDK's sort does the work.
        Arrays.sort(all);
        for (int g = 0; g < all.length; g++) {
            all[g] ^= Long.MIN_VALUE;
        }
        return all;
    }
}
