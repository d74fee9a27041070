package io.railcoll;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigEagerTest {
    @Test
    void smallRailPutsAreEagerUpTo16KiBByDefaultAndSetFromTheEnvironment() {
        assertEquals(16 * 1024, Config.fromEnvironment(Map.of()).eagerBytes());
        Config off = Config.fromEnvironment(Map.of("RAILCOLL_EAGER_BYTES", "0"));
        assertEquals(0, off.eagerBytes());
        // The with-ers keep the setting.
        assertEquals(0, off.withTimeoutNs(1_000_000).eagerBytes());
    }

    @Test
    void badValuesAreRefusedNamingTheVariableOrTheBound() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Config.fromEnvironment(Map.of("RAILCOLL_EAGER_BYTES", "lots")));
        assertTrue(e.getMessage().contains("RAILCOLL_EAGER_BYTES"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Config.fromEnvironment(Map.of("RAILCOLL_EAGER_BYTES", "-1")));
        assertTrue(e.getMessage().contains("RAILCOLL_EAGER_BYTES=-1 is out of range; accepted: 0..1048576"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Config.fromEnvironment(Map.of("RAILCOLL_EAGER_BYTES", Long.toString(Config.MAX_EAGER_BYTES + 1L))));
    }
}
