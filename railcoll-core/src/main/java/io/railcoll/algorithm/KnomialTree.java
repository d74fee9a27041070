package io.railcoll.algorithm;

import java.util.ArrayList;
import java.util.List;

/**
 * The k-port spanning binomial (k-nomial) tree of paper 000 section 5.1.1, rooted at any rank.
 *
 * <p>Ranks are renumbered relative to the root, {@code v = (rank - root) mod N}. Write v in base k+1; its level is
 * the number of trailing zero digits (the root's level is {@code ceil(log_{k+1} N)}). The children of v are
 * {@code v + d(k+1)^i} for every level {@code i} below v's and {@code d = 1..k}, as long as they are below N; its
 * parent clears v's lowest non-zero digit. The subtree of v is the contiguous relative range
 * {@code [v, v + min((k+1)^level, N - v))}, which is what makes gathered or scattered data contiguous.
 *
 * <pre>
 *   N = 9, k = 2 (base 3)        relative rank: children (level 0 first)
 *   0 (level 2)                  0: 1 2 3 6
 *   3, 6 (level 1)               3: 4 5       6: 7 8
 *   1 2 4 5 7 8 (level 0)        leaves
 * </pre>
 * Immutable.
 */
public final class KnomialTree {
    private final int size;
    private final int radix;
    private final int root;
    private final int depth;

    public KnomialTree(int size, int ports, int root) {
        if (size < 1 || ports < 1 || root < 0 || root >= size) {
            throw new IllegalArgumentException("bad tree: size " + size + ", ports " + ports + ", root " + root);
        }
        this.size = size;
        this.radix = ports + 1;
        this.root = root;
        this.depth = Radix.ceilLog(size, radix);
    }

    public int size() {
        return size;
    }

    /** Steps of a gather or broadcast over this tree: {@code ceil(log_{k+1} N)}. */
    public int depth() {
        return depth;
    }

    public int relative(int rank) {
        return Math.floorMod(rank - root, size);
    }

    public int rank(int relative) {
        return (relative + root) % size;
    }

    /** Level of relative rank v: trailing zero digits in base k+1; the root's is {@link #depth()}. */
    public int level(int v) {
        if (v == 0) {
            return depth;
        }
        int level = 0;
        while (v % radix == 0) {
            v /= radix;
            level++;
        }
        return level;
    }

    /** Relative parent of relative rank {@code v > 0}. */
    public int parent(int v) {
        long unit = Radix.pow(radix, level(v));
        long digit = (v / unit) % radix;
        return (int) (v - digit * unit);
    }

    /** Relative ranks in v's subtree: {@code min((k+1)^level, N - v)}. */
    public int subtreeSize(int v) {
        return (int) Math.min(Radix.pow(radix, level(v)), (long) size - v);
    }

    /** v's children, lowest level first, digit ascending: the order their gathered data arrives. */
    public List<Integer> childrenBottomUp(int v) {
        List<Integer> children = new ArrayList<>();
        int level = level(v);
        long unit = 1;
        for (int i = 0; i < level; i++, unit *= radix) {
            for (int d = 1; d < radix; d++) {
                long child = v + d * unit;
                if (child >= size) {
                    break;
                }
                children.add((int) child);
            }
        }
        return children;
    }

    /** v's children, highest level first, digit ascending: the order a broadcast or scatter sends to them. */
    public List<Integer> childrenTopDown(int v) {
        List<Integer> bottomUp = childrenBottomUp(v);
        List<Integer> topDown = new ArrayList<>(bottomUp.size());
        int end = bottomUp.size();
        while (end > 0) {
            int level = level(bottomUp.get(end - 1) - v);
            int start = end;
            while (start > 0 && level(bottomUp.get(start - 1) - v) == level) {
                start--;
            }
            topDown.addAll(bottomUp.subList(start, end));
            end = start;
        }
        return topDown;
    }
}
