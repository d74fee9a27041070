package io.railcoll;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code RAILCOLL_MCAST} and {@code RAILCOLL_MCAST_RAIL} in {@link Config}. */
class MulticastConfigTest {

    @Test
    void offByDefaultOnRailZero() {
        Config c = Config.fromEnvironment(Map.of());
        assertEquals(MulticastMode.OFF, c.multicast());
        assertEquals(0, c.multicastRail());
        assertEquals(MulticastMode.OFF, Config.defaults().multicast());
    }

    @Test
    void readsTheModeAndTheRail() {
        assertEquals(MulticastMode.AUTO, Config.fromEnvironment(Map.of("RAILCOLL_MCAST", "auto")).multicast());
        assertEquals(MulticastMode.ON, Config.fromEnvironment(Map.of("RAILCOLL_MCAST", " ON ")).multicast());
        assertEquals(MulticastMode.OFF, Config.fromEnvironment(Map.of("RAILCOLL_MCAST", "off")).multicast());
        assertEquals(1, Config.fromEnvironment(Map.of("RAILCOLL_MCAST", "on", "RAILCOLL_MCAST_RAIL", "1")).multicastRail());
        // The other settings survive the copies.
        Config c = Config.fromEnvironment(Map.of("RAILCOLL_MCAST", "auto", "RAILCOLL_MCAST_RAIL", "1")).withTimeoutNs(5_000_000L);
        assertEquals(MulticastMode.AUTO, c.multicast());
        assertEquals(1, c.multicastRail());
        assertEquals(MulticastMode.ON, c.withMulticast(MulticastMode.ON, 0).multicast());
    }

    @Test
    void badValuesAreClearErrors() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Config.fromEnvironment(Map.of("RAILCOLL_MCAST", "sometimes")));
        assertTrue(e.getMessage().contains("RAILCOLL_MCAST=sometimes") && e.getMessage().contains("accepted: off, auto, on"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of("RAILCOLL_MCAST_RAIL", "-1")));
        assertTrue(e.getMessage().contains("RAILCOLL_MCAST_RAIL=-1 is out of range"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of("RAILCOLL_MCAST_RAIL", "one")));
        assertTrue(e.getMessage().contains("RAILCOLL_MCAST_RAIL"), e.getMessage());
    }
}
