package io.railcoll.algorithm.node;

import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The orders in which node-local broadcasts send and receive. A rank that sends to all its node peers starts
 * with the one after itself in local-rank order and wraps, so that when several ranks of a node broadcast at once
 * (the group masters of paper 002), no two of them reach the same peer at the same position of their sequence;
 * a receiver lists its receives in that arrival order, which is what the k-port cost model needs to let them
 * overlap. Stateless.
 */
public final class NodeOrder {
    private NodeOrder() {
    }

    /** The other ranks of {@code rank}'s node, starting after it in local-rank order and wrapping. */
    public static int[] peersAfter(Placement placement, int rank) {
        int node = placement.nodeOf(rank);
        int size = placement.ranksOnNode(node);
        int local = placement.localRankOf(rank);
        int[] peers = new int[size - 1];
        for (int i = 1; i < size; i++) {
            peers[i - 1] = placement.rankAt(node, (local + i) % size);
        }
        return peers;
    }

    /** Where {@code receiver} comes in {@link #peersAfter}{@code (sender)}: 0 for the rank right after it. */
    public static int positionAfter(Placement placement, int sender, int receiver) {
        int size = placement.localSizeOf(sender);
        return Math.floorMod(placement.localRankOf(receiver) - placement.localRankOf(sender) - 1, size);
    }

    /** {@code senders} (ranks of {@code receiver}'s node) sorted by when each reaches {@code receiver}. */
    public static List<Integer> byArrival(Placement placement, List<Integer> senders, int receiver) {
        List<Integer> sorted = new ArrayList<>(senders);
        sorted.sort(Comparator.comparingInt(s -> positionAfter(placement, s, receiver)));
        return sorted;
    }
}
