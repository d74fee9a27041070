package io.railcoll.bench.apps;

/**
 * An order-independent fingerprint of a multiset of keys: the count and two sums (mod 2^64) of differently mixed
 * keys. Replacing, losing or duplicating a key changes a sum unless the mixes collide (odds about 2^-128), while any
 * reordering leaves it unchanged, so it tells "same keys, maybe moved" from "different keys". Shares add up.
 */
record KeyChecksum(long count, long sumA, long sumB) {
    static final int LONGS = 3;

    KeyChecksum plus(KeyChecksum o) {
        return new KeyChecksum(count + o.count, sumA + o.sumA, sumB + o.sumB);
    }

    static KeyChecksum of(long[] keys, int count) {
        Builder b = new Builder();
        for (int i = 0; i < count; i++) {
            b.add(keys[i]);
        }
        return b.build();
    }

    /** Accumulates keys one at a time, without boxing. */
    static final class Builder {
        private long count;
        private long sumA;
        private long sumB;

        void add(long key) {
            count++;
            sumA += Hashing.mix(key);
            sumB += Hashing.mix(key ^ 0x5deece66dL) * 31 + key;
        }

        KeyChecksum build() {
            return new KeyChecksum(count, sumA, sumB);
        }
    }
}
