package io.railcoll.bench;

import org.junit.jupiter.api.Test;

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
}
