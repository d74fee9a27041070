package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SamplesTest {

    @Test
    void minMedianMaxOfOddCount() {
        Samples s = new Samples().addUs(5.0).addUs(1.0).addUs(3.0);
        assertEquals(3, s.count());
        assertEquals(1.0, s.minUs());
        assertEquals(3.0, s.medianUs(), 3.0 * 1e-3);
        assertEquals(5.0, s.maxUs());
    }

    @Test
    void keepsSubMicrosecondPrecision() {
        Samples s = new Samples().addUs(0.612);
        assertEquals(0.612, s.minUs());
        assertEquals(0.612, s.medianUs(), 1e-9);
        assertEquals(0.612, s.maxUs());
    }

    @Test
    void medianStaysWithinMinAndMaxDespiteBuckets() {
        // 1234567 ns falls in a bucket whose edges are not the value itself.
        Samples s = new Samples().addNs(1_234_567);
        assertEquals(1234.567, s.medianUs(), 1e-9);
    }

    @Test
    void evenCountTakesTheLowerMiddle() {
        Samples s = new Samples().addUs(1).addUs(2).addUs(3).addUs(4);
        assertEquals(2.0, s.medianUs(), 2.0 * 1e-3);
    }

    @Test
    void osuSampleIsTheSlowestRanksAverage() {
        // Rank 1 averages 3000 ns over 10 calls, the others less.
        assertEquals(3000, Samples.osuSampleNs(new long[] {20_000, 30_000, 10_000}, 10));
    }

    /**
     * Hand-checked, 3 ranks, 10 calls: pairs 12000, 9000, 15000 ns; barriers 7000, 8000, 11000 ns; differences per
     * call 500, 100, 400 ns: the sample is rank 0's 500 ns, not the difference of the largest loops (15000 - 11000).
     */
    @Test
    void addedToBarrierIsTheLargestDifferencePerCallOverRanks() {
        assertEquals(500, Samples.addedToBarrierNs(new long[] {12_000, 9_000, 15_000}, new long[] {7_000, 8_000, 11_000}, 10));
    }

    /** Where every rank's pairs took less than its barriers, the sample is negative and says so. */
    @Test
    void addedToBarrierMayBeNegative() {
        assertEquals(-30, Samples.addedToBarrierNs(new long[] {1_000, 1_200}, new long[] {1_400, 1_500}, 10));
        // Rounded toward zero per rank: -35 ns and -5 ns over 10 calls read -3 and 0 ns per call; the larger is 0.
        assertEquals(0, Samples.addedToBarrierNs(new long[] {100, 200}, new long[] {135, 205}, 10));
    }

    @Test
    void addedToBarrierRejectsMismatchedRanks() {
        assertThrows(IllegalArgumentException.class, () -> Samples.addedToBarrierNs(new long[] {1, 2}, new long[] {1}, 1));
        assertThrows(IllegalArgumentException.class, () -> Samples.addedToBarrierNs(new long[0], new long[0], 1));
        assertThrows(IllegalArgumentException.class, () -> Samples.addedToBarrierNs(new long[] {1}, new long[] {1}, 0));
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalStateException.class, () -> new Samples().medianUs());
        assertThrows(IllegalArgumentException.class, () -> new Samples().addUs(-1));
        assertThrows(IllegalArgumentException.class, () -> new Samples().addUs(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Samples.osuSampleNs(new long[0], 1));
    }

    @Test
    void resultFromSamples() {
        BenchResult r = BenchResult.of(Fixtures.RING, 64, new Samples().addUs(2).addUs(1).addUs(4));
        assertEquals(1.0, r.latencyUsMin());
        assertEquals(4.0, r.latencyUsMax());
        assertEquals(3, r.samples());
        assertEquals(7.5, r.withBandwidthMbitS(7.5).bandwidthMbitS().getAsDouble());
    }
}
