package io.railcoll.bench.apps;

import java.lang.foreign.MemorySegment;

/**
 * Parallel least-significant-digit radix sort, SPLASH-2 RADIX style: per pass every rank counts its digit
 * histogram ({@code 2^digitBits} 4-byte counts), all-gathers the counts, sorts its keys locally by the digit,
 * computes every key's global position ({@link RadixPlan}) and moves keys to their owners
 * ({@link KeyRedistribution}). After {@code ceil(keyBits/digitBits)} passes the keys are globally sorted and every
 * rank holds as many as it started with. Confined to one thread.
 */
final class RadixSorter {
    /** Test hook: after the given pass's redistribution, the given rank flips one bit of one key it received. */
    record Fault(int pass, int rank) {
        static final Fault NONE = new Fault(0, -1);
    }

    private final int keyBits;
    private final int digitBits;
    private final BlockSplit split;
    private final int me;
    private final KeyRedistribution redistribution;
    private final Fault fault;

    RadixSorter(int keyBits, int digitBits, BlockSplit split, int me, KeyRedistribution redistribution, Fault fault) {
        if (digitBits < 1 || digitBits > 16) {
            throw new IllegalArgumentException("digits of 1 to 16 bits, got " + digitBits);
        }
        this.keyBits = keyBits;
        this.digitBits = digitBits;
        this.split = split;
        this.me = me;
        this.redistribution = redistribution;
        this.fault = fault;
    }

    static int passes(int keyBits, int digitBits) {
        return (keyBits + digitBits - 1) / digitBits;
    }

    static long histogramBytes(int digitBits) {
        return (long) Integer.BYTES << digitBits;
    }

    /** Sorts {@code keys} (this rank's {@code split.count(me)} keys) across all ranks; returns this rank's share. */
    long[] sort(long[] keys, TimedCollectives timed) {
        int count = split.count(me);
        if (keys.length != count) {
            throw new IllegalArgumentException("rank " + me + " holds " + count + " keys, got " + keys.length);
        }
        int buckets = 1 << digitBits;
        int[] hist = new int[buckets];
        int[] allHist = new int[buckets * split.ranks()];
        long[] current = keys.clone();
        long[] sorted = new long[count];
        long[] next = new long[count];
        for (int pass = 1; pass <= passes(keyBits, digitBits); pass++) {
            int shift = (pass - 1) * digitBits;
            DigitSort.histogram(current, count, shift, digitBits, hist);
            timed.allgather(MemorySegment.ofArray(hist), MemorySegment.ofArray(allHist));
            DigitSort.sortByDigit(current, count, shift, digitBits, hist, sorted);
            RadixPlan plan = new RadixPlan(allHist, split, buckets);
            redistribution.redistribute(sorted, plan, split, me, next, timed);
            if (pass == fault.pass() && me == fault.rank() && count > 0) {
                next[0] ^= 1;
            }
            long[] t = current;
            current = next;
            next = t;
        }
        return current;
    }
}
