package io.railcoll.bench.rails;

import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;

/**
 * The fastest any program can run one call of a collective over rate-limited rails: the bytes the collective must
 * bring into its busiest node, over that node's rails, each at the rail rate in each direction. Payload only (the
 * frames' headers would only raise it), and nothing about latency or processors: a floor, not an estimate.
 *
 * <p>Bytes into the busiest node, for block size b, N ranks and n_k ranks on node k:
 * all-gather max_k (N - n_k) b; gather (N - n_root) b into the root's node; broadcast b (into any other node);
 * all-to-all max_k n_k (N - n_k) b; barrier 0; all-reduce 2 (M-1)/M b for M nodes. With one node nothing crosses a
 * rail and the floor is 0.
 *
 * <p>The testbed's token buckets let {@code burstBytes} per link pass at once after a quiet spell (the barrier
 * between calls is one), so a call can legitimately beat {@link #floorUs()} by up to {@code rails x burst} bytes'
 * time: {@link #impossibleBelowUs()} is the floor with that taken off, the line below which a figure is impossible.
 *
 * @param intoBusiestNodeBytes payload per call into the busiest node
 * @param rails                rails per node
 * @param rateBitsPerSecond    each rail's rate, per direction
 * @param burstBytes           each link's token bucket (0 where unknown)
 */
public record PhysicalLimit(long intoBusiestNodeBytes, int rails, long rateBitsPerSecond, long burstBytes) {

    public PhysicalLimit {
        if (intoBusiestNodeBytes < 0 || rails < 1 || rateBitsPerSecond < 1 || burstBytes < 0) {
            throw new IllegalArgumentException("need bytes >= 0, rails >= 1, rate >= 1 bit/s, burst >= 0: " + intoBusiestNodeBytes
                    + ", " + rails + ", " + rateBitsPerSecond + ", " + burstBytes);
        }
    }

    /** The limit of {@code collective} with block size {@code sizeBytes} on {@code placement}. */
    public static PhysicalLimit of(Collective collective, Placement placement, long sizeBytes, int root, int rails,
                                   long rateBitsPerSecond, long burstBytes) {
        return new PhysicalLimit(intoBusiestNode(collective, placement, sizeBytes, root), rails, rateBitsPerSecond,
                burstBytes);
    }

    /** Payload bytes one call must bring into its busiest node over the rails. */
    public static long intoBusiestNode(Collective collective, Placement placement, long b, int root) {
        int n = placement.size();
        if (collective.variable()) {
            return intoBusiestNode(collective.uniform(), placement, b, root); // every count b
        }
        if (placement.nodeCount() < 2) {
            return 0;
        }
        long most = 0;
        for (int k = 0; k < placement.nodeCount(); k++) {
            long local = placement.ranksOnNode(k);
            long into = switch (collective) {
                case ALLGATHER -> (n - local) * b;
                case GATHER -> k == placement.nodeOf(root) ? (n - local) * b : 0;
                case BROADCAST -> k == placement.nodeOf(root) ? 0 : b;
                case ALLTOALL -> local * (n - local) * b;
                case BARRIER -> 0;
                // The bandwidth bound of all-reduce among M nodes (Patarasuk and Yuan 2009; Chan et al. 2007): the
                // reduce-scatter and the all-gather halves each move (M-1)/M b into a node, 2 (M-1)/M b in all (issue
                // 22's "what the rails allow"). For M = 2 that is b, the other node's whole vector (or its sum), which
                // no scheme avoids. (M-1)/M b, the all-gather half alone, had put the floor at half of it (decision
                // 0177).
                case ALLREDUCE -> 2 * (placement.nodeCount() - 1) * b / placement.nodeCount();
                case SCATTER -> k == placement.nodeOf(root) ? 0 : local * b;
                // Whatever is combined where, a node must take in at least one partial vector (reduce: the
                // root's; a scan: every node but rank 0's) or one per block its ranks get (reduce-scatter).
                case REDUCE -> k == placement.nodeOf(root) ? b : 0;
                case REDUCE_SCATTER -> local * b;
                case SCAN, EXSCAN -> k == placement.nodeOf(0) ? 0 : b;
                case GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, REDUCE_SCATTERV -> throw new AssertionError(collective);
            };
            most = Math.max(most, into);
        }
        return most;
    }

    /** The rails' combined rate into one node, in bit/s. */
    public long nodeRateBitsPerSecond() {
        return rateBitsPerSecond * rails;
    }

    /** Microseconds the busiest node's bytes take at the rails' combined rate. */
    public double floorUs() {
        return intoBusiestNodeBytes * 8.0 / nodeRateBitsPerSecond() * 1e6;
    }

    /** The floor less what the token buckets let through at once: a figure below this is impossible. */
    public double impossibleBelowUs() {
        long paced = Math.max(0, intoBusiestNodeBytes - (long) rails * burstBytes);
        return paced * 8.0 / nodeRateBitsPerSecond() * 1e6;
    }

    /** The floor as a share of a measured time: 1.0 means the rails were full the whole call. */
    public double shareOf(double measuredUs) {
        return measuredUs > 0 ? floorUs() / measuredUs : Double.POSITIVE_INFINITY;
    }
}
