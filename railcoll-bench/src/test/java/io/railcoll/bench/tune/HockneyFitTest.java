package io.railcoll.bench.tune;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HockneyFitTest {
    @Test
    void recoversAnExactLine() {
        Map<Long, long[]> samples = new TreeMap<>();
        for (long m : new long[] {1, 1024, 65536, 1 << 20}) {
            samples.put(m, new long[] {20_000 + m / 4});
        }
        HockneyFit fit = HockneyFit.of(samples);
        assertEquals(20_000, fit.alphaNs(), 1);
        assertEquals(0.25, fit.nsPerByte(), 1e-5);
    }

    @Test
    void aMinorityOfSlowSamplesDoesNotMoveTheFit() {
        Map<Long, long[]> samples = new TreeMap<>();
        for (long m : new long[] {1, 1024, 65536, 1 << 20}) {
            long t = 20_000 + m / 4;
            samples.put(m, new long[] {t, 50 * t, t, t, 9 * t});
        }
        HockneyFit fit = HockneyFit.of(samples);
        assertEquals(20_000, fit.alphaNs(), 1);
        assertEquals(0.25, fit.nsPerByte(), 1e-5);
    }

    @Test
    void neverNegative() {
        Map<Long, long[]> falling = new TreeMap<>(Map.of(1L, new long[] {50_000}, 1L << 20, new long[] {40_000}));
        HockneyFit fit = HockneyFit.of(falling);
        assertEquals(0, fit.nsPerByte());
        assertThrows(IllegalArgumentException.class, () -> HockneyFit.of(Map.of(1L, new long[] {5})));
    }
}
