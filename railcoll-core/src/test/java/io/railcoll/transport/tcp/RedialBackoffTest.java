package io.railcoll.transport.tcp;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RedialBackoffTest {
    private static long ms(long v) {
        return TimeUnit.MILLISECONDS.toNanos(v);
    }

    @Test
    void doublesFromAQuarterSecondUpToTheRailTimeout() {
        RedialBackoff b = RedialBackoff.forRailTimeout(ms(4000));
        assertEquals(ms(250), b.delayNs(0));
        assertEquals(ms(500), b.delayNs(1));
        assertEquals(ms(1000), b.delayNs(2));
        assertEquals(ms(2000), b.delayNs(3));
        assertEquals(ms(4000), b.delayNs(4));
        assertEquals(ms(4000), b.delayNs(5));
        assertEquals(ms(4000), b.delayNs(Integer.MAX_VALUE), "no overflow however many attempts failed");
        assertEquals(ms(4000), b.connectTimeoutNs());
    }

    @Test
    void theCapStaysBetweenOneAndThirtySecondsAndAnAttemptWaitsAtMostTen() {
        assertEquals(ms(1000), RedialBackoff.forRailTimeout(ms(10)).capNs());
        assertEquals(ms(1000), RedialBackoff.forRailTimeout(ms(10)).delayNs(3));
        RedialBackoff slow = RedialBackoff.forRailTimeout(TimeUnit.DAYS.toNanos(365));
        assertEquals(ms(30_000), slow.capNs());
        assertEquals(ms(10_000), slow.connectTimeoutNs());
        assertThrows(IllegalArgumentException.class, () -> new RedialBackoff(ms(100)));
    }
}
