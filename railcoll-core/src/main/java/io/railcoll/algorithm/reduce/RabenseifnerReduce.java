package io.railcoll.algorithm.reduce;

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
 * Rabenseifner's reduce for large vectors (Rabenseifner 2004; Thakur, Rabenseifner and Gropp 2005, their
 * long-message reduce; MPICH's {@code reduce_scatter_gather}): the reduce-scatter of {@code allreduce.rabenseifner}
 * (pairs folded when N is not a power of two, then recursive halving, {@link RecursiveHalving}), then a binomial
 * gather of the pieces to the root instead of the all-gather.
 *
 * <p>The gather collects at the <i>collector</i>: the root's new rank, or, when the root is the odd rank of a folded
 * pair (it sits out), its even neighbour's, which puts the whole vector to the root in one more step (as MPICH
 * does). It retraces the halving windows: in gather step s (distance {@code 2^s}, shrinking) the ranks that agree
 * with the collector in bits above s pair up across bit s; the one that differs from the collector there puts the
 * window it holds (its halving window s+1, complete) to its partner, which receives it into its place beside its
 * own and so holds window s. The collector ends with window 0, the whole vector: in RECV on the root, in TEMP on
 * the even neighbour of a root that sat out.
 *
 * <p>Rank order: the halving combines {@code lower op higher} with growing distances, and the gather only copies,
 * so any operator runs it, and each element is combined once, by one rank.
 *
 * <p>{@code 2 log2 p} steps plus 1 for the fold when N is not a power of two, plus 1 when the root sat out; the
 * root receives {@code (p-1)/p b}: {@code T = 2 log2 p ts + 2 (p-1)/p b tau + (p-1)/p b gamma}
 * (+ {@code ts + b tau + b gamma} for the fold, + {@code ts + b tau} for the forward). Against
 * {@code reduce.binomial}'s {@code log2 N (ts + b tau)} it pays twice the start-ups for a constant instead of a
 * logarithmic number of vectors: the large-vector reduce. TEMP: the halving's (at most {@code 2b}) and the window a
 * rank gathers. Any N, k, root, operator.
 */
public final class RabenseifnerReduce extends AlgorithmBase {
    public static final String ID = "reduce.rabenseifner";

    public RabenseifnerReduce() {
        super(ID, Collective.REDUCE);
    }

    /** Tags: fold 0, halving step s {@code 1 + s}, gather step s {@code gatherTag(steps, s)}, then the forward. */
    private static int gatherTag(int steps, int s) {
        return steps + 1 + s;
    }

    private static int forwardTag(int steps) {
        return 2 * steps + 1;
    }

    /** The new rank that gathers the result: the root's, or its even neighbour's when the root sits out. */
    private static int collector(FoldedRanks folded, int root) {
        return folded.newRank(folded.sitsOut(root) ? root - 1 : root);
    }

    /**
     * The halving window a new rank holds when it has gathered all it will: window 0 (the whole vector) for the
     * collector; for another, window {@code h+1}, h being the highest bit in which it differs from the collector (it
     * receives in the gather steps above h and puts that window to its partner in step h).
     */
    private static int gatheredWindow(int me, int collector) {
        int x = me ^ collector;
        return x == 0 ? 0 : 32 - Integer.numberOfLeadingZeros(x);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        long e = shape.elementBytes();
        int root = shape.root();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (n == 1) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            return p.build();
        }
        FoldedRanks folded = new FoldedRanks(n);
        int steps = folded.steps();
        int c = collector(folded, root);
        if (folded.sitsOut(rank)) {
            p.put(rank - 1, Buffer.SEND, 0, b, RecursiveHalving.FOLD_TAG);
            if (rank == root) {
                p.recv(folded.oldRank(c), forwardTag(steps), Buffer.RECV, 0, b);
            }
            return p.build();
        }
        int me = folded.newRank(rank);
        Windows w = Windows.of(shape.elements(), me, steps);
        int top = gatheredWindow(me, c);
        // Where the window this rank gathers lies, placed so that element x of the vector is at outBase + x * e.
        Buffer out = rank == root ? Buffer.RECV : Buffer.TEMP;
        long outBase = rank == root ? 0 : p.allocateTemp(w.length(top) * e) - w.lo()[top] * e;
        RecursiveHalving.append(p, shape, folded, rank, out, outBase);
        for (int s = steps - 1; s >= Math.max(top - 1, 0); s--) {
            int partner = folded.oldRank(me ^ 1 << s);
            if (s == top - 1) {
                p.put(partner, out, outBase + w.lo()[s + 1] * e, w.length(s + 1) * e, gatherTag(steps, s));
            } else {
                p.recv(partner, gatherTag(steps, s), out, outBase + w.giveLo(s) * e, (w.giveHi(s) - w.giveLo(s)) * e);
            }
        }
        if (me == c && rank != root) {
            p.put(root, out, outBase, b, forwardTag(steps));
        }
        return p.build();
    }

    /** The design as {@link Traffic}: fold, halving, the gather's windows, the forward to a root that sat out. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        long e = shape.elementBytes();
        int root = shape.root();
        Traffic t = new Traffic(n);
        if (n > 1) {
            FoldedRanks folded = new FoldedRanks(n);
            int steps = folded.steps();
            int c = collector(folded, root);
            for (int r = 0; r < n; r++) {
                if (folded.sitsOut(r)) {
                    t.send(r, r - 1, RecursiveHalving.FOLD_TAG, b);
                    if (r == root) {
                        t.receive(r, folded.oldRank(c), forwardTag(steps));
                    }
                    continue;
                }
                int me = folded.newRank(r);
                Windows w = RecursiveHalving.traffic(t, shape, folded, r);
                int top = gatheredWindow(me, c);
                for (int s = steps - 1; s >= Math.max(top - 1, 0); s--) {
                    int partner = folded.oldRank(me ^ 1 << s);
                    if (s == top - 1) {
                        t.send(r, partner, gatherTag(steps, s), w.length(s + 1) * e);
                    } else {
                        t.receive(r, partner, gatherTag(steps, s));
                    }
                }
                if (me == c && r != root) {
                    t.send(r, root, forwardTag(steps), b);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "2 log2 p ts + 2 (p-1)/p b*tau + (p-1)/p b*gamma,"
                + " p = 2^floor(log2 N); + ts + b*tau + b*gamma when N != p; + ts + b*tau when the root sits out");
    }

    @Override
    public String summary() {
        return "reduce-scatter by recursive halving, binomial gather of the pieces to the root, pairs folded when N is"
                + " not a power of 2; 2 log2 p ts + 2(p-1)/p b tau; rank order; any N, root; Rabenseifner 2004";
    }
}
