package io.railcoll.algorithm;

import io.railcoll.schedule.BlockCounts;

/**
 * Per-rank blocks of a v-variant laid out in a {@link KnomialTree}'s relative order (rank {@code root}, root+1, ...
 * wrapping), so that a subtree's blocks, a contiguous relative range, are one contiguous range of TEMP however
 * their sizes differ. Immutable; shared by the tree gatherv and scatterv.
 */
public final class TreeBlocks {
    private final KnomialTree tree;
    private final BlockCounts counts;
    /** {@code before[v]}: bytes of the blocks of relative ranks 0..v-1; N+1 entries. */
    private final long[] before;

    public TreeBlocks(KnomialTree tree, BlockCounts counts) {
        this.tree = tree;
        this.counts = counts;
        int n = tree.size();
        before = new long[n + 1];
        for (int v = 0; v < n; v++) {
            before[v + 1] = before[v] + counts.of(tree.rank(v));
        }
    }

    /** Bytes of the blocks of relative ranks {@code v .. v+count-1}. */
    public long span(int v, int count) {
        return before[v + count] - before[v];
    }

    /** Bytes of the blocks of the subtree of relative rank {@code v}. */
    public long subtree(int v) {
        return span(v, tree.subtreeSize(v));
    }

    /** Where relative rank {@code u}'s block lies within the TEMP range of {@code v}'s subtree ({@code u >= v}). */
    public long within(int v, int u) {
        return before[u] - before[v];
    }

    /**
     * The root's child {@code c}'s subtree in the root's packed buffer (absolute order): its bytes from its first
     * rank up to rank N-1 ({@code head}), the rest from rank 0 on ({@code subtree(c) - head}, zero unless it wraps).
     */
    public long head(int c) {
        int first = tree.rank(c);
        int count = tree.subtreeSize(c);
        return counts.span(first, Math.min(count, tree.size() - first));
    }

    /** Whether the root's child {@code c}'s subtree wraps past rank N-1 in absolute order. */
    public boolean wraps(int c) {
        return tree.rank(c) + tree.subtreeSize(c) > tree.size();
    }
}
