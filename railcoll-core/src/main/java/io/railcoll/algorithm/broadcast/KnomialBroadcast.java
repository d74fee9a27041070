package io.railcoll.algorithm.broadcast;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * k-nomial tree broadcast: the root puts the whole message to its children, highest level first, and every rank,
 * once its copy has landed, does the same for its own subtree ({@link KnomialTree}; the k-port binomial tree of
 * paper 000 section 5.1.1 run downwards, the software broadcast the paper's SMP algorithms fall back on).
 *
 * <p>Steps {@code L = ceil(log_{k+1} N)}: the root has {@code k(L-1) + m} children (m of them on the top level,
 * {@code 1 <= m <= k}), k per step. Every message is the whole b bytes, so {@code T = L (ts + b tau)} and beta
 * bytes {@code L b}. Each rank receives b once; a rank sends b per child. Data lands in RECV and is forwarded
 * from there; no TEMP. Any N, k and root. Best for short messages; long ones want scatter-allgather.
 */
public final class KnomialBroadcast extends AlgorithmBase {
    public static final String ID = "broadcast.knomial";
    private static final int TAG = 0;

    public KnomialBroadcast() {
        super(ID, Collective.BROADCAST);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        ProgramBuilder p = new ProgramBuilder(rank);
        appendBroadcast(p, new KnomialTree(shape.size(), shape.ports(), shape.root()), shape.blockBytes(), TAG);
        return p.build();
    }

    /**
     * Appends the broadcast of RECV[0, bytes) from the tree's root to every rank's RECV[0, bytes), with
     * {@code tag} on every message. Shared with the gather-broadcast all-gather.
     */
    public static void appendBroadcast(ProgramBuilder p, KnomialTree tree, long bytes, int tag) {
        int v = tree.relative(p.rank());
        if (v != 0) {
            p.recv(tree.rank(tree.parent(v)), tag, Buffer.RECV, 0, bytes);
        }
        for (int c : tree.childrenTopDown(v)) {
            p.put(tree.rank(c), Buffer.RECV, 0, bytes, tag);
        }
    }

    /** Adds the broadcast's messages to {@code tally}. */
    public static void tally(LinkTally tally, KnomialTree tree, long bytes) {
        for (int v = 1; v < tree.size(); v++) {
            tally.message(tree.rank(tree.parent(v)), tree.rank(v), bytes);
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        KnomialTree tree = new KnomialTree(shape.size(), shape.ports(), shape.root());
        LinkTally tally = new LinkTally(shape.placement());
        tally(tally, tree, shape.blockBytes());
        return tally.toCost(tree.depth(), tree.depth() * shape.blockBytes(), "ceil(log_{k+1} N) * (ts + b*tau)");
    }

    @Override
    public String summary() {
        return "k-nomial tree from the root, whole message per edge; ceil(log_{k+1} N)*(ts + b*tau); any N, k, root; "
                + "paper 000 sec. 5.1.1 (tree run downwards)";
    }
}
