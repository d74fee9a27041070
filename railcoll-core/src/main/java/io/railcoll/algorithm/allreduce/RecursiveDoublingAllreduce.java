package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.Traffic;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Recursive doubling all-reduce for small vectors (MPICH's, Thakur, Rabenseifner and Gropp 2005, sec. 4.4): with
 * {@code p} the largest power of two not above N and {@code r = N - p}, the first {@code 2r} ranks fold in pairs
 * (rank 2i sends its vector to 2i+1, which combines them), the p remaining ranks exchange whole vectors with the
 * partner at distance 1, 2, 4, ... of their new numbering and combine, and the folded ranks get the result back.
 *
 * <p>Rank order and identical bits: the new numbering keeps rank order (new rank j stands for a contiguous run of
 * old ranks), and in every exchange both partners compute {@code lower op higher}, so both hold the same bits and
 * the result is {@code s0 op s1 op ... op s(N-1)}, right for non-commutative operators. A put's source is never
 * written afterwards (puts complete asynchronously): the partial result of each step goes to a fresh TEMP range
 * (the last one into RECV). The lower partner receives straight into that range and combines its own partial in
 * ({@code dst = mine op theirs}); the higher one must keep its own data on the right, so it copies its partial
 * there and combines the received one in: one copy of {@code b} per step on half the ranks.
 *
 * <p>{@code floor(log2 N)} steps of {@code b}, plus 2 when N is not a power of two:
 * {@code T = (log2 p + 2 [N != p]) (ts + b tau) + log2 p * b gamma}.
 */
public final class RecursiveDoublingAllreduce extends AlgorithmBase {
    public static final String ID = "allreduce.recursive-doubling";

    public RecursiveDoublingAllreduce() {
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
        appendAmong(p, everyone, rank, Buffer.SEND, 0, 0, shape.blockBytes(), 0);
        return p.build();
    }

    /**
     * Appends the recursive doubling all-reduce among {@code members} (ranks in the order their contributions
     * combine) to {@code p}'s program, for the member at {@code index}: its {@code length}-byte operand at
     * {@code src}/{@code srcOffset}, which it never writes, and the result at {@code resultOffset} of RECV. Uses tags
     * {@code firstTag} (the fold) to {@code firstTag + floor(log2 M) + 1} (the unfold) for M members. Shared with
     * the SMP-aware all-reduces, whose node leaders run it across nodes.
     */
    public static void appendAmong(ProgramBuilder p, int[] members, int index, Buffer src, long srcOffset,
                                   long resultOffset, long length, int firstTag) {
        int n = members.length;
        long b = length;
        if (n == 1) {
            p.copy(src, srcOffset, Buffer.RECV, resultOffset, b);
            return;
        }
        int pow = Integer.highestOneBit(n);
        int rem = n - pow;
        int steps = Integer.numberOfTrailingZeros(pow);
        int unfoldTag = firstTag + steps + 1;
        if (index < 2 * rem && index % 2 == 0) {
            // Folded away: hand the vector to the odd neighbour, get the result back.
            p.put(members[index + 1], src, srcOffset, b, firstTag);
            p.recv(members[index + 1], unfoldTag, Buffer.RECV, resultOffset, b);
            return;
        }
        Buffer curBuf = src;
        long curOff = srcOffset;
        if (index < 2 * rem) {
            // Odd member of a folded pair: (index-1) op mine, the left operand received.
            long in = p.allocateTemp(b);
            long mine = p.allocateTemp(b);
            p.recv(members[index - 1], firstTag, Buffer.TEMP, in, b);
            p.copy(src, srcOffset, Buffer.TEMP, mine, b);
            p.reduce(Buffer.TEMP, in, Buffer.TEMP, mine, b);
            curBuf = Buffer.TEMP;
            curOff = mine;
        }
        int newIndex = index < 2 * rem ? index / 2 : index - rem;
        for (int s = 0; s < steps; s++) {
            int partnerNew = newIndex ^ (1 << s);
            int partner = members[oldRank(partnerNew, rem)];
            int tag = firstTag + s + 1;
            boolean last = s == steps - 1;
            Buffer resBuf = last ? Buffer.RECV : Buffer.TEMP;
            long resOff = last ? resultOffset : p.allocateTemp(b);
            p.put(partner, curBuf, curOff, b, tag);
            if (newIndex < partnerNew) {
                p.recv(partner, tag, resBuf, resOff, b);
                p.reduce(curBuf, curOff, resBuf, resOff, b);
            } else {
                long in = p.allocateTemp(b);
                p.recv(partner, tag, Buffer.TEMP, in, b);
                p.copy(curBuf, curOff, resBuf, resOff, b);
                p.reduce(Buffer.TEMP, in, resBuf, resOff, b);
            }
            curBuf = resBuf;
            curOff = resOff;
        }
        if (index < 2 * rem) {
            p.put(members[index - 1], Buffer.RECV, resultOffset, b, unfoldTag);
        }
    }

    /** How many tags {@link #appendAmong} uses for {@code members} members, from its first tag. */
    public static int tagsAmong(int members) {
        return members == 1 ? 0 : Integer.numberOfTrailingZeros(Integer.highestOneBit(members)) + 2;
    }

    /** The rank that new rank {@code j} of the folded numbering is. */
    private static int oldRank(int j, int rem) {
        return j < rem ? 2 * j + 1 : j + rem;
    }

    /**
     * The design as a {@link Traffic} (who sends to whom, in which order), which the checker compares with the
     * programs: with several ports the critical path depends on how the fold overlaps the first exchanges, which
     * the port model measures better than a closed form would state it. With one port it is
     * {@code floor(log2 N) + 2 [N != 2^k]} steps of b.
     */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        Traffic t = new Traffic(n);
        if (n > 1) {
            int pow = Integer.highestOneBit(n);
            int rem = n - pow;
            int steps = Integer.numberOfTrailingZeros(pow);
            for (int r = 0; r < n; r++) {
                if (r < 2 * rem && r % 2 == 0) {
                    t.send(r, r + 1, 0, b).receive(r, r + 1, steps + 1);
                    continue;
                }
                if (r < 2 * rem) {
                    t.receive(r, r - 1, 0);
                }
                int j = r < 2 * rem ? r / 2 : r - rem;
                for (int s = 0; s < steps; s++) {
                    int partner = oldRank(j ^ (1 << s), rem);
                    t.send(r, partner, s + 1, b).receive(r, partner, s + 1);
                }
                if (r < 2 * rem) {
                    t.send(r, r - 1, steps + 1, b);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "(floor(log2 N) + 2 [N not a power of 2]) * (ts + b*tau)"
                + " + floor(log2 N) * b*gamma with one port");
    }

    @Override
    public String summary() {
        return "recursive doubling, whole vectors, pairs folded when N is not a power of 2; "
                + "(floor(log2 N) + 2[N != 2^k]) (ts + b*tau); rank order; any N; Thakur et al. 2005 sec. 4.4";
    }
}
