package io.railcoll.bench.apps;

/**
 * Order-dependent 64-bit fingerprints of results, so ranks and runs compare whole states by exchanging 8 bytes.
 * FNV-1a over the raw bits, each word mixed first; not cryptographic, only to catch accidental differences.
 */
final class Hashing {
    private Hashing() {
    }

    static long of(double[] values) {
        long h = 0xcbf29ce484222325L;
        for (double v : values) {
            h = (h ^ mix(Double.doubleToRawLongBits(v))) * 0x100000001b3L;
        }
        return h;
    }

    static long of(long[] values, int count) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < count; i++) {
            h = (h ^ mix(values[i])) * 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64's finalizer: a bijection that spreads every input bit over the output. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
