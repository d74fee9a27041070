package io.railcoll.schedule;

import io.railcoll.topology.Placement;

/**
 * Adds up the bytes each rank sends and receives per link class (intra-node or inter-node), so an algorithm can
 * state the byte terms of its {@link CostTerms} from its message pattern, and the checker can measure them from
 * the programs. Not thread-safe; one tally per cost computation.
 */
public final class LinkTally {
    private final Placement placement;
    private final long[] intraSent;
    private final long[] intraReceived;
    private final long[] interSent;
    private final long[] interReceived;

    public LinkTally(Placement placement) {
        this.placement = placement;
        int n = placement.size();
        intraSent = new long[n];
        intraReceived = new long[n];
        interSent = new long[n];
        interReceived = new long[n];
    }

    /** Records one message of {@code bytes} from {@code from} to {@code to}. */
    public LinkTally message(int from, int to, long bytes) {
        if (placement.sameNode(from, to)) {
            intraSent[from] += bytes;
            intraReceived[to] += bytes;
        } else {
            interSent[from] += bytes;
            interReceived[to] += bytes;
        }
        return this;
    }

    /** Cost terms with the given critical-path numbers and this tally's per-class maxima over ranks. */
    public CostTerms toCost(int steps, long betaBytes, String formula) {
        return new CostTerms(steps, betaBytes, max(intraSent), max(intraReceived), max(interSent), max(interReceived),
                formula);
    }

    private static long max(long[] values) {
        long max = 0;
        for (long v : values) {
            max = Math.max(max, v);
        }
        return max;
    }
}
