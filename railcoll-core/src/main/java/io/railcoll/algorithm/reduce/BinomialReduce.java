package io.railcoll.algorithm.reduce;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

import java.util.List;

/**
 * k-nomial tree reduce (binomial for k = 1; MPICH's binomial reduce, Thakur, Rabenseifner and Gropp 2005 sec. 4.3,
 * with the k-port tree of paper 000 sec. 5.1.1): the gather tree of {@code gather.binomial} with data combined
 * instead of concatenated, so every message is one vector of {@code b} bytes. Each inner rank receives its
 * children's partial results lowest subtree first and combines each into its own, then puts the result to its parent.
 *
 * <p>Rank order: a subtree is a contiguous range of relative ranks, and a rank combines {@code mine op child} for its
 * children in ascending order, so a subtree's result is its ranks' contributions in relative order. For a
 * commutative operator the tree is rooted at the root. For a non-commutative one relative order must be rank order,
 * so the tree is rooted at rank 0 and, when the root is another rank, rank 0 puts the result to it in one more step
 * (as MPICH does). Every combination {@code mine op theirs} lands in the received range
 * ({@code dst = src op dst}), so no rank copies.
 *
 * <p>Steps {@code ceil(log_{k+1} N)} (+1 for a non-commutative operator and a root other than 0), each of {@code b}:
 * {@code T = L (ts + b tau) + L b gamma} with one port; a rank receives at most {@code k L} vectors. TEMP: one
 * {@code b} per child. Any N, k, root and operator.
 */
public final class BinomialReduce extends AlgorithmBase {
    public static final String ID = "reduce.binomial";
    private static final int TREE_TAG = 0;
    private static final int FORWARD_TAG = 1;

    public BinomialReduce() {
        super(ID, Collective.REDUCE);
    }

    /** The root of the tree: the call's root, or rank 0 when the operator needs rank order. */
    private static int treeRoot(Shape shape) {
        return shape.commutative() ? shape.root() : 0;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        long b = shape.blockBytes();
        int root = shape.root();
        KnomialTree tree = new KnomialTree(shape.size(), shape.ports(), treeRoot(shape));
        ProgramBuilder p = new ProgramBuilder(rank);
        int v = tree.relative(rank);
        List<Integer> children = tree.childrenBottomUp(v);
        boolean resultHere = v == 0 && rank == root;
        Buffer acc = Buffer.SEND;
        long accOff = 0;
        for (int i = 0; i < children.size(); i++) {
            boolean last = i == children.size() - 1;
            // The last combination on the root lands where the result belongs.
            Buffer dst = last && resultHere ? Buffer.RECV : Buffer.TEMP;
            long dstOff = dst == Buffer.RECV ? 0 : p.allocateTemp(b);
            p.recv(tree.rank(children.get(i)), TREE_TAG, dst, dstOff, b);
            p.reduce(acc, accOff, dst, dstOff, b); // mine op child's: the child's ranks come after mine
            acc = dst;
            accOff = dstOff;
        }
        if (v != 0) {
            p.put(tree.rank(tree.parent(v)), acc, accOff, b, TREE_TAG);
            if (rank == root) {
                p.recv(tree.rank(0), FORWARD_TAG, Buffer.RECV, 0, b);
            }
        } else if (rank != root) {
            p.put(root, acc, accOff, b, FORWARD_TAG);
        } else if (children.isEmpty()) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b); // N = 1
        }
        return p.build();
    }

    /** The design as {@link Traffic}: children's vectors up the tree, lowest subtree first, then the forward. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        KnomialTree tree = new KnomialTree(n, shape.ports(), treeRoot(shape));
        Traffic t = new Traffic(n);
        for (int v = 0; v < n; v++) {
            int r = tree.rank(v);
            for (int c : tree.childrenBottomUp(v)) {
                t.receive(r, tree.rank(c), TREE_TAG);
            }
            if (v != 0) {
                t.send(r, tree.rank(tree.parent(v)), TREE_TAG, b);
            }
            if (v != 0 && r == shape.root()) {
                // The call's root (not the tree's) gets the result after its own part in the tree.
                t.receive(r, tree.rank(0), FORWARD_TAG);
            }
        }
        if (tree.rank(0) != shape.root()) {
            t.send(tree.rank(0), shape.root(), FORWARD_TAG, b);
        }
        return t.cost(shape.placement(), shape.ports(), "ceil(log_{k+1} N) (ts + b*tau) + ceil(log_{k+1} N) b*gamma"
                + " (+1 step when a non-commutative operator's root is not 0)");
    }

    @Override
    public String summary() {
        return "k-nomial tree, whole vectors combined on the way up; ceil(log_{k+1} N) (ts + b*tau); rank order "
                + "(tree at rank 0, one forward, when not commutative); any N, k, root; Thakur et al. 2005 sec. 4.3";
    }
}
