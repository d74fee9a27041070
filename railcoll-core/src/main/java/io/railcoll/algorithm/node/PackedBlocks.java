package io.railcoll.algorithm.node;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The all-gather blocks of some ranks in a fixed order: what one node-aware message carries, e.g. a node's blocks
 * in local-rank order. In RECV, block i sits at {@code i*b}; when the ranks are consecutive numbers the packed
 * blocks are one RECV range and travel straight from and into their final place; otherwise a rank keeps them
 * packed in TEMP and copies each run of consecutive ranks out ({@link #runs()}). Immutable.
 */
public final class PackedBlocks {
    private final int[] ranks;

    private PackedBlocks(int[] ranks) {
        this.ranks = ranks;
    }

    public static PackedBlocks of(int... ranks) {
        return new PackedBlocks(ranks.clone());
    }

    /** The blocks of {@code parts} one after the other. */
    public static PackedBlocks concat(List<PackedBlocks> parts) {
        int total = 0;
        for (PackedBlocks p : parts) {
            total += p.ranks.length;
        }
        int[] all = new int[total];
        int at = 0;
        for (PackedBlocks p : parts) {
            System.arraycopy(p.ranks, 0, all, at, p.ranks.length);
            at += p.ranks.length;
        }
        return new PackedBlocks(all);
    }

    /** A maximal run of packed blocks from consecutive ranks: packed index, first rank, number of blocks. */
    public record Run(int index, int firstRank, int count) {
    }

    public int count() {
        return ranks.length;
    }

    public int rank(int index) {
        return ranks[index];
    }

    /** Position of {@code rank}'s block in the packing, or -1. */
    public int indexOf(int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        return -1;
    }

    public long bytes(long blockBytes) {
        return ranks.length * blockBytes;
    }

    /** True when the blocks are one RECV range in this order (ranks r, r+1, ...); an empty set is too. */
    public boolean isRecvContiguous() {
        for (int i = 1; i < ranks.length; i++) {
            if (ranks[i] != ranks[0] + i) {
                return false;
            }
        }
        return true;
    }

    /** The maximal runs of consecutive ranks, in packed order. */
    public List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= ranks.length; i++) {
            if (i == ranks.length || ranks[i] != ranks[i - 1] + 1) {
                runs.add(new Run(start, ranks[start], i - start));
                start = i;
            }
        }
        return runs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PackedBlocks p && Arrays.equals(ranks, p.ranks);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ranks);
    }

    @Override
    public String toString() {
        return "blocks" + Arrays.toString(ranks);
    }
}
