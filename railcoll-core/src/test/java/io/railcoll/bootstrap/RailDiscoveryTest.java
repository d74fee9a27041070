package io.railcoll.bootstrap;

import io.railcoll.bootstrap.RailDiscovery.Address;
import io.railcoll.bootstrap.RailDiscovery.Interface;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RAILCOLL_RAILS over a described host: names, globs, CIDR blocks, auto, exclusions, and the errors. */
class RailDiscoveryTest {
    /** A cluster node: two real NICs (eth1 with two addresses), Docker's and libvirt's bridges, a veth, loopback. */
    private static final List<Interface> NODE = List.of(
            iface("lo", true, true, "127.0.0.1/8", "::1/128"),
            iface("eth0", true, false, "192.168.1.10/24", "fe80::1/64"),
            iface("eth1", true, false, "10.1.0.5/16", "10.1.7.5/16"),
            iface("ib0", false, false, "10.3.0.5/16"),
            iface("docker0", true, false, "172.17.0.1/16"),
            iface("virbr0", true, false, "192.168.122.1/24"),
            iface("veth12ab", true, false, "fd00::12/64"),
            iface("br-5f3e", true, false, "172.18.0.1/16"));

    @Test
    void autoTakesTheRealInterfacesOnlyOneAddressEach() {
        assertEquals(addrs("192.168.1.10", "10.1.0.5"), RailDiscovery.select("auto", NODE));
    }

    @Test
    void exclusionsAloneMeanAutoMinusThem() {
        assertEquals(addrs("10.1.0.5"), RailDiscovery.select("^eth0", NODE));
        assertEquals(addrs("192.168.1.10"), RailDiscovery.select("^10.1.0.0/16", NODE));
    }

    @Test
    void namesGlobsBlocksAndAddressesInTheirOrder() {
        assertEquals(addrs("10.1.0.5", "192.168.1.10"), RailDiscovery.select("eth1,eth0", NODE));
        assertEquals(addrs("192.168.1.10", "10.1.0.5"), RailDiscovery.select("eth*", NODE));
        assertEquals(addrs("10.1.0.5", "10.1.7.5"), RailDiscovery.select("10.1.0.0/16", NODE));
        assertEquals(addrs("10.1.7.5"), RailDiscovery.select("10.1.7.0/24", NODE));
        assertEquals(addrs("127.0.1.1", "127.0.2.1"), RailDiscovery.select("127.0.1.1, 127.0.2.1", List.of()));
        // Named explicitly, a virtual interface is the user's choice.
        assertEquals(addrs("172.17.0.1"), RailDiscovery.select("docker0", NODE));
        assertEquals(addrs("10.1.0.5"), RailDiscovery.select("eth*,^eth0", NODE));
    }

    @Test
    void loopbackOnlyWhenThereIsNothingElse() {
        List<Interface> laptop = List.of(iface("lo", true, true, "127.0.0.1/8"), iface("docker0", true, false, "172.17.0.1/16"));
        assertEquals(addrs("127.0.0.1"), RailDiscovery.select("auto", laptop));
    }

    @Test
    void virtualInterfacesByName() {
        for (String v : List.of("docker0", "virbr0", "veth1234", "br-abc", "cni0", "flannel.1", "cali123", "vxlan.calico",
                "tun0", "wg0", "dummy0")) {
            assertTrue(RailDiscovery.isVirtual(v), v);
        }
        for (String real : List.of("eth0", "ens3", "enp1s0f0", "ib0", "bond0", "rail0", "eno1")) {
            assertFalse(RailDiscovery.isVirtual(real), real);
        }
    }

    @Test
    void aTermThatSelectsNothingIsNamedWithWhatTheHostHas() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RailDiscovery.select("eth7", NODE));
        assertTrue(e.getMessage().startsWith("RAILCOLL_RAILS: 'eth7' selects no address; this host has "), e.getMessage());
        assertTrue(e.getMessage().contains("docker0 (virtual) 172.17.0.1/16"), e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RailDiscovery.select("ib0", NODE)).getMessage()
                .contains("interface ib0 is down"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RailDiscovery.select("10.9.0.0/16", NODE)).getMessage()
                .contains("'10.9.0.0/16' selects no address"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RailDiscovery.select("10.1.0.0/40", NODE)).getMessage()
                .contains("prefix length must be 0..32"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RailDiscovery.select("eth1,^eth1", NODE)).getMessage()
                .contains("(after excluding eth1)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RailDiscovery.select("a b", NODE)).getMessage()
                .contains("is neither an address, a CIDR block nor an interface name"));
    }

    @Test
    void thisHostsInterfacesCanBeListedAndAutoSelectsSomething() {
        List<InetAddress> rails = RailDiscovery.select("auto", RailDiscovery.localInterfaces());
        assertFalse(rails.isEmpty());
    }

    private static Interface iface(String name, boolean up, boolean loopback, String... cidrs) {
        List<Address> list = new java.util.ArrayList<>();
        for (String c : cidrs) {
            String[] parts = c.split("/");
            list.add(new Address(addr(parts[0]), Integer.parseInt(parts[1])));
        }
        return new Interface(name, up, loopback, list);
    }

    private static List<InetAddress> addrs(String... literals) {
        return java.util.Arrays.stream(literals).map(RailDiscoveryTest::addr).toList();
    }

    private static InetAddress addr(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
