package io.railcoll.algorithm.scatter;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * k-port spanning binomial tree scatter (paper 000 sec. 5.1.1's tree run downwards; MPICH's binomial scatter for
 * k = 1): the root hands each child of the {@link KnomialTree} the blocks of its whole subtree, largest subtree first,
 * and every inner rank keeps its own block and passes its children theirs the same way.
 *
 * <p>A subtree is a contiguous range of relative ranks, so inner ranks hold their subtree's blocks in TEMP in
 * relative order and forward each child's part as one message. In the root's SEND (absolute order) the range of one
 * child wraps past rank N-1 when the root is not 0; that child gets it as two messages (tags 0 and 1) into one TEMP
 * range. Leaves receive straight into RECV.
 *
 * <p>Steps {@code ceil(log_{k+1} N)} (one more on the child whose range wraps when its two messages cannot share a
 * step); beta bytes as the tree gather's, {@code b * sum_{t<L} min((k+1)^t, N-(k+1)^t)}, which is {@code (N-1)/k b}
 * for N a power of k+1; the root sends {@code (N-1) b}. TEMP {@code subtree * b} on inner ranks. Any N, k, root.
 */
public final class BinomialScatter extends AlgorithmBase {
    public static final String ID = "scatter.binomial";
    private static final int TAG = 0;
    private static final int WRAPPED_TAIL_TAG = 1;

    public BinomialScatter() {
        super(ID, Collective.SCATTER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        ProgramBuilder p = new ProgramBuilder(rank);
        int v = tree.relative(rank);
        if (v == 0) {
            p.copy(Buffer.SEND, rank * b, Buffer.RECV, 0, b);
            for (int c : tree.childrenTopDown(0)) {
                int first = tree.rank(c);
                int count = tree.subtreeSize(c);
                int head = Math.min(count, n - first);
                p.put(first, Buffer.SEND, first * b, head * b, TAG);
                if (head < count) {
                    p.put(first, Buffer.SEND, 0, (count - head) * b, WRAPPED_TAIL_TAG);
                }
            }
            return p.build();
        }
        int parent = tree.rank(tree.parent(v));
        int count = tree.subtreeSize(v);
        if (count == 1) {
            p.recv(parent, TAG, Buffer.RECV, 0, b);
            return p.build();
        }
        long temp = p.allocateTemp(count * b);
        int head = tree.parent(v) == 0 ? Math.min(count, n - rank) : count;
        p.recv(parent, TAG, Buffer.TEMP, temp, head * b);
        if (head < count) {
            p.recv(parent, WRAPPED_TAIL_TAG, Buffer.TEMP, temp + head * b, (count - head) * b);
        }
        p.copy(Buffer.TEMP, temp, Buffer.RECV, 0, b);
        for (int c : tree.childrenTopDown(v)) {
            p.put(tree.rank(c), Buffer.TEMP, temp + (c - v) * b, tree.subtreeSize(c) * b, TAG);
        }
        return p.build();
    }

    /** The design as {@link Traffic}: each subtree's blocks down the tree, largest subtree first. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        Traffic t = new Traffic(n);
        for (int v = 0; v < n; v++) {
            int r = tree.rank(v);
            if (v != 0) {
                int parent = tree.rank(tree.parent(v));
                t.receive(r, parent, TAG);
                if (wraps(tree, v, n)) {
                    t.receive(r, parent, WRAPPED_TAIL_TAG);
                }
            }
            for (int c : tree.childrenTopDown(v)) {
                int count = tree.subtreeSize(c);
                if (wraps(tree, c, n)) {
                    int head = n - tree.rank(c);
                    t.send(r, tree.rank(c), TAG, head * b).send(r, tree.rank(c), WRAPPED_TAIL_TAG, (count - head) * b);
                } else {
                    t.send(r, tree.rank(c), TAG, count * b);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "ceil(log_{k+1} N) ts + (N-1)/k b*tau for N = (k+1)^L "
                + "(the tree gather's terms, downwards)");
    }

    /** Whether the root's SEND range for child {@code c} of the root wraps past rank N-1 (two messages). */
    private static boolean wraps(KnomialTree tree, int c, int n) {
        return tree.parent(c) == 0 && tree.rank(c) + tree.subtreeSize(c) > n;
    }

    @Override
    public String summary() {
        return "k-nomial tree, each subtree's blocks down as one message; ceil(log_{k+1} N)*ts + (N-1)/k*b*tau for "
                + "N=(k+1)^L; any N, k, root; paper 000 sec. 5.1.1, downwards";
    }
}
