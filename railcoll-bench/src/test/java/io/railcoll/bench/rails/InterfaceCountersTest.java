package io.railcoll.bench.rails;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InterfaceCountersTest {
    /** The kernel's format (Linux 6.x), with the two header lines. */
    static final String NET_DEV = """
            Inter-|   Receive                                                |  Transmit
             face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                lo:    9306      99    0    0    0     0          0         0     9306      99    0    0    0     0       0          0
             rail0: 2608526    1801    0    0    0     0          0         0  2610269    1790    0    0    0     0       0          0
             rail1:12345678901 1    0    0    0     0          0         0 42    1    0    0    0     0       0          0
            """;

    @Test
    void readsReceivedAndSentBytesPerInterface() {
        Map<String, InterfaceCounters.Reading> all = InterfaceCounters.parse(NET_DEV);
        assertEquals(new InterfaceCounters.Reading("rail0", 2608526, 2610269), all.get("rail0"));
        // A counter wider than its column runs into the colon: still read.
        assertEquals(new InterfaceCounters.Reading("rail1", 12345678901L, 42), all.get("rail1"));
        assertEquals(3, all.size());
    }

    @Test
    void readsThisNamespacesLoopbackAndNamesAMissingInterface() {
        List<InterfaceCounters.Reading> lo = InterfaceCounters.read(List.of("lo"));
        assertTrue(lo.getFirst().rxBytes() >= 0 && lo.getFirst().txBytes() >= 0);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> InterfaceCounters.read(List.of("no-such-rail9")));
        assertTrue(e.getMessage().contains("no-such-rail9"), e.getMessage());
    }
}
