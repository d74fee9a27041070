package io.railcoll.bench;

import io.railcoll.Communicator;
import io.railcoll.bench.report.Samples;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One sample's figures, from every rank's times to rank 0's two numbers: the OSU figure (the slowest rank's mean time
 * of a call timed alone after a barrier) and, where measured, what one call adds to a loop of barriers (the slowest
 * rank's mean of a loop of barrier + call less a loop of barriers alone, decision 0232). Each rank records its totals,
 * {@link #gather} brings them to rank 0 in one gather, and rank 0 computes both with {@link Samples}. Made once per
 * run and reused for every sample, so a sample allocates nothing here. One rank's harness thread uses it.
 */
final class SampleFigures {
    private static final int FIELDS = 3;
    private final MemorySegment mine = MemorySegment.ofArray(new byte[FIELDS * Long.BYTES]);
    private final MemorySegment all;
    private final long[] osuTotalsNs;
    private final long[] pairsNs;
    private final long[] barriersNs;
    private long osuNs;
    private long addedNs;
    private boolean added;

    SampleFigures(int ranks) {
        all = MemorySegment.ofArray(new byte[FIELDS * Long.BYTES * ranks]);
        osuTotalsNs = new long[ranks];
        pairsNs = new long[ranks];
        barriersNs = new long[ranks];
    }

    /**
     * This rank's times of one sample: the sum of its separately timed calls, and its time for the loop of barrier +
     * call pairs and the loop of barriers alone (both 0 where the added figure is not measured).
     */
    void record(long osuTotalNs, long pairsTotalNs, long barriersTotalNs) {
        mine.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, 0, osuTotalNs);
        mine.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, 1, pairsTotalNs);
        mine.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, 2, barriersTotalNs);
    }

    /** Gathers every rank's record to rank 0, where the sample's figures are then computed; a collective call. */
    void gather(Communicator comm, int iterations, boolean measuredAdded) {
        comm.gather(mine, comm.rank() == 0 ? all : null, 0);
        added = measuredAdded;
        if (comm.rank() != 0) {
            osuNs = 0;
            addedNs = 0;
            return;
        }
        for (int r = 0; r < osuTotalsNs.length; r++) {
            osuTotalsNs[r] = all.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, (long) FIELDS * r);
            pairsNs[r] = all.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, (long) FIELDS * r + 1);
            barriersNs[r] = all.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, (long) FIELDS * r + 2);
        }
        osuNs = Samples.osuSampleNs(osuTotalsNs, iterations);
        addedNs = measuredAdded ? Samples.addedToBarrierNs(pairsNs, barriersNs, iterations) : 0;
    }

    /** On rank 0, the last sample's OSU figure in ns; 0 elsewhere. */
    long osuNs() {
        return osuNs;
    }

    /** Whether the last sample measured what a call adds to a loop of barriers. */
    boolean added() {
        return added;
    }

    /** On rank 0, the last sample's figure added to a barrier loop in ns (may be negative); 0 elsewhere. */
    long addedNs() {
        return addedNs;
    }
}
