package io.railcoll.bench.report;

import io.railcoll.bench.rails.RailAccounts;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the comparison table needs to know that the results do not say.
 *
 * @param flatAlgorithms algorithm ids that ignore the node structure (ring, Bruck, recursive doubling...);
 *                       the "speedup" column compares the best algorithm against the best of these.
 *                       Every other non-peer algorithm counts as SMP/multicast-aware.
 * @param peers          the algorithm names the peer libraries' results carry ({@code openmpi}, {@code mpj}), in
 *                       column order; their columns are never marked best and each gets a ratio column instead
 * @param accounts       the run's rail accounting, which marks impossible points
 * @param refused        per algorithm (as its results name it), the sizes it refused to run: their cells read n/a,
 *                       not "-" (no result for another reason), and the run's notes say why
 */
public record TableOptions(Set<String> flatAlgorithms, List<String> peers, RailAccounts accounts,
                           Map<String, List<Long>> refused) {

    public TableOptions {
        flatAlgorithms = Set.copyOf(flatAlgorithms);
        peers = List.copyOf(peers);
        Objects.requireNonNull(accounts, "accounts (use RailAccounts.none())");
        Map<String, List<Long>> copy = new java.util.LinkedHashMap<>();
        refused.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        refused = java.util.Collections.unmodifiableMap(copy);
    }

    public TableOptions(Set<String> flatAlgorithms, List<String> peers, RailAccounts accounts) {
        this(flatAlgorithms, peers, accounts, Map.of());
    }

    public static TableOptions withoutPeer(Set<String> flatAlgorithms) {
        return new TableOptions(flatAlgorithms, List.of(), RailAccounts.none());
    }

    public static TableOptions withPeer(Set<String> flatAlgorithms, String peer) {
        return new TableOptions(flatAlgorithms, List.of(peer), RailAccounts.none());
    }

    public TableOptions withPeers(List<String> peers) {
        return new TableOptions(flatAlgorithms, peers, accounts, refused);
    }

    public TableOptions withAccounts(RailAccounts accounts) {
        return new TableOptions(flatAlgorithms, peers, accounts, refused);
    }

    public TableOptions withRefused(Map<String, List<Long>> refused) {
        return new TableOptions(flatAlgorithms, peers, accounts, refused);
    }

    /** Whether {@code algorithm} refused to run {@code sizeBytes}. */
    boolean refused(String algorithm, long sizeBytes) {
        return refused.getOrDefault(algorithm, List.of()).contains(sizeBytes);
    }

    boolean isPeer(String algorithm) {
        return peers.contains(algorithm);
    }
}
