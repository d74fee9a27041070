package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TestbedSpecTest {

    @ParameterizedTest
    @CsvSource({"2gbit,2000000000", "200mbit,200000000", "1.5gbit,1500000000", "2Gbit,2000000000",
            "125mbps,1000000000", "64kbit,64000", "10000bit,10000", "1tbit,1000000000000"})
    void parsesTcRates(String rate, long bitsPerSecond) {
        assertEquals(bitsPerSecond, TestbedSpec.parseRateBitsPerSecond(rate));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "fast", "2 gbit", "gbit", "-1gbit", "2gib", "1kbit", "0mbit", ""})
    void refusesRatesTcWouldMisreadOrCannotShape(String rate) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(2, 2).withRate(rate));
        assertTrue(e.getMessage().contains("rate"), e.getMessage());
    }

    @Test
    void defaultsAreUnlimitedMulticastOnRailZeroAndEthernetMtu() {
        TestbedSpec spec = TestbedSpec.of(4, 2);
        assertNull(spec.rate());
        assertNull(spec.netem());
        assertEquals(0, spec.multicastRail());
        assertEquals(1500, spec.mtu());
        assertEquals(OptionalLong.empty(), spec.rateBitsPerSecond());
    }

    @Test
    void withersChangeOneThing() {
        TestbedSpec spec = TestbedSpec.of(4, 2).withRate(" 2GBIT ").withNetem("loss 5%").withMulticastRail(1).withMtu(9000);
        assertEquals(new TestbedSpec(4, 2, "2gbit", "loss 5%", 1, 9000), spec);
        assertNull(spec.withMulticastRail(null).multicastRail());
        assertEquals(OptionalLong.of(2_000_000_000L), spec.rateBitsPerSecond());
    }

    @Test
    void acceptsTheIssuesNetemExample() {
        String netem = "loss 5% corrupt 1% duplicate 1% reorder 5%";
        assertEquals(netem, TestbedSpec.of(2, 1).withNetem(netem).netem());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "loss 5%; reboot", "loss 5%\nroot", "delay `id`", "delay 1ms", "loss 5% 25%"})
    void refusesNetemThatIsNotOptions(String netem) {
        assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(2, 1).withNetem(netem));
    }

    @Test
    void boundsAreCheckedWithTheRangeInTheMessage() {
        assertEquals("nodes must be 1..254, got 0",
                assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(0, 1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(255, 1));
        assertEquals("rails must be 1..256, got 257",
                assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(1, 257)).getMessage());
        assertEquals("multicast rail must be 0..1 or none, got 2",
                assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(2, 2).withMulticastRail(2)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(2, 2).withMulticastRail(-1));
        assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(2, 2).withMtu(67));
        assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of(2, 2).withMtu(65536));
        TestbedSpec largest = TestbedSpec.of(254, 256);
        assertEquals(254, largest.nodes());
    }
}
