package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.FoldedRanks;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.RecursiveHalving;
import io.railcoll.algorithm.RecursiveHalving.Windows;
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
 * <p>Halving ({@link RecursiveHalving}, shared with {@code reduce.rabenseifner}): in step s (distance {@code 2^s},
 * growing) the p remaining ranks split their current window of the vector in two at an element boundary; the lower
 * partner keeps the lower half, puts the upper half to its partner, and both combine the half they keep. Because the distance grows, each partial covers a contiguous, aligned run of
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
    private static final int FOLD_TAG = RecursiveHalving.FOLD_TAG;

    public RabenseifnerAllreduce() {
        super(ID, Collective.ALLREDUCE);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int[] everyone = new int[n];
        for (int r = 0; r < n; r++) {
            everyone[r] = r;
        }
        ProgramBuilder p = new ProgramBuilder(rank);
        appendAmong(p, everyone, rank, Buffer.SEND, 0, 0, shape.elements(), shape.elementBytes(), FOLD_TAG);
        return p.build();
    }

    /**
     * Appends Rabenseifner's all-reduce among {@code members} (ranks in the order their contributions combine) to
     * {@code p}'s program, for the member at {@code index}: its operand of {@code elements} elements of {@code e}
     * bytes at {@code src[srcOffset..]}, which it never writes, and the result at {@code resultOffset} of RECV. Uses
     * tags {@code firstTag} to {@code firstTag + tagsAmong(M) - 1} for M members. Shared with the SMP-aware
     * all-reduce whose node leaders run it across nodes.
     */
    public static void appendAmong(ProgramBuilder p, int[] members, int index, Buffer src, long srcOffset,
                                   long resultOffset, long elements, long e, int firstTag) {
        int n = members.length;
        long b = elements * e;
        if (n == 1) {
            p.copy(src, srcOffset, Buffer.RECV, resultOffset, b);
            return;
        }
        FoldedRanks folded = new FoldedRanks(n);
        int steps = folded.steps();
        int unfoldTag = firstTag + 2 * steps + 1;
        if (folded.sitsOut(index)) {
            p.put(members[index - 1], src, srcOffset, b, firstTag);
            p.recv(members[index - 1], unfoldTag, Buffer.RECV, resultOffset, b);
            return;
        }
        int me = folded.newRank(index);
        Windows w = RecursiveHalving.appendAmong(p, members, folded, index, src, srcOffset, elements, e, Buffer.RECV,
                resultOffset, firstTag);
        // Recursive doubling all-gather: retrace the windows, swapping all each side has in RECV.
        for (int s = steps - 1; s >= 0; s--) {
            int partner = members[folded.oldRank(me ^ 1 << s)];
            int tag = firstTag + 2 * steps - s;
            p.put(partner, Buffer.RECV, resultOffset + w.lo()[s + 1] * e, w.length(s + 1) * e, tag);
            p.recv(partner, tag, Buffer.RECV, resultOffset + w.giveLo(s) * e, (w.giveHi(s) - w.giveLo(s)) * e);
        }
        if (folded.takesPartner(index)) {
            p.put(members[index + 1], Buffer.RECV, resultOffset, b, unfoldTag);
        }
    }

    /** How many tags {@link #appendAmong} uses for {@code members} members, from its first tag. */
    public static int tagsAmong(int members) {
        return members == 1 ? 0 : 2 * Integer.numberOfTrailingZeros(Integer.highestOneBit(members)) + 2;
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
                int me = folded.newRank(r);
                Windows w = RecursiveHalving.traffic(t, shape, folded, r);
                for (int s = steps - 1; s >= 0; s--) {
                    int partner = folded.oldRank(me ^ 1 << s);
                    t.send(r, partner, 2 * steps - s, w.length(s + 1) * e).receive(r, partner, 2 * steps - s);
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
