package io.railcoll.systemtest;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.MulticastUser;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Draws the next call of the random sequence from the generator every rank steps identically: a collective of the
 * whole public API (or a point-to-point pair), its shared parameters, and now and then an algorithm to force, any
 * of the collective's catalog algorithms (one that cannot run the shape is refused by every rank alike before
 * anything is sent, and the call then runs with automatic selection); the multicast algorithms half the times a
 * broadcast or all-gather is forced.
 */
final class RandomCallCatalogue {
    private RandomCallCatalogue() {
    }

    static RandomCall draw(SplittableRandom shared, int n, int step) {
        RandomCall call = switch (shared.nextInt(17)) {
            case 0 -> new RandomDataCalls.Barrier();
            case 1 -> new RandomDataCalls.Broadcast(shared, n);
            case 2 -> new RandomDataCalls.Gather(shared, n);
            case 3 -> new RandomDataCalls.Scatter(shared, n);
            case 4 -> new RandomDataCalls.Allgather(shared, n);
            case 5 -> new RandomDataCalls.Alltoall(shared, n);
            case 6 -> new RandomDataCalls.Gatherv(shared, n);
            case 7 -> new RandomDataCalls.Scatterv(shared, n);
            case 8 -> new RandomDataCalls.Allgatherv(shared, n);
            case 9 -> new RandomDataCalls.Alltoallv(shared, n);
            case 10 -> new RandomDataCalls.Shift(shared, n, step);
            case 11 -> new RandomReductionCalls.Allreduce(shared, n);
            case 12 -> new RandomReductionCalls.Reduce(shared, n);
            case 13 -> new RandomReductionCalls.ReduceScatterBlock(shared, n);
            case 14 -> new RandomReductionCalls.ReduceScatter(shared, n);
            case 15 -> new RandomReductionCalls.Scan(shared, n, false);
            default -> new RandomReductionCalls.Scan(shared, n, true);
        };
        if (call.collective() != null && shared.nextInt(3) == 0) {
            List<Algorithm> algorithms = AlgorithmCatalog.standard().forCollective(call.collective());
            call.forced = algorithms.get(shared.nextInt(algorithms.size())).id();
            // The multicast ones (broadcast, all-gather) more often than their share: they run only on the world
            // across nodes with RAILCOLL_MCAST on or auto, and are refused alike everywhere else.
            List<Algorithm> multicast = algorithms.stream().filter(a -> a instanceof MulticastUser).toList();
            if (!multicast.isEmpty() && shared.nextBoolean()) {
                call.forced = multicast.get(shared.nextInt(multicast.size())).id();
            }
        }
        return call;
    }
}
