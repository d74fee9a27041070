package io.railcoll.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcStatTest {
    private static final String TEXT = """
            cpu  100 5 50 800 20 3 7 15 40 0
            cpu0 50 2 25 400 10 1 3 7 20 0
            cpu1 50 3 25 400 10 2 4 8 20 0
            intr 12345 0 0
            ctxt 987654
            btime 1764150000
            """;

    @Test
    void busyIsEverythingButIdleAndIowaitAndGuestIsNotCountedTwice() {
        ProcStat s = ProcStat.parse(TEXT);
        assertEquals(100 + 5 + 50 + 3 + 7 + 15, s.busyTicks());
        assertEquals(180 + 800 + 20, s.totalTicks());
        assertEquals(987654, s.contextSwitches());
    }

    @Test
    void sinceSubtractsAndBusyShareIsBusyOverTotal() {
        ProcStat earlier = new ProcStat(100, 1000, 50);
        ProcStat later = new ProcStat(250, 1200, 80);
        ProcStat spent = later.since(earlier);
        assertEquals(new ProcStat(150, 200, 30), spent);
        assertEquals(0.75, spent.busyShare(), 1e-12);
    }

    @Test
    void textWithoutTheCountersIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("intr 1\nbtime 2\n"));
    }

    @Test
    void theLiveFileParses() {
        ProcStat s = ProcStat.read();
        assertTrue(s.totalTicks() >= s.busyTicks() && s.busyTicks() > 0, "busy " + s);
    }
}
