package io.railcoll.algorithm;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * The reduce-scatter half of Rabenseifner's algorithm (Rabenseifner 2004; Thakur, Rabenseifner and Gropp 2005
 * sec. 4.4), shared by the all-reduce and the reduce that start with it: the fold of {@link FoldedRanks} (the odd
 * rank of each of the first r pairs puts its vector, with tag {@link #FOLD_TAG}, to the even one, which combines
 * {@code mine op theirs}), then recursive halving among the p remaining ranks.
 *
 * <p>In step s (distance {@code 2^s}, growing, tag {@code 1 + s}) partners split their current window of the vector
 * in two at an element boundary; the lower partner keeps the lower half, puts the upper half to its partner, and
 * both combine the half they keep. Because the distance grows, each partial covers a contiguous, aligned run of new
 * ranks and both partners compute {@code lower op higher}: rank order. The lower partner combines into the range it
 * received; the higher one into its own (a copy of its half in its first step, while its data is still SEND).
 * Stateless.
 */
public final class RecursiveHalving {
    /** The tag of the fold: the odd rank's vector to the even one. Step s of the halving uses {@code 1 + s}. */
    public static final int FOLD_TAG = 0;

    private RecursiveHalving() {
    }

    /** The window (in elements) a new rank keeps in each halving step: {@code [lo[s+1], hi[s+1])} after step s. */
    public record Windows(long[] lo, long[] hi) {
        public static Windows of(long elements, int newRank, int steps) {
            long[] lo = new long[steps + 1];
            long[] hi = new long[steps + 1];
            hi[0] = elements;
            for (int s = 0; s < steps; s++) {
                long mid = lo[s] + (hi[s] - lo[s]) / 2;
                boolean lower = (newRank & 1 << s) == 0;
                lo[s + 1] = lower ? lo[s] : mid;
                hi[s + 1] = lower ? mid : hi[s];
            }
            return new Windows(lo, hi);
        }

        /** The half given away in step s: the part of window s outside window s+1. */
        public long giveLo(int s) {
            return lo[s + 1] == lo[s] ? hi[s + 1] : lo[s];
        }

        public long giveHi(int s) {
            return lo[s + 1] == lo[s] ? hi[s] : lo[s + 1];
        }

        /** Elements of the window kept after step s-1 (window s; window 0 is the whole vector). */
        public long length(int s) {
            return hi[s] - lo[s];
        }
    }

    /**
     * Appends the fold (for an even rank of a pair) and the halving to the program of {@code rank}, which must not
     * sit out: {@link #appendAmong} over every rank, the operand the whole of SEND.
     */
    public static Windows append(ProgramBuilder p, Shape shape, FoldedRanks folded, int rank, Buffer out,
                                 long outBase) {
        return appendAmong(p, everyRank(shape.size()), folded, rank, Buffer.SEND, 0, shape.elements(),
                shape.elementBytes(), out, outBase, FOLD_TAG);
    }

    /**
     * Appends the fold (for an even member of a pair) and the halving among {@code members} (ranks in the order
     * their contributions combine; {@code folded} over their count) to the program of the member at {@code index},
     * which must not sit out. Its operand is {@code elements} elements of {@code e} bytes at
     * {@code src[srcOffset..]}, which it never writes. The last step's result, window {@code steps} of the member,
     * lands at {@code out[outBase + lo * e]}: where it lies in a whole vector at {@code outBase}. Tags
     * {@code firstTag} (the fold) to {@code firstTag + steps}. With {@code folded.steps() == 0} nothing is appended.
     *
     * @return the member's windows
     */
    public static Windows appendAmong(ProgramBuilder p, int[] members, FoldedRanks folded, int index, Buffer src,
                                      long srcOffset, long elements, long e, Buffer out, long outBase, int firstTag) {
        long b = elements * e;
        int steps = folded.steps();
        // cur holds the current window; curBase is where its first element lies.
        Buffer cur = src;
        long curBase = srcOffset;
        boolean inOperand = true; // cur is still the operand, which is never written
        if (folded.takesPartner(index)) {
            long in = p.allocateTemp(b);
            p.recv(members[index + 1], firstTag, Buffer.TEMP, in, b);
            p.reduce(src, srcOffset, Buffer.TEMP, in, b); // mine op the odd neighbour's
            cur = Buffer.TEMP;
            curBase = in;
            inOperand = false;
        }
        int me = folded.newRank(index);
        Windows w = Windows.of(elements, me, steps);
        for (int s = 0; s < steps; s++) {
            int partner = members[folded.oldRank(me ^ 1 << s)];
            int tag = firstTag + 1 + s;
            long lo = w.lo[s];
            long keepLo = w.lo[s + 1];
            long keepBytes = (w.hi[s + 1] - keepLo) * e;
            boolean last = s == steps - 1;
            p.put(partner, cur, curBase + (w.giveLo(s) - lo) * e, (w.giveHi(s) - w.giveLo(s)) * e, tag);
            long mineAt = curBase + (keepLo - lo) * e;
            if ((me & 1 << s) == 0) {
                // mine op theirs: into the range theirs arrives in.
                Buffer dst = last ? out : Buffer.TEMP;
                long dstOff = last ? outBase + keepLo * e : p.allocateTemp(keepBytes);
                p.recv(partner, tag, dst, dstOff, keepBytes);
                p.reduce(cur, mineAt, dst, dstOff, keepBytes);
                cur = dst;
                curBase = dstOff;
                inOperand = false;
            } else {
                // theirs op mine: into my own range, copied out of the operand first (or into the output last).
                long in = p.allocateTemp(keepBytes);
                p.recv(partner, tag, Buffer.TEMP, in, keepBytes);
                Buffer dst = cur;
                long dstOff = mineAt;
                if (last || inOperand) {
                    dst = last ? out : Buffer.TEMP;
                    dstOff = last ? outBase + keepLo * e : p.allocateTemp(keepBytes);
                    p.copy(cur, mineAt, dst, dstOff, keepBytes);
                }
                p.reduce(Buffer.TEMP, in, dst, dstOff, keepBytes);
                cur = dst;
                curBase = dstOff;
                inOperand = false;
            }
        }
        return w;
    }

    /** Ranks 0..n-1: the members when every rank takes part. */
    private static int[] everyRank(int n) {
        int[] all = new int[n];
        for (int r = 0; r < n; r++) {
            all[r] = r;
        }
        return all;
    }

    /** Adds the fold's receive (for an even rank of a pair) and the halving's messages of {@code rank} to {@code t}. */
    public static Windows traffic(Traffic t, Shape shape, FoldedRanks folded, int rank) {
        long e = shape.elementBytes();
        if (folded.takesPartner(rank)) {
            t.receive(rank, rank + 1, FOLD_TAG);
        }
        int me = folded.newRank(rank);
        Windows w = Windows.of(shape.elements(), me, folded.steps());
        for (int s = 0; s < folded.steps(); s++) {
            int partner = folded.oldRank(me ^ 1 << s);
            t.send(rank, partner, 1 + s, (w.giveHi(s) - w.giveLo(s)) * e).receive(rank, partner, 1 + s);
        }
        return w;
    }
}
