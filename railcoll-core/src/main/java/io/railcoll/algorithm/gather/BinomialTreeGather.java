package io.railcoll.algorithm.gather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.List;

/**
 * k-port spanning binomial tree gather (paper 000 section 5.1.1): data flows up the {@link KnomialTree}; each inner
 * rank collects its subtree's blocks, in relative-rank order, in TEMP and forwards them as one message, whose
 * length is multiplied by k+1 from one level to the next.
 *
 * <p>Steps {@code L = ceil(log_{k+1} N)}; in step t the ranks of level t-1 send to their parents, a message of
 * {@code min((k+1)^(t-1), N-(k+1)^(t-1))} blocks at most. Beta bytes {@code b * sum_{t<L} min((k+1)^t, N-(k+1)^t)},
 * which for N a power of k+1 is equation (1): {@code T = L ts + (N-1)/k b tau}. A rank sends its subtree's
 * {@code size b}; the root receives {@code (N-1) b}; link class per message by placement.
 *
 * <p>Buffers: leaves put straight from SEND; inner ranks use {@code subtree * b} of TEMP. The root receives each
 * child's range straight into its final place in RECV, except the one child whose range wraps past rank N-1 (only
 * when the root is not 0), which lands in TEMP and is copied out in two pieces. Any N, k and root.
 */
public final class BinomialTreeGather extends AlgorithmBase {
    public static final String ID = "gather.binomial";
    private static final int TAG = 0;

    public BinomialTreeGather() {
        super(ID, Collective.GATHER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        ProgramBuilder p = new ProgramBuilder(rank);
        appendGather(p, new KnomialTree(shape.size(), shape.ports(), shape.root()), shape.blockBytes(), TAG);
        return p.build();
    }

    /**
     * Appends the tree gather of {@code b}-byte SEND blocks into the root's RECV ({@code N*b} bytes, block i from
     * rank i) to {@code p}'s program, with {@code tag} on every message. Shared with the gather-broadcast all-gather.
     */
    public static void appendGather(ProgramBuilder p, KnomialTree tree, long b, int tag) {
        int rank = p.rank();
        int v = tree.relative(rank);
        List<Integer> children = tree.childrenBottomUp(v);
        if (v != 0) {
            int parent = tree.rank(tree.parent(v));
            if (children.isEmpty()) {
                p.put(parent, Buffer.SEND, 0, b, tag);
                return;
            }
            long temp = p.allocateTemp(tree.subtreeSize(v) * b);
            p.copy(Buffer.SEND, 0, Buffer.TEMP, temp, b);
            for (int c : children) {
                p.recv(tree.rank(c), tag, Buffer.TEMP, temp + (c - v) * b, tree.subtreeSize(c) * b);
            }
            p.put(parent, Buffer.TEMP, temp, tree.subtreeSize(v) * b, tag);
            return;
        }
        int size = tree.size();
        p.copy(Buffer.SEND, 0, Buffer.RECV, (long) rank * b, b);
        int wrapped = -1;
        long wrapTemp = 0;
        for (int c : children) {
            int first = tree.rank(c);
            int count = tree.subtreeSize(c);
            if (first + count <= size) {
                p.recv(first, tag, Buffer.RECV, first * b, count * b);
            } else {
                wrapped = c;
                wrapTemp = p.allocateTemp(count * b);
                p.recv(first, tag, Buffer.TEMP, wrapTemp, count * b);
            }
        }
        if (wrapped >= 0) {
            int first = tree.rank(wrapped);
            long head = (long) (size - first) * b;
            p.copy(Buffer.TEMP, wrapTemp, Buffer.RECV, first * b, head);
            p.copy(Buffer.TEMP, wrapTemp + head, Buffer.RECV, 0, tree.subtreeSize(wrapped) * b - head);
        }
    }

    /** Beta bytes of the tree gather: {@code b * sum_{t<L} min((k+1)^t, N - (k+1)^t)}. */
    public static long betaBytes(int n, int ports, long b) {
        long blocks = 0;
        int depth = Radix.ceilLog(n, ports + 1);
        for (int t = 0; t < depth; t++) {
            long unit = Radix.pow(ports + 1, t);
            blocks += Math.min(unit, n - unit);
        }
        return blocks * b;
    }

    /** Adds the gather's messages to {@code tally}. */
    public static void tally(LinkTally tally, KnomialTree tree, int n, long b) {
        for (int v = 1; v < n; v++) {
            tally.message(tree.rank(v), tree.rank(tree.parent(v)), tree.subtreeSize(v) * b);
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        LinkTally tally = new LinkTally(shape.placement());
        tally(tally, tree, n, shape.blockBytes());
        return tally.toCost(tree.depth(), betaBytes(n, shape.ports(), shape.blockBytes()),
                "ceil(log_{k+1} N)*ts + sum_{t<L} min((k+1)^t, N-(k+1)^t)*b*tau; N=(k+1)^L: L*ts + (N-1)/k*b*tau"
                        + "  [paper 000 eq. (1)]");
    }

    @Override
    public String summary() {
        return "k-nomial tree, subtrees combined in TEMP; ceil(log_{k+1} N)*ts + (N-1)/k*b*tau for N=(k+1)^L; "
                + "any N, k, root; paper 000 sec. 5.1.1 eq. (1)";
    }
}
