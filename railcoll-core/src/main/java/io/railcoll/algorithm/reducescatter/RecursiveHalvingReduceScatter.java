package io.railcoll.algorithm.reducescatter;

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
 * Recursive halving reduce-scatter with equal blocks, in rank order (Thakur, Rabenseifner and Gropp 2005 sec. 4.2;
 * MPICH's non-commutative reduce-scatter): when N is not a power of two the first 2r ranks fold in pairs
 * ({@link FoldedRanks}; the odd rank hands its whole SEND to the even one and gets its block back at the end), so p
 * ranks remain, new rank j owning the blocks of the old ranks it stands for (its <i>unit</i>).
 *
 * <p>Each remaining rank first copies its vector into TEMP with the units in bit-reversed order of their new rank.
 * In step s (distance {@code 2^s}, growing) partners split their window of positions in two, the lower partner
 * keeping the lower half; because position q holds unit {@code bitreverse(q)}, the halves kept are exactly the units
 * whose new rank agrees with the keeper's in bits 0..s, and after log2 p steps each rank holds its own unit. Growing
 * distances mean each partial covers a contiguous, aligned run of ranks and both partners compute
 * {@code lower op higher}: rank order, so any operator runs it.
 *
 * <p>{@code log2 p} steps moving {@code (p-1)/p} of the vector per rank, plus 2 steps when N is not a power of two:
 * {@code T = log2 p ts + (p-1)/p N b tau + (p-1)/p N b gamma} (+ {@code 2 ts + (N+1) b tau + N b gamma} for the
 * fold). TEMP: the permuted vector and the halves received (at most {@code 3 N b}). Any N.
 */
public final class RecursiveHalvingReduceScatter extends AlgorithmBase {
    public static final String ID = "reduce-scatter.recursive-halving";
    private static final int FOLD_TAG = 0;

    public RecursiveHalvingReduceScatter() {
        super(ID, Collective.REDUCE_SCATTER);
    }

    /** Where the units lie in the permuted vector: position q holds unit {@code bitreverse(q)}. */
    private record Layout(FoldedRanks folded, long b, long[] start) {
        static Layout of(FoldedRanks folded, long b) {
            int p = folded.remaining();
            long[] start = new long[p + 1];
            for (int q = 0; q < p; q++) {
                start[q + 1] = start[q] + folded.width(unitAt(q, folded.steps())) * b;
            }
            return new Layout(folded, b, start);
        }

        static int unitAt(int q, int steps) {
            return steps == 0 ? 0 : Integer.reverse(q) >>> (32 - steps);
        }

        /** Bytes of positions [from, to). */
        long bytes(int from, int to) {
            return start[to] - start[from];
        }
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (n == 1) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            return p.build();
        }
        FoldedRanks folded = new FoldedRanks(n);
        int steps = folded.steps();
        int unfoldTag = steps + 1;
        if (folded.sitsOut(rank)) {
            p.put(rank - 1, Buffer.SEND, 0, n * b, FOLD_TAG);
            p.recv(rank - 1, unfoldTag, Buffer.RECV, 0, b);
            return p.build();
        }
        Buffer vec = Buffer.SEND;
        long vecOff = 0;
        if (folded.takesPartner(rank)) {
            vecOff = p.allocateTemp(n * b);
            vec = Buffer.TEMP;
            p.recv(rank + 1, FOLD_TAG, Buffer.TEMP, vecOff, n * b);
            p.reduce(Buffer.SEND, 0, Buffer.TEMP, vecOff, n * b); // mine op the odd neighbour's
        }
        Layout layout = Layout.of(folded, b);
        long perm = p.allocateTemp(n * b);
        for (int q = 0; q < folded.remaining(); q++) {
            int unit = Layout.unitAt(q, steps);
            p.copy(vec, vecOff + folded.oldRank(unit) * b, Buffer.TEMP, perm + layout.start[q], layout.bytes(q, q + 1));
        }
        int me = folded.newRank(rank);
        int lo = 0;
        int hi = folded.remaining();
        long curBase = perm; // where position lo lies
        for (int s = 0; s < steps; s++) {
            int partner = folded.oldRank(me ^ 1 << s);
            int mid = (lo + hi) / 2;
            boolean lower = (me & 1 << s) == 0;
            int keepLo = lower ? lo : mid;
            int keepHi = lower ? mid : hi;
            int giveLo = lower ? mid : lo;
            int giveHi = lower ? hi : mid;
            long keepBytes = layout.bytes(keepLo, keepHi);
            long mineAt = curBase + layout.bytes(lo, keepLo);
            p.put(partner, Buffer.TEMP, curBase + layout.bytes(lo, giveLo), layout.bytes(giveLo, giveHi), 1 + s);
            long in = p.allocateTemp(keepBytes);
            p.recv(partner, 1 + s, Buffer.TEMP, in, keepBytes);
            if (lower) {
                p.reduce(Buffer.TEMP, mineAt, Buffer.TEMP, in, keepBytes); // mine op theirs, into theirs
                curBase = in;
            } else {
                p.reduce(Buffer.TEMP, in, Buffer.TEMP, mineAt, keepBytes); // theirs op mine, in place
                curBase = mineAt;
            }
            lo = keepLo;
            hi = keepHi;
        }
        p.copy(Buffer.TEMP, curBase, Buffer.RECV, 0, b);
        if (folded.takesPartner(rank)) {
            p.put(rank + 1, Buffer.TEMP, curBase + b, b, unfoldTag);
        }
        return p.build();
    }

    /** The design as {@link Traffic}: fold, halving with the permuted layout's byte counts, unfold. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        Traffic t = new Traffic(n);
        if (n > 1) {
            FoldedRanks folded = new FoldedRanks(n);
            int steps = folded.steps();
            Layout layout = Layout.of(folded, b);
            for (int r = 0; r < n; r++) {
                if (folded.sitsOut(r)) {
                    t.send(r, r - 1, FOLD_TAG, n * b).receive(r, r - 1, steps + 1);
                    continue;
                }
                if (folded.takesPartner(r)) {
                    t.receive(r, r + 1, FOLD_TAG);
                }
                int me = folded.newRank(r);
                int lo = 0;
                int hi = folded.remaining();
                for (int s = 0; s < steps; s++) {
                    int mid = (lo + hi) / 2;
                    boolean lower = (me & 1 << s) == 0;
                    int partner = folded.oldRank(me ^ 1 << s);
                    t.send(r, partner, 1 + s, lower ? layout.bytes(mid, hi) : layout.bytes(lo, mid))
                            .receive(r, partner, 1 + s);
                    lo = lower ? lo : mid;
                    hi = lower ? mid : hi;
                }
                if (folded.takesPartner(r)) {
                    t.send(r, r + 1, steps + 1, b);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "log2 p ts + (p-1)/p N b*tau + (p-1)/p N b*gamma,"
                + " p = 2^floor(log2 N); + 2 ts + (N+1) b*tau + N b*gamma when N != p");
    }

    @Override
    public String summary() {
        return "recursive halving over a bit-reversed copy, pairs folded when N is not a power of 2; "
                + "log2 p ts + (p-1)/p N b tau; rank order; any N; Thakur et al. 2005 sec. 4.2";
    }
}
