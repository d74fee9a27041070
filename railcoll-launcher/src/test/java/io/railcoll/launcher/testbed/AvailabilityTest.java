package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Runs without root: checks what a user without privileges is told. */
class AvailabilityTest {

    @Test
    void bothNetworkAndSystemAdminAreNeeded() {
        assertTrue(NetnsTestbed.hasNetworkAdmin(0x1ff_ffff_ffffL)); // root's usual CapEff
        assertFalse(NetnsTestbed.hasNetworkAdmin(0));
        assertFalse(NetnsTestbed.hasNetworkAdmin(1L << 12)); // CAP_NET_ADMIN alone cannot mount /run/netns
        assertTrue(NetnsTestbed.hasNetworkAdmin((1L << 12) | (1L << 21)));
    }

    @Test
    void startRefusesWithTheReasonWhenUnavailable() {
        Availability availability = NetnsTestbed.available();
        if (availability.available()) {
            assertEquals("", availability.reason());
        } else {
            // Here without root (or without iproute2): start must say so before touching anything.
            TestbedException e = assertThrows(TestbedException.class, () -> NetnsTestbed.start(TestbedSpec.of(1, 1)));
            assertEquals(availability.reason(), e.getMessage());
            assertFalse(availability.reason().isEmpty());
        }
    }
}
