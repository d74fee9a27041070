package io.railcoll.bench.report;

/**
 * What one call adds to a loop of barriers, summarised over a point's samples (decision 0232): the median, fastest and
 * slowest sample, in microseconds. Each sample is, per rank, the time of a loop of barrier + call less the time of a
 * loop of barriers alone (the same barrier the OSU figure is separated by, the same number of each), divided by the
 * calls; then the largest over ranks. Unlike the OSU figure it does not depend on which rank the barrier lets out
 * first. It can be negative: a difference of two loops on a loaded machine, where the call adds less than their noise.
 * Immutable.
 */
public record AddedToBarrier(double medianUs, double minUs, double maxUs) {
    public AddedToBarrier {
        if (!(minUs <= medianUs && medianUs <= maxUs) || Double.isInfinite(minUs) || Double.isInfinite(maxUs)) {
            throw new IllegalArgumentException("need finite min <= median <= max, got " + minUs + ", " + medianUs + ", "
                    + maxUs);
        }
    }
}
