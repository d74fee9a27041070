package io.railcoll.algorithm.scan;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * Recursive doubling scan, inclusive ({@code scan.recursive-doubling}) and exclusive ({@code exscan.recursive-doubling});
 * MPICH's scan and exscan (Hillis and Steele's prefix). Each rank keeps a <i>partial</i>, the combination of its
 * aligned group of {@code 2^s} ranks, and its result. In step s it exchanges partials with rank {@code r xor 2^s};
 * from a lower partner it gets the whole lower half of its new group, which goes left of both the result and the
 * partial ({@code theirs op mine}); from a higher one only the partial grows ({@code mine op theirs}).
 *
 * <p>Rank order holds by construction, so any operator runs it. A lower partner's partial is combined into a copy
 * ({@code dst = src op dst} needs the right operand writable, and the old partial may still be on its way out), one
 * copy of b per such step; a partial no later step sends is not computed. Rank 0 of an exscan never writes RECV
 * (MPI leaves it undefined).
 *
 * <p>{@code ceil(log2 N)} steps of b each way: {@code T = ceil(log2 N) (ts + b tau) + 2 ceil(log2 N) b gamma} at
 * most. TEMP: up to two b per step. Any N; no root.
 */
public final class RecursiveDoublingScan extends AlgorithmBase {
    private final boolean exclusive;

    private RecursiveDoublingScan(Collective collective) {
        super(collective.id() + ".recursive-doubling", collective);
        this.exclusive = collective == Collective.EXSCAN;
    }

    /** {@code scan.recursive-doubling}: rank r gets {@code s0 op ... op sr}. */
    public static RecursiveDoublingScan inclusive() {
        return new RecursiveDoublingScan(Collective.SCAN);
    }

    /** {@code exscan.recursive-doubling}: rank r gets {@code s0 op ... op s(r-1)}. */
    public static RecursiveDoublingScan exclusive() {
        return new RecursiveDoublingScan(Collective.EXSCAN);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int[] everyone = new int[n];
        for (int r = 0; r < n; r++) {
            everyone[r] = r;
        }
        ProgramBuilder p = new ProgramBuilder(rank);
        appendAmong(p, everyone, rank, exclusive, Buffer.SEND, 0, Buffer.RECV, 0, shape.blockBytes(), 0);
        return p.build();
    }

    /**
     * Appends the recursive doubling scan among {@code members} (ranks in the order of the prefix) to {@code p}'s
     * program, for the member at {@code index}: its {@code b}-byte operand at {@code src}/{@code srcOffset}, which it
     * never writes, and its prefix (inclusive, or {@code exclusive}: not written on the first member) at
     * {@code result}/{@code resultOffset}. Tags {@code firstTag} to {@code firstTag + ceil(log2 M) - 1}. Shared with
     * the SMP-aware scan, which runs it inside each node and across nodes.
     */
    public static void appendAmong(ProgramBuilder p, int[] members, int index, boolean exclusive, Buffer src,
                                   long srcOffset, Buffer result, long resultOffset, long b, int firstTag) {
        int n = members.length;
        Buffer partial = src;
        long partialOff = srcOffset;
        boolean resultWritten = false;
        for (int s = 0; (1 << s) < n; s++) {
            int partnerIndex = index ^ (1 << s);
            if (partnerIndex >= n) {
                continue;
            }
            int partner = members[partnerIndex];
            p.put(partner, partial, partialOff, b, firstTag + s);
            long in = p.allocateTemp(b);
            p.recv(partner, firstTag + s, Buffer.TEMP, in, b);
            boolean partialSentLater = sendsAfter(index, n, s);
            if (partnerIndex < index) {
                if (resultWritten) {
                    p.reduce(Buffer.TEMP, in, result, resultOffset, b);
                } else if (exclusive) {
                    p.copy(Buffer.TEMP, in, result, resultOffset, b);
                } else {
                    p.copy(src, srcOffset, result, resultOffset, b);
                    p.reduce(Buffer.TEMP, in, result, resultOffset, b);
                }
                resultWritten = true;
                if (partialSentLater) {
                    long next = p.allocateTemp(b);
                    p.copy(partial, partialOff, Buffer.TEMP, next, b);
                    p.reduce(Buffer.TEMP, in, Buffer.TEMP, next, b);
                    partial = Buffer.TEMP;
                    partialOff = next;
                }
            } else if (partialSentLater) {
                p.reduce(partial, partialOff, Buffer.TEMP, in, b);
                partial = Buffer.TEMP;
                partialOff = in;
            }
        }
        if (!exclusive && !resultWritten) {
            p.copy(src, srcOffset, result, resultOffset, b); // the first member, or M = 1
        }
    }

    /** How many tags {@link #appendAmong} uses among {@code members} members. */
    public static int tagsAmong(int members) {
        return 32 - Integer.numberOfLeadingZeros(Math.max(0, members - 1));
    }

    /** Whether {@code rank} exchanges partials in some step after {@code s}. */
    private static boolean sendsAfter(int rank, int n, int s) {
        for (int t = s + 1; (1 << t) < n; t++) {
            if ((rank ^ (1 << t)) < n) {
                return true;
            }
        }
        return false;
    }

    /** The design as {@link Traffic}: in step s every rank whose partner {@code r xor 2^s} exists swaps b bytes. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        Traffic t = new Traffic(n);
        for (int r = 0; r < n; r++) {
            for (int s = 0; (1 << s) < n; s++) {
                int partner = r ^ (1 << s);
                if (partner < n) {
                    t.send(r, partner, s, shape.blockBytes()).receive(r, partner, s);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "ceil(log2 N) (ts + b*tau) + up to 2 ceil(log2 N) b*gamma");
    }

    @Override
    public String summary() {
        return (exclusive ? "exclusive" : "inclusive") + " prefix by recursive doubling, partials swapped with rank "
                + "r xor 2^s; ceil(log2 N) (ts + b*tau); rank order; any N; MPICH " + (exclusive ? "exscan" : "scan");
    }
}
