package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.FoldedRanks;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * Rabenseifner's all-reduce for large vectors (Rabenseifner 2004; Thakur, Rabenseifner and Gropp 2005 sec. 4.4):
 * a reduce-scatter by recursive halving, then an all-gather by recursive doubling. When N is not a power of two the
 * first 2r ranks fold in pairs ({@link FoldedRanks}: the odd rank hands its vector to the even one, which combines
 * them) and get the result back at the end.
 *
 * <p>Halving: in step s (distance {@code 2^s}, growing) the p remaining ranks split their current window of the
 * vector in two at an element boundary; the lower partner keeps the lower half, puts the upper half to its partner,
 * and both combine the half they keep. Because the distance grows, each partial covers a contiguous, aligned run of
 * new ranks, and both partners compute {@code lower op higher}: the result is in rank order, so non-commutative
 * operators run it too. Each part of the vector is combined once, by one rank, then only copied: every rank gets the
 * same bits. Doubling retraces the windows in reverse, each rank putting all it has into its partner's RECV.
 *
 * <p>{@code 2 log2 p} steps plus 2 when N is not a power of two, moving {@code 2 (p-1)/p b} per remaining rank:
 * {@code T = 2 log2 p ts + 2 (p-1)/p b tau + (p-1)/p b gamma} (+ {@code 2 (ts + b tau) + b gamma} for the fold).
 * The lower partner combines into the range it received; the higher one into its own (a copy of b/2 in its first
 * step, while its data is still SEND). TEMP at most {@code 2b}. Any N, k, operator.
 */
public final class RabenseifnerAllreduce extends AlgorithmBase {
    public static final String ID = "allreduce.rabenseifner";
    private static final int FOLD_TAG = 0;

    public RabenseifnerAllreduce() {
        super(ID, Collective.ALLREDUCE);
    }

    /** The window (in elements) a new rank keeps in each halving step: {@code [lo[s+1], hi[s+1])} after step s. */
    private record Windows(long[] lo, long[] hi) {
        static Windows of(long elements, int newRank, int steps) {
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
        long giveLo(int s) {
            return lo[s + 1] == lo[s] ? hi[s + 1] : lo[s];
        }

        long giveHi(int s) {
            return lo[s + 1] == lo[s] ? hi[s] : lo[s + 1];
        }
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        long e = shape.elementBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (n == 1) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            return p.build();
        }
        FoldedRanks folded = new FoldedRanks(n);
        int steps = folded.steps();
        int unfoldTag = 2 * steps + 1;
        if (folded.sitsOut(rank)) {
            p.put(rank - 1, Buffer.SEND, 0, b, FOLD_TAG);
            p.recv(rank - 1, unfoldTag, Buffer.RECV, 0, b);
            return p.build();
        }
        // cur holds the current window; curBase is where its first element lies.
        Buffer cur = Buffer.SEND;
        long curBase = 0;
        if (folded.takesPartner(rank)) {
            long in = p.allocateTemp(b);
            p.recv(rank + 1, FOLD_TAG, Buffer.TEMP, in, b);
            p.reduce(Buffer.SEND, 0, Buffer.TEMP, in, b); // mine op the odd neighbour's
            cur = Buffer.TEMP;
            curBase = in;
        }
        int me = folded.newRank(rank);
        Windows w = Windows.of(shape.elements(), me, steps);
        for (int s = 0; s < steps; s++) {
            int partner = folded.oldRank(me ^ 1 << s);
            long lo = w.lo[s];
            long keepLo = w.lo[s + 1];
            long keepBytes = (w.hi[s + 1] - keepLo) * e;
            boolean last = s == steps - 1;
            p.put(partner, cur, curBase + (w.giveLo(s) - lo) * e, (w.giveHi(s) - w.giveLo(s)) * e, 1 + s);
            long mineAt = curBase + (keepLo - lo) * e;
            if ((me & 1 << s) == 0) {
                // mine op theirs: into the range theirs arrives in.
                Buffer dst = last ? Buffer.RECV : Buffer.TEMP;
                long dstOff = last ? keepLo * e : p.allocateTemp(keepBytes);
                p.recv(partner, 1 + s, dst, dstOff, keepBytes);
                p.reduce(cur, mineAt, dst, dstOff, keepBytes);
                cur = dst;
                curBase = dstOff;
            } else {
                // theirs op mine: into my own range, copied out of SEND first (or into RECV in the last step).
                long in = p.allocateTemp(keepBytes);
                p.recv(partner, 1 + s, Buffer.TEMP, in, keepBytes);
                Buffer dst = cur;
                long dstOff = mineAt;
                if (last || cur == Buffer.SEND) {
                    dst = last ? Buffer.RECV : Buffer.TEMP;
                    dstOff = last ? keepLo * e : p.allocateTemp(keepBytes);
                    p.copy(cur, mineAt, dst, dstOff, keepBytes);
                }
                p.reduce(Buffer.TEMP, in, dst, dstOff, keepBytes);
                cur = dst;
                curBase = dstOff;
            }
        }
        // Recursive doubling all-gather: retrace the windows, swapping all each side has in RECV.
        for (int s = steps - 1; s >= 0; s--) {
            int partner = folded.oldRank(me ^ 1 << s);
            int tag = 2 * steps - s;
            p.put(partner, Buffer.RECV, w.lo[s + 1] * e, (w.hi[s + 1] - w.lo[s + 1]) * e, tag);
            p.recv(partner, tag, Buffer.RECV, w.giveLo(s) * e, (w.giveHi(s) - w.giveLo(s)) * e);
        }
        if (folded.takesPartner(rank)) {
            p.put(rank + 1, Buffer.RECV, 0, b, unfoldTag);
        }
        return p.build();
    }

    /** The design as {@link Traffic}: fold, halving, doubling, unfold. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        long e = shape.elementBytes();
        Traffic t = new Traffic(n);
        if (n > 1) {
            FoldedRanks folded = new FoldedRanks(n);
            int steps = folded.steps();
            int unfoldTag = 2 * steps + 1;
            for (int r = 0; r < n; r++) {
                if (folded.sitsOut(r)) {
                    t.send(r, r - 1, FOLD_TAG, b).receive(r, r - 1, unfoldTag);
                    continue;
                }
                if (folded.takesPartner(r)) {
                    t.receive(r, r + 1, FOLD_TAG);
                }
                int me = folded.newRank(r);
                Windows w = Windows.of(shape.elements(), me, steps);
                for (int s = 0; s < steps; s++) {
                    int partner = folded.oldRank(me ^ 1 << s);
                    t.send(r, partner, 1 + s, (w.giveHi(s) - w.giveLo(s)) * e).receive(r, partner, 1 + s);
                }
                for (int s = steps - 1; s >= 0; s--) {
                    int partner = folded.oldRank(me ^ 1 << s);
                    t.send(r, partner, 2 * steps - s, (w.hi[s + 1] - w.lo[s + 1]) * e).receive(r, partner, 2 * steps - s);
                }
                if (folded.takesPartner(r)) {
                    t.send(r, r + 1, unfoldTag, b);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "2 log2 p ts + 2 (p-1)/p b*tau + (p-1)/p b*gamma, p = 2^floor(log2 N);"
                + " + 2 (ts + b*tau) + b*gamma when N != p");
    }

    @Override
    public String summary() {
        return "reduce-scatter by recursive halving, all-gather by recursive doubling, pairs folded when N is not a "
                + "power of 2; 2 log2 p ts + 2(p-1)/p b tau; rank order; any N; Rabenseifner 2004";
    }
}
