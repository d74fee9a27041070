package io.railcoll.bench.report;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the comparison table needs to know that the results do not say.
 *
 * @param flatAlgorithms algorithm ids that ignore the node structure (ring, Bruck, recursive doubling...);
 *                       the "speedup" column compares the best algorithm against the best of these.
 *                       Every other non-peer algorithm counts as SMP/multicast-aware.
 * @param peer           the algorithm name the peer library's results carry ({@code openmpi}), if a peer ran;
 *                       its column is never marked best and gets a ratio column instead
 */
public record TableOptions(Set<String> flatAlgorithms, Optional<String> peer) {

    public TableOptions {
        flatAlgorithms = Set.copyOf(flatAlgorithms);
        Objects.requireNonNull(peer, "peer (use Optional.empty())");
    }

    public static TableOptions withoutPeer(Set<String> flatAlgorithms) {
        return new TableOptions(flatAlgorithms, Optional.empty());
    }

    public static TableOptions withPeer(Set<String> flatAlgorithms, String peer) {
        return new TableOptions(flatAlgorithms, Optional.of(peer));
    }

    boolean isPeer(String algorithm) {
        return peer.filter(algorithm::equals).isPresent();
    }
}
