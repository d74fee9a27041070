package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;

import java.util.OptionalDouble;

/** Hand-made results for the writer tests. */
final class Fixtures {
    static final Series RING = new Series(Collective.ALLGATHER, "allgather.ring", 4, "4", 2, "tcp");
    static final Series BRUCK = new Series(Collective.ALLGATHER, "allgather.bruck", 4, "4", 2, "tcp");
    static final Series SMP = new Series(Collective.ALLGATHER, "allgather.smp.bruck", 4, "4", 2, "tcp");
    static final Series PEER = new Series(Collective.ALLGATHER, "openmpi", 4, "4", 2, "one-host shm");

    private Fixtures() {
    }

    /** A point whose min and max are 10% around the median. */
    static BenchResult point(Series series, long size, double medianUs) {
        return new BenchResult(series, size, medianUs, medianUs * 0.9, medianUs * 1.1, 5, OptionalDouble.empty());
    }
}
