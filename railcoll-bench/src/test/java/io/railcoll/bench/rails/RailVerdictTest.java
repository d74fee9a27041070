package io.railcoll.bench.rails;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RailVerdictTest {
    /** 12 MiB into the busiest node over 2 x 2 Gbit/s: floor 25.2 ms, 24.2 ms less the buckets. */
    static final PhysicalLimit LIMIT = new PhysicalLimit(12L << 20, 2, 2_000_000_000L, 250_000);

    static RailTraffic carried(long perCallIntoEachNode, int calls) {
        long[][] rx = new long[4][2];
        long[][] tx = new long[4][2];
        for (int n = 0; n < 4; n++) {
            rx[n][0] = rx[n][1] = perCallIntoEachNode / 2 * calls;
            tx[n][0] = tx[n][1] = perCallIntoEachNode / 2 * calls;
        }
        return new RailTraffic(List.of("rail0", "rail1"), rx, tx, calls, 1_000_000);
    }

    @Test
    void aFigureAboveTheLimitWithItsBytesOnTheRailsIsPossible() {
        RailVerdict v = RailVerdict.judge(29_400, LIMIT, Optional.of(carried((long) ((12L << 20) * 1.05), 10)));
        assertFalse(v.impossible(), v.reason());
    }

    @Test
    void theIssuesOpenMpiFigureIsFasterThanTheRailsAllow() {
        RailVerdict v = RailVerdict.judge(7_400, LIMIT, Optional.empty());
        assertTrue(v.impossible());
        assertTrue(v.reason().contains("faster than the rails allow") && v.reason().contains("7400.0 us"), v.reason());
    }

    @Test
    void withinTheBucketsAllowanceIsNotImpossible() {
        assertFalse(RailVerdict.judge(24_500, LIMIT, Optional.empty()).impossible());
        assertTrue(RailVerdict.judge(24_000, LIMIT, Optional.empty()).impossible());
    }

    @Test
    void railsThatCarriedTooLittleRefuteEvenASlowFigure() {
        RailVerdict v = RailVerdict.judge(170_000, LIMIT, Optional.of(carried(1000, 10)));
        assertTrue(v.impossible());
        assertTrue(v.reason().contains("went another way"), v.reason());
        // 90% of the bytes is the least that passes (headers only add to what the counters see).
        assertFalse(RailVerdict.judge(170_000, LIMIT, Optional.of(carried((long) ((12L << 20) * 0.91), 10))).impossible());
        assertTrue(RailVerdict.judge(170_000, LIMIT, Optional.of(carried((long) ((12L << 20) * 0.89), 10))).impossible());
    }

    @Test
    void onRailsWithoutARateOnlyTheBytesCanRefute() {
        assertTrue(RailVerdict.judgeBytes(12L << 20, Optional.of(carried(0, 10))).impossible());
        assertFalse(RailVerdict.judgeBytes(12L << 20, Optional.of(carried(12L << 20, 10))).impossible());
        assertFalse(RailVerdict.judgeBytes(12L << 20, Optional.empty()).impossible(), "nothing counted, nothing refuted");
    }
}
