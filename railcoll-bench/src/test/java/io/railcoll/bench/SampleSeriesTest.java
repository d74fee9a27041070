package io.railcoll.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleSeriesTest {
    static SampleSeries of(long... ns) {
        SampleSeries s = new SampleSeries();
        for (long v : ns) {
            s.add(v);
        }
        return s;
    }

    @Test
    void aTightPointNeedsNoMore() {
        assertFalse(of(100, 110, 120, 105, 190).needsMore());
    }

    @Test
    void aSpreadPointNeedsMoreUntilItsMedianHoldsStill() {
        assertTrue(of(100, 110, 300, 105, 250).needsMore(), "spread 3x, fewer than 6 samples");
        // Median 120 before the last three and after: steady although spread.
        assertFalse(of(100, 300, 120, 110, 250, 130, 115, 125, 300).needsMore());
        // The last three moved the median from 120 to 250.
        assertTrue(of(100, 300, 120, 110, 250, 280, 290, 300, 260).needsMore());
    }

    @Test
    void stopsAtTheCap() {
        SampleSeries s = new SampleSeries();
        for (int i = 0; i < SampleSeries.MAX_SAMPLES; i++) {
            s.add(i % 2 == 0 ? 100 : 100 + 50L * i);
        }
        assertFalse(s.needsMore());
    }
}
