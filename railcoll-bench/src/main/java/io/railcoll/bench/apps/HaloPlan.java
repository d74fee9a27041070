package io.railcoll.bench.apps;

import java.util.ArrayList;
import java.util.List;

/**
 * Which unknowns one rank exchanges with which peers before a product with {@link PoissonGrid}'s matrix, when its
 * rows are block-distributed ({@link BlockSplit}). A rank with rows {@code [start, end)} reads unknowns
 * {@code [start - n, end + n)} (clipped to the grid): its <em>window</em>. From each peer it receives the peer's
 * rows inside its window, and sends the peer its own rows inside the peer's window. Both sides compute both ranges
 * from the split alone, so they agree without asking; with blocks shorter than {@code n} a window spans several
 * peers. A rank without rows reads nothing.
 *
 * @param lo    first unknown of the window (this rank's local vector with halo starts here)
 * @param hi    one past its last unknown
 * @param peers one entry per peer that this rank exchanges with, in rank order
 */
record HaloPlan(int lo, int hi, List<Peer> peers) {

    /**
     * One peer's share of an exchange; ranges are global unknown indices, {@code [from, from + count)}.
     */
    record Peer(int rank, int sendFrom, int sendCount, int recvFrom, int recvCount) {
    }

    static HaloPlan of(PoissonGrid grid, BlockSplit split, int rank) {
        int[] window = window(grid, split, rank);
        List<Peer> peers = new ArrayList<>();
        for (int q = 0; q < split.ranks(); q++) {
            if (q == rank) {
                continue;
            }
            int[] recv = intersect(window, (int) split.start(q), (int) split.end(q));
            int[] theirs = window(grid, split, q);
            int[] send = intersect(theirs, (int) split.start(rank), (int) split.end(rank));
            if (recv[1] > 0 || send[1] > 0) {
                peers.add(new Peer(q, send[0], send[1], recv[0], recv[1]));
            }
        }
        return new HaloPlan(window[0], window[0] + window[1], List.copyOf(peers));
    }

    /** {@code {first, count}} of the unknowns {@code rank}'s rows read. */
    private static int[] window(PoissonGrid grid, BlockSplit split, int rank) {
        int start = (int) split.start(rank);
        if (split.count(rank) == 0) {
            return new int[]{start, 0};
        }
        int lo = Math.max(0, start - grid.n());
        int hi = (int) Math.min(grid.rows(), split.end(rank) + grid.n());
        return new int[]{lo, hi - lo};
    }

    /** {@code {first, count}} of a range {@code {first, count}} intersected with {@code [from, to)}. */
    private static int[] intersect(int[] range, int from, int to) {
        int a = Math.max(range[0], from);
        int b = Math.min(range[0] + range[1], to);
        return b > a ? new int[]{a, b - a} : new int[]{a, 0};
    }

    /** Unknowns received per exchange. */
    int received() {
        return peers.stream().mapToInt(Peer::recvCount).sum();
    }

    /** Unknowns sent per exchange. */
    int sent() {
        return peers.stream().mapToInt(Peer::sendCount).sum();
    }
}
