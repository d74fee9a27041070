package io.railcoll;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigSingleCopyTest {
    @Test
    void singleCopyIsOnFrom64KiBByDefaultAndSetFromTheEnvironment() {
        Config d = Config.fromEnvironment(Map.of());
        assertTrue(d.cma());
        assertEquals(64 * 1024, d.cmaThresholdBytes());
        Config c = Config.fromEnvironment(Map.of("RAILCOLL_CMA", "off", "RAILCOLL_CMA_THRESHOLD", "40000"));
        assertFalse(c.cma());
        assertEquals(40000, c.cmaThresholdBytes());
        // The with-ers keep the setting.
        assertFalse(c.withTimeoutNs(1_000_000).cma());
        assertEquals(40000, c.withTimeoutNs(1_000_000).cmaThresholdBytes());
    }

    @Test
    void badValuesAreRefusedNamingTheVariable() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Config.fromEnvironment(Map.of("RAILCOLL_CMA", "maybe")));
        assertTrue(e.getMessage().contains("RAILCOLL_CMA"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of("RAILCOLL_CMA_THRESHOLD", "0")));
        assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of("RAILCOLL_CMA_THRESHOLD", "x")));
    }
}
