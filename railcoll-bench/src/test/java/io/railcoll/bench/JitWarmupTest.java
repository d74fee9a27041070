package io.railcoll.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitWarmupTest {
    private static final long BUDGET = 3_000_000_000L;
    private static final long QUIET = 50;

    @Test
    void runsForItsBudgetWhateverElse() {
        assertTrue(JitWarmup.goOn(BUDGET - 1, BUDGET, JitWarmup.CALLS, 0));
    }

    @Test
    void afterTheBudgetGoesOnForTheCallsUpToFiveTimesIt() {
        assertTrue(JitWarmup.goOn(BUDGET, BUDGET, JitWarmup.CALLS - 1, 0));
        assertTrue(JitWarmup.goOn(5 * BUDGET - 1, BUDGET, JitWarmup.CALLS - 1, 0));
        assertFalse(JitWarmup.goOn(5 * BUDGET, BUDGET, JitWarmup.CALLS - 1, 0));
    }

    @Test
    void thenGoesOnWhileARanksCompilersAreBusyUpToFortyTimesTheBudget() {
        assertTrue(JitWarmup.goOn(BUDGET, BUDGET, JitWarmup.CALLS, QUIET + 1));
        assertTrue(JitWarmup.goOn(40 * BUDGET - 1, BUDGET, JitWarmup.CALLS, 900));
        assertFalse(JitWarmup.goOn(40 * BUDGET, BUDGET, JitWarmup.CALLS, 900));
    }

    @Test
    void stopsOnceTheBudgetAndCallsAreDoneAndTheCompilersAreQuiet() {
        assertFalse(JitWarmup.goOn(BUDGET, BUDGET, JitWarmup.CALLS, QUIET));
        assertFalse(JitWarmup.goOn(BUDGET, BUDGET, JitWarmup.CALLS, 0));
    }

    @Test
    void judgesTheCompilersOnlyOverWholeWindows() {
        JitWarmup.CompilerWindow w = new JitWarmup.CompilerWindow(0, 1000);
        assertEquals(Long.MAX_VALUE, w.perMille(JitWarmup.WINDOW_NS - 1, 1000), "busy until a window has passed");
        // 25 ms of compiling over a 250 ms window: 100 per mille, kept until the next window closes.
        assertEquals(100, w.perMille(JitWarmup.WINDOW_NS, 1025));
        assertEquals(100, w.perMille(JitWarmup.WINDOW_NS + 5_000_000L, 1025));
        assertEquals(0, w.perMille(2 * JitWarmup.WINDOW_NS, 1025));
    }

    @Test
    void warmsTheSweepsOwnSmallestSize() {
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {8, 4096, 65536}, JitWarmup.sizes(8, 16 << 20));
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {0, 1024}, JitWarmup.sizes(0, 1024));
    }
}
