package io.railcoll.settings;

import io.railcoll.Config;
import io.railcoll.bootstrap.JobIdentity;
import io.railcoll.transport.mcast.MulticastSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 26 item 1: every setting read through one parser, range-checked in the type it is used as, never
 * truncated or wrapped, each refusal naming the setting, the value and the accepted range. Each case below was
 * accepted (or wrongly reported) before the settings had one parser.
 */
class SettingsParserTest {

    private static SettingException refused(Map<String, String> env) {
        return assertThrows(SettingException.class, () -> Config.fromEnvironment(env));
    }

    private static void assertNames(SettingException e, String setting, String value, String accepted) {
        String m = e.getMessage();
        assertEquals(setting, e.setting());
        assertTrue(m.startsWith(setting + "=" + value + " "), m);
        assertTrue(m.contains("accepted: " + accepted), m);
        assertTrue(!m.contains("\n"), "one line: " + m);
    }

    @Test
    void aTimeoutWhoseNanosecondsOverflowIsOutOfRangeNotASubMillisecondDeadline() {
        // 18446744073710 ms * 10^6 wrapped to about 0.45 ms before.
        SettingException e = refused(Map.of("RAILCOLL_TIMEOUT_MS", "18446744073710"));
        assertNames(e, "RAILCOLL_TIMEOUT_MS", "18446744073710", "1.." + RailcollSettings.MAX_TIMEOUT_MS + " (milliseconds)");
        assertTrue(e.getMessage().contains("out of range"), e.getMessage());
    }

    @Test
    void aTimeoutJustPastTheLongRangeIsOutOfRangeNotNegative() {
        // 9223372036855 ms * 10^6 wrapped negative and was reported as "timeout must be > 0".
        SettingException e = refused(Map.of("RAILCOLL_TIMEOUT_MS", "9223372036855"));
        assertNames(e, "RAILCOLL_TIMEOUT_MS", "9223372036855", "1.." + RailcollSettings.MAX_TIMEOUT_MS);
    }

    @Test
    void theLongestAcceptedTimeoutLeavesRoomForADeadline() {
        Config c = Config.fromEnvironment(Map.of("RAILCOLL_TIMEOUT_MS", Long.toString(RailcollSettings.MAX_TIMEOUT_MS)));
        assertEquals(RailcollSettings.MAX_TIMEOUT_MS * 1_000_000L, c.timeoutNs());
        assertTrue(System.nanoTime() + c.timeoutNs() > System.nanoTime(), "deadline overflowed");
    }

    @ParameterizedTest
    @CsvSource({
            "RAILCOLL_PORTS, 4294967297, 0..1024",
            "RAILCOLL_PORTS, 4294967296, 0..1024",
            "RAILCOLL_EAGER_BYTES, 4294967297, 0..1048576",
            "RAILCOLL_EAGER_BYTES, 4294971392, 0..1048576",
            "RAILCOLL_SHM_RING_BYTES, 4294971392, a power of two in 4096..1073741824",
            "RAILCOLL_GROUPS, 4294967298, 1..1024",
            "RAILCOLL_CONNECTIONS_PER_RAIL, 4294967297, 1..16",
            "RAILCOLL_MCAST_RAIL, 4294967296, 0..63",
            "RAILCOLL_PORTS, 99999999999999999999999, 0..1024",
            "RAILCOLL_STRIPE_THRESHOLD, 99999999999999999999, 0..9223372036854775807",
            "RAILCOLL_RAIL_TIMEOUT_MS, 9, 10.." + RailcollSettings.MAX_TIMEOUT_MS,
    })
    void numbersBeyondTheirTypeAreRefusedNotTruncated(String name, String value, String accepted) {
        // PORTS=4294967297 ran with k=1 before: (int) 4294967297L == 1.
        assertNames(refused(Map.of(name, value)), name, value, accepted);
    }

    @ParameterizedTest
    @CsvSource({
            "RAILCOLL_ENGINE, turbo, 'single, threaded'",
            "RAILCOLL_SHM, maybe, 'on, off'",
            "RAILCOLL_MCAST, sometimes, 'off, auto, on'",
            "RAILCOLL_TIMEOUT_MS, 30s, 1..",
            "RAILCOLL_PORTS, -1, 0..1024",
            "RAILCOLL_SHM_RING_BYTES, 5000, a power of two",
    })
    void wordsAndNegativesNameTheAcceptedValues(String name, String value, String accepted) {
        assertNames(refused(Map.of(name, value)), name, value, accepted);
    }

    @Test
    void aRendezvousServerThatIsNeitherRank0NorTheLauncherIsRefusedAtOnce() {
        // "maybe" was accepted and the rank failed 20 s later as "could not reach the rendezvous".
        Map<String, String> env = Map.of("RAILCOLL_RANK", "0", "RAILCOLL_SIZE", "2", "RAILCOLL_SECRET", "s",
                "RAILCOLL_RENDEZVOUS", "127.0.0.1:29500", "RAILCOLL_RENDEZVOUS_SERVER", "maybe");
        SettingException e = assertThrows(SettingException.class, () -> JobIdentity.fromEnvironment(env));
        assertNames(e, "RAILCOLL_RENDEZVOUS_SERVER", "maybe", "launcher, rank0");
        Map<String, String> rank0 = new java.util.HashMap<>(env);
        rank0.put("RAILCOLL_RENDEZVOUS_SERVER", "rank0");
        assertTrue(JobIdentity.fromEnvironment(rank0).servesRendezvous());
    }

    @Test
    void launcherRankVariablesAreRangeCheckedToo() {
        Map<String, String> env = Map.of("OMPI_COMM_WORLD_RANK", "4294967296", "OMPI_COMM_WORLD_SIZE", "2",
                "RAILCOLL_SECRET", "s", "RAILCOLL_RENDEZVOUS", "127.0.0.1:29500");
        assertNames(assertThrows(SettingException.class, () -> JobIdentity.fromEnvironment(env)),
                "OMPI_COMM_WORLD_RANK", "4294967296", "0..2147483646");
        Map<String, String> port = Map.of("RAILCOLL_RANK", "0", "RAILCOLL_SIZE", "1", "RAILCOLL_SECRET", "s",
                "RAILCOLL_RENDEZVOUS", "127.0.0.1:4294997796");
        assertTrue(assertThrows(SettingException.class, () -> JobIdentity.fromEnvironment(port)).getMessage()
                .contains("0..65535"));
    }

    @Test
    void multicastSettingsGoThroughTheSameParser() {
        SettingException e = assertThrows(SettingException.class,
                () -> MulticastSettings.fromEnvironment(Map.of("RAILCOLL_MCAST_CHANNELS", "4294967297")));
        assertNames(e, "RAILCOLL_MCAST_CHANNELS", "4294967297", "1..64");
        e = assertThrows(SettingException.class,
                () -> MulticastSettings.fromEnvironment(Map.of("RAILCOLL_MCAST_NACK_DELAY_US", "9223372036854775")));
        assertNames(e, "RAILCOLL_MCAST_NACK_DELAY_US", "9223372036854775", "1..60000000 (microseconds)");
        e = assertThrows(SettingException.class,
                () -> MulticastSettings.fromEnvironment(Map.of("RAILCOLL_TIMEOUT_MS", "18446744073710")));
        assertEquals("RAILCOLL_TIMEOUT_MS", e.setting());
    }

    @Test
    void aConfigBuiltInCodeIsHeldToTheSameRanges() {
        SettingException e = assertThrows(SettingException.class, () -> Config.defaults().withTimeoutNs(-1));
        assertEquals("RAILCOLL_TIMEOUT_MS", e.setting());
    }

    @Test
    void sizesTakeBinaryUnitsAndValidValuesReadBack() {
        Config c = Config.fromEnvironment(Map.of("RAILCOLL_SHM_RING_BYTES", "1m", "RAILCOLL_EAGER_BYTES", "0",
                "RAILCOLL_PORTS", " 3 ", "RAILCOLL_ENGINE", "Threaded", "RAILCOLL_TIMEOUT_MS", "1"));
        assertEquals(1 << 20, c.shmRingBytes());
        assertEquals(0, c.eagerBytes());
        assertEquals(3, c.ports());
        assertEquals(io.railcoll.EngineMode.THREADED, c.engine());
        assertEquals(1_000_000L, c.timeoutNs());
    }

    @Test
    void everyDefinitionAcceptsItsOwnDefault() {
        for (Setting<?> s : RailcollSettings.ALL) {
            Object d = s.defaultValue();
            String shown = showUnchecked(s, d);
            if (!shown.isEmpty()) {
                assertEquals(d, s.parse(shown), s.name());
            }
        }
        RailcollSettings.checkAll(Map.of());
    }

    @SuppressWarnings("unchecked")
    private static <T> String showUnchecked(Setting<T> s, Object v) {
        return s.show((T) v);
    }
}
