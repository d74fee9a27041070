package io.railcoll.transport.tcp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LanePolicyTest {

    @Test
    void heartbeatsComeEveryEighthOfTheTimeout() {
        LanePolicy p = LanePolicy.forTimeout(8_000_000_000L);
        assertEquals(1_000_000_000L, p.heartbeatNs());
        assertFalse(p.heartbeatDue(5_000_000_000L, 5_999_999_999L));
        assertTrue(p.heartbeatDue(5_000_000_000L, 6_000_000_000L));
    }

    @Test
    void aLaneIsSilentOnlyPastTheTimeout() {
        LanePolicy p = LanePolicy.forTimeout(1_000_000_000L);
        assertFalse(p.silent(0, 1_000_000_000L));
        assertTrue(p.silent(0, 1_000_000_001L));
        // nanoTime may be negative: only differences count
        assertFalse(p.silent(Long.MIN_VALUE + 10, Long.MIN_VALUE + 20));
    }

    @Test
    void veryShortTimeoutsStillGetAOneMillisecondHeartbeat() {
        assertEquals(1_000_000L, LanePolicy.forTimeout(5_000_000L).heartbeatNs());
        assertThrows(IllegalArgumentException.class, () -> new LanePolicy(1_000_000L, 1_000_000L));
    }
}
