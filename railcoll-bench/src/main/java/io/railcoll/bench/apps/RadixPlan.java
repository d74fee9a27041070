package io.railcoll.bench.apps;

/**
 * Where every key goes in one radix pass, computed identically by every rank from the all-gathered digit histograms.
 *
 * <p>After the pass the keys are in global order by (digit, source rank, position in the source's digit-sorted
 * keys): key {@code i} of rank {@code r}'s digit-{@code v} run lands at global position {@code offset(r, v) + i},
 * where {@code offset(r, v)} counts every key with a smaller digit plus the digit-{@code v} keys of ranks below
 * {@code r}. Global positions are cut into ranks by the same {@link BlockSplit} as the input, so every rank keeps its
 * key count. Because a rank's digit-sorted keys map to increasing positions, the keys it sends to any one rank are a
 * contiguous run of them: {@link #sendFirst} and {@link #sendCount} describe it, and {@link #place} puts a received
 * run where it belongs. A small example, 2 ranks with 3 keys each and 1-bit digits:
 * <pre>
 *   rank 0 digit-sorted: 0a 1b 1c    hist [1, 2]   offsets: digit 0 -> 0, digit 1 -> 3
 *   rank 1 digit-sorted: 0d 0e 1f    hist [2, 1]   offsets: digit 0 -> 1, digit 1 -> 5
 *   global order: 0a 0d 0e | 1b 1c 1f   (rank 0 keeps 0a, gets 0d 0e; rank 1 gets 1b 1c, keeps 1f)
 * </pre>
 */
final class RadixPlan {
    private final BlockSplit split;
    private final int buckets;
    private final int[] hist;
    private final long[] offset;
    private final int[] sendCount;

    /**
     * @param hist every rank's histogram, rank r's at {@code [r*buckets, (r+1)*buckets)}, as all-gathered
     * @throws IllegalStateException when a rank's histogram does not add up to the keys it holds: the count
     *                               exchange delivered wrong data, and the pass would lose or invent keys
     */
    RadixPlan(int[] hist, BlockSplit split, int buckets) {
        int ranks = split.ranks();
        if (hist.length != ranks * buckets) {
            throw new IllegalArgumentException("histograms of " + hist.length + " counts for " + ranks + " ranks x " + buckets);
        }
        this.split = split;
        this.buckets = buckets;
        this.hist = hist;
        for (int r = 0; r < ranks; r++) {
            long sum = 0;
            for (int v = 0; v < buckets; v++) {
                sum += hist[r * buckets + v];
            }
            if (sum != split.count(r)) {
                throw new IllegalStateException("digit counts of rank " + r + " add up to " + sum + " but it holds "
                        + split.count(r) + " keys: the count exchange delivered wrong data");
            }
        }
        this.offset = new long[ranks * buckets];
        long position = 0;
        for (int v = 0; v < buckets; v++) {
            for (int r = 0; r < ranks; r++) {
                offset[r * buckets + v] = position;
                position += hist[r * buckets + v];
            }
        }
        this.sendCount = new int[ranks * ranks];
        for (int r = 0; r < ranks; r++) {
            for (int v = 0; v < buckets; v++) {
                long lo = offset[r * buckets + v];
                long hi = lo + hist[r * buckets + v];
                while (lo < hi) {
                    int p = split.owner(lo);
                    long take = Math.min(hi, split.end(p)) - lo;
                    sendCount[r * ranks + p] += (int) take;
                    lo += take;
                }
            }
        }
    }

    /** Keys rank {@code from} sends rank {@code to} in this pass. */
    int sendCount(int from, int to) {
        return sendCount[from * split.ranks() + to];
    }

    /** Index, in {@code from}'s digit-sorted keys, of the first key it sends {@code to}. */
    int sendFirst(int from, int to) {
        int first = 0;
        for (int p = 0; p < to; p++) {
            first += sendCount(from, p);
        }
        return first;
    }

    /** The largest {@link #sendCount}: the block an all-to-all of this pass needs. */
    int maxSendCount() {
        int max = 0;
        for (int c : sendCount) {
            max = Math.max(max, c);
        }
        return max;
    }

    /**
     * Puts the run of keys rank {@code from} sends rank {@code me} (at {@code src[srcFrom...]}, in its digit-sorted
     * order) where they belong in {@code me}'s output. Returns how many keys it placed.
     */
    int place(int from, long[] src, int srcFrom, int me, long[] out) {
        long myStart = split.start(me);
        long myEnd = split.end(me);
        int taken = 0;
        for (int v = 0; v < buckets; v++) {
            long runStart = offset[from * buckets + v];
            long lo = Math.max(runStart, myStart);
            long hi = Math.min(runStart + hist[from * buckets + v], myEnd);
            if (lo < hi) {
                System.arraycopy(src, srcFrom + taken, out, (int) (lo - myStart), (int) (hi - lo));
                taken += (int) (hi - lo);
            }
        }
        return taken;
    }
}
