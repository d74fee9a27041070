package io.railcoll.algorithm.gatherv;

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
 * k-port binomial tree gatherv: {@code gather.binomial} (paper 000 sec. 5.1.1, equation (1)) with a size per rank.
 * Every rank knows every count (decision 0085), so an inner rank knows how many bytes its subtree holds: it collects
 * its own block and its children's subtrees in TEMP, in relative rank order ({@link TreeBlocks}), and sends the
 * whole range to its parent as one message. The root receives each child's range straight into its place in RECV,
 * except the one child whose range wraps past rank N-1 (root not 0), which lands in TEMP and is copied out in two
 * pieces.
 *
 * <p>Steps {@code ceil(log_{k+1} N)}, as the uniform tree; beta bytes: per level the largest subtree's bytes (for
 * equal counts c, {@code (N-1)/k c} for N a power of k+1); a rank sends its subtree's bytes, the root receives
 * {@code total - c_root}. TEMP: the subtree's bytes on inner ranks. Any N, k, root, counts, zeros included (empty
 * messages still go up the tree, carrying the counts' digest).
 */
public final class BinomialGatherv extends AlgorithmBase {
    public static final String ID = "gatherv.binomial";
    private static final int TAG = 0;

    public BinomialGatherv() {
        super(ID, Collective.GATHERV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts counts = shape.counts();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        TreeBlocks blocks = new TreeBlocks(tree, counts);
        ProgramBuilder p = new ProgramBuilder(rank);
        int v = tree.relative(rank);
        if (v != 0) {
            int parent = tree.rank(tree.parent(v));
            if (tree.childrenBottomUp(v).isEmpty()) {
                p.put(parent, Buffer.SEND, 0, counts.of(rank), TAG);
                return p.build();
            }
            long temp = p.allocateTemp(blocks.subtree(v));
            p.copy(Buffer.SEND, 0, Buffer.TEMP, temp, counts.of(rank));
            for (int c : tree.childrenBottomUp(v)) {
                p.recv(tree.rank(c), TAG, Buffer.TEMP, temp + blocks.within(v, c), blocks.subtree(c));
            }
            p.put(parent, Buffer.TEMP, temp, blocks.subtree(v), TAG);
            return p.build();
        }
        p.copy(Buffer.SEND, 0, Buffer.RECV, counts.offset(rank), counts.of(rank));
        int wrapped = -1;
        long wrapTemp = 0;
        for (int c : tree.childrenBottomUp(0)) {
            int first = tree.rank(c);
            if (!blocks.wraps(c)) {
                p.recv(first, TAG, Buffer.RECV, counts.offset(first), blocks.subtree(c));
            } else {
                wrapped = c;
                wrapTemp = p.allocateTemp(blocks.subtree(c));
                p.recv(first, TAG, Buffer.TEMP, wrapTemp, blocks.subtree(c));
            }
        }
        if (wrapped >= 0) {
            long head = blocks.head(wrapped);
            p.copy(Buffer.TEMP, wrapTemp, Buffer.RECV, counts.offset(tree.rank(wrapped)), head);
            p.copy(Buffer.TEMP, wrapTemp + head, Buffer.RECV, 0, blocks.subtree(wrapped) - head);
        }
        return p.build();
    }

    /** The design as {@link Traffic}: each rank receives its children's subtrees (bottom-up), then sends its own up. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        TreeBlocks blocks = new TreeBlocks(tree, shape.counts());
        Traffic t = new Traffic(n);
        for (int v = 0; v < n; v++) {
            int r = tree.rank(v);
            for (int c : tree.childrenBottomUp(v)) {
                t.receive(r, tree.rank(c), TAG);
            }
            if (v != 0) {
                t.send(r, tree.rank(tree.parent(v)), TAG, blocks.subtree(v));
            }
        }
        return t.cost(shape.placement(), shape.ports(), "ceil(log_{k+1} N) ts + (sum over levels of the largest "
                + "subtree's bytes) tau; equal counts c, N=(k+1)^L: L ts + (N-1)/k c tau  [paper 000 eq. (1)]");
    }

    @Override
    public String summary() {
        return "k-nomial tree, subtrees' blocks of any size combined in TEMP; ceil(log_{k+1} N)*ts + (N-1)/k*c*tau "
                + "for equal counts c, N=(k+1)^L; any N, k, root, counts; paper 000 sec. 5.1.1 eq. (1)";
    }
}
