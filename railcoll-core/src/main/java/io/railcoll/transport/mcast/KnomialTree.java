package io.railcoll.transport.mcast;

import java.util.Arrays;

/**
 * A k-nomial tree over the member indices {@code 0..size-1} rooted at {@code root}: in relative numbering
 * {@code v = (i - root) mod size}, the parent of {@code v > 0} clears v's lowest non-zero base-k digit, and a
 * node's children add one non-zero digit below its own lowest one. Depth is ceil(log_k size); the root has
 * (k-1)·depth children at most. Children are listed largest subtree first, so data reaches the big subtrees
 * earliest. Used upwards for the ACK/NACK synchronization (root = manager) and downwards for the release and
 * for fail-over data (root = the broadcast's root). Immutable.
 */
public final class KnomialTree {
    private final int size;
    private final int radix;
    private final int root;

    public KnomialTree(int size, int radix, int root) {
        if (size < 1 || radix < 2 || root < 0 || root >= size) {
            throw new IllegalArgumentException("bad k-nomial tree: size " + size + ", radix " + radix + ", root " + root);
        }
        this.size = size;
        this.radix = radix;
        this.root = root;
    }

    public int root() {
        return root;
    }

    /** The parent of member {@code index}, or -1 for the root. */
    public int parent(int index) {
        int v = relative(index);
        if (v == 0) {
            return -1;
        }
        long place = 1;
        while ((v / place) % radix == 0) {
            place *= radix;
        }
        long digit = (v / place) % radix;
        return absolute((int) (v - digit * place));
    }

    /** The children of member {@code index}, largest subtree first. */
    public int[] children(int index) {
        int v = relative(index);
        // Places below v's lowest non-zero digit (all places for the root).
        long limit = 1;
        if (v == 0) {
            while (limit < size) {
                limit *= radix;
            }
        } else {
            while ((v / limit) % radix == 0) {
                limit *= radix;
            }
        }
        int[] out = new int[(radix - 1) * 32];
        int n = 0;
        for (long place = limit / radix; place >= 1; place /= radix) {
            for (int d = 1; d < radix; d++) {
                long c = v + d * place;
                if (c < size) {
                    out[n++] = absolute((int) c);
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    private int relative(int index) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("member " + index + " not in 0.." + (size - 1));
        }
        return Math.floorMod(index - root, size);
    }

    private int absolute(int v) {
        return (v + root) % size;
    }
}
