package io.railcoll.algorithm.scatterv;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.TreeBlocks;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * k-port binomial tree scatterv: {@code scatter.binomial} with a size per rank. The root hands each child of the
 * {@link KnomialTree} the blocks of its whole subtree, largest subtree first; every inner rank keeps its own block and
 * passes its children theirs the same way. Every rank knows every count (decision 0085), so each subtree's bytes are
 * known; inner ranks hold them in TEMP in relative rank order ({@link TreeBlocks}). In the root's SEND (absolute
 * order) the range of one child wraps past rank N-1 when the root is not 0; that child gets it as two messages (tags
 * 0 and 1).
 *
 * <p>Steps {@code ceil(log_{k+1} N)} (one more where the wrapped child's two messages cannot share a step); beta
 * bytes: per level the largest subtree's bytes; the root sends {@code total - c_root}. TEMP: the subtree's bytes on
 * inner ranks. Any N, k, root, counts.
 */
public final class BinomialScatterv extends AlgorithmBase {
    public static final String ID = "scatterv.binomial";
    private static final int TAG = 0;
    private static final int WRAPPED_TAIL_TAG = 1;

    public BinomialScatterv() {
        super(ID, Collective.SCATTERV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts counts = shape.counts();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        TreeBlocks blocks = new TreeBlocks(tree, counts);
        ProgramBuilder p = new ProgramBuilder(rank);
        int v = tree.relative(rank);
        if (v == 0) {
            p.copy(Buffer.SEND, counts.offset(rank), Buffer.RECV, 0, counts.of(rank));
            for (int c : tree.childrenTopDown(0)) {
                int first = tree.rank(c);
                long head = blocks.head(c);
                p.put(first, Buffer.SEND, counts.offset(first), head, TAG);
                if (blocks.wraps(c)) {
                    p.put(first, Buffer.SEND, 0, blocks.subtree(c) - head, WRAPPED_TAIL_TAG);
                }
            }
            return p.build();
        }
        int parent = tree.rank(tree.parent(v));
        if (tree.subtreeSize(v) == 1) {
            p.recv(parent, TAG, Buffer.RECV, 0, counts.of(rank));
            return p.build();
        }
        long temp = p.allocateTemp(blocks.subtree(v));
        boolean wraps = tree.parent(v) == 0 && blocks.wraps(v);
        long head = wraps ? blocks.head(v) : blocks.subtree(v);
        p.recv(parent, TAG, Buffer.TEMP, temp, head);
        if (wraps) {
            p.recv(parent, WRAPPED_TAIL_TAG, Buffer.TEMP, temp + head, blocks.subtree(v) - head);
        }
        p.copy(Buffer.TEMP, temp, Buffer.RECV, 0, counts.of(rank));
        for (int c : tree.childrenTopDown(v)) {
            p.put(tree.rank(c), Buffer.TEMP, temp + blocks.within(v, c), blocks.subtree(c), TAG);
        }
        return p.build();
    }

    /** The design as {@link Traffic}: each subtree's blocks down the tree, largest subtree first. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        TreeBlocks blocks = new TreeBlocks(tree, shape.counts());
        Traffic t = new Traffic(n);
        for (int v = 0; v < n; v++) {
            int r = tree.rank(v);
            if (v != 0) {
                int parent = tree.rank(tree.parent(v));
                t.receive(r, parent, TAG);
                if (tree.parent(v) == 0 && blocks.wraps(v) && tree.subtreeSize(v) > 1) {
                    t.receive(r, parent, WRAPPED_TAIL_TAG);
                }
            }
            for (int c : tree.childrenTopDown(v)) {
                if (v == 0 && blocks.wraps(c)) {
                    long head = blocks.head(c);
                    t.send(r, tree.rank(c), TAG, head).send(r, tree.rank(c), WRAPPED_TAIL_TAG, blocks.subtree(c) - head);
                } else {
                    t.send(r, tree.rank(c), TAG, blocks.subtree(c));
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "ceil(log_{k+1} N) ts + (sum over levels of the largest "
                + "subtree's bytes) tau; equal counts c, N=(k+1)^L: L ts + (N-1)/k c tau");
    }

    @Override
    public String summary() {
        return "k-nomial tree, each subtree's blocks of any size down as one message; ceil(log_{k+1} N)*ts + "
                + "(N-1)/k*c*tau for equal counts c, N=(k+1)^L; any N, k, root, counts; paper 000 sec. 5.1.1, downwards";
    }
}
