package io.railcoll.bench.apps;

import io.railcoll.Communicator;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Verifies the radix sort's output so a fast wrong answer fails: each rank's keys sorted and as many as it started
 * with; boundaries ordered across ranks (an all-gather of first and last keys); the multiset preserved (the sum of
 * every rank's {@link KeyChecksum} equals the generator's); both algorithms giving the same output; and, up to
 * {@code referenceMaxKeys}, every rank's share equal to its slice of the sequentially sorted keys.
 */
final class RadixChecks {
    /** One sort's timing and this rank's output. */
    record Outcome(String name, RunTiming timing, long[] keys) {
    }

    private static final int LONGS_PER_OUTCOME = 3 + KeyChecksum.LONGS;

    private final Communicator comm;
    private final BlockSplit split;
    private final KeySource source;
    private final long referenceMaxKeys;

    RadixChecks(Communicator comm, BlockSplit split, KeySource source, long referenceMaxKeys) {
        this.comm = comm;
        this.split = split;
        this.source = source;
        this.referenceMaxKeys = referenceMaxKeys;
    }

    private boolean withReference() {
        return split.total() <= referenceMaxKeys;
    }

    /** This rank's problems; the global ones (identical everywhere) are reported by rank 0 only. */
    List<String> check(List<Outcome> outcomes) {
        int me = comm.rank();
        List<String> problems = new ArrayList<>();
        long[] expected = withReference() ? expectedSlice() : null;
        long[] mine = new long[LONGS_PER_OUTCOME * outcomes.size()];
        long firstHash = Hashing.of(outcomes.getFirst().keys(), outcomes.getFirst().keys().length);
        for (int i = 0; i < outcomes.size(); i++) {
            Outcome o = outcomes.get(i);
            String run = o.name();
            long[] keys = o.keys();
            if (keys.length != split.count(me)) {
                problems.add(run + ": holds " + keys.length + " keys, expected " + split.count(me));
            }
            int unsorted = firstUnsorted(keys);
            if (unsorted >= 0) {
                problems.add(run + ": not sorted at index " + unsorted + ": " + Long.toUnsignedString(keys[unsorted - 1])
                        + " before " + Long.toUnsignedString(keys[unsorted]));
            }
            if (Hashing.of(keys, keys.length) != firstHash) {
                problems.add(run + ": output differs from " + outcomes.getFirst().name() + "'s");
            }
            if (expected != null) {
                int at = firstDifference(expected, keys);
                if (at >= 0) {
                    problems.add(run + ": differs from the sequential sort at global index " + (split.start(me) + at));
                }
            }
            KeyChecksum sum = KeyChecksum.of(keys, keys.length);
            int base = i * LONGS_PER_OUTCOME;
            mine[base] = keys.length;
            mine[base + 1] = keys.length > 0 ? keys[0] : 0;
            mine[base + 2] = keys.length > 0 ? keys[keys.length - 1] : 0;
            mine[base + 3] = sum.count();
            mine[base + 4] = sum.sumA();
            mine[base + 5] = sum.sumB();
        }
        long[] all = new long[mine.length * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(mine), MemorySegment.ofArray(all));
        if (me == 0) {
            KeyChecksum generated = source.checksum(split.total());
            for (int i = 0; i < outcomes.size(); i++) {
                globalChecks(outcomes.get(i).name(), all, mine.length, i * LONGS_PER_OUTCOME, generated, problems);
            }
        }
        return problems;
    }

    private void globalChecks(String run, long[] all, int stride, int base, KeyChecksum generated, List<String> problems) {
        long total = 0;
        KeyChecksum sum = new KeyChecksum(0, 0, 0);
        int previous = -1;
        for (int r = 0; r < comm.size(); r++) {
            int at = r * stride + base;
            long count = all[at];
            total += count;
            sum = sum.plus(new KeyChecksum(all[at + 3], all[at + 4], all[at + 5]));
            if (count == 0) {
                continue;
            }
            if (previous >= 0 && Long.compareUnsigned(all[previous * stride + base + 2], all[at + 1]) > 0) {
                problems.add(run + ": rank " + previous + "'s last key " + Long.toUnsignedString(all[previous * stride + base + 2])
                        + " is above rank " + r + "'s first " + Long.toUnsignedString(all[at + 1]));
            }
            previous = r;
        }
        if (total != split.total()) {
            problems.add(run + ": " + total + " keys after the sort, " + split.total() + " before");
        }
        if (!sum.equals(generated)) {
            problems.add(run + ": the multiset of keys changed (checksum of the output differs from the generator's)");
        }
    }

    private long[] expectedSlice() {
        long[] all = source.sortedAll(split.total());
        long[] slice = new long[split.count(comm.rank())];
        System.arraycopy(all, (int) split.start(comm.rank()), slice, 0, slice.length);
        return slice;
    }

    /** Index of the first key smaller (unsigned) than its predecessor, or -1. */
    static int firstUnsorted(long[] keys) {
        for (int i = 1; i < keys.length; i++) {
            if (Long.compareUnsigned(keys[i - 1], keys[i]) > 0) {
                return i;
            }
        }
        return -1;
    }

    private static int firstDifference(long[] expected, long[] actual) {
        int n = Math.min(expected.length, actual.length);
        for (int i = 0; i < n; i++) {
            if (expected[i] != actual[i]) {
                return i;
            }
        }
        return expected.length == actual.length ? -1 : n;
    }

    String passedText() {
        return "every rank's keys sorted and their count kept, boundaries ordered across " + comm.size()
                + " ranks, key multiset preserved (count and checksum match the generator), both algorithms "
                + "give the same output, " + (withReference() ? "sequential sort matches"
                : "reference skipped (more than " + referenceMaxKeys + " keys)");
    }
}
