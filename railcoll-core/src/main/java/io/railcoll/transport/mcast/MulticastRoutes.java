package io.railcoll.transport.mcast;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Which interface the kernel's main IPv4 table routes a multicast group to, read from {@code /proc/net/route} of
 * the calling process's network namespace. railcoll treats a route for the group through the rail's interface
 * as the operator's statement that multicast may be used there (the testbed adds {@code 224.0.0.0/4 dev rail<m>}
 * on its multicast rail, or nothing to test fail-over; plain loopback needs {@code ip route add 224.0.0.0/4 dev lo}).
 * Without such a route multicast counts as unavailable, even though Linux would send through an explicitly chosen
 * interface anyway. Stateless; any thread.
 */
public final class MulticastRoutes {
    private static final Path TABLE = Path.of("/proc/net/route");

    private MulticastRoutes() {
    }

    /**
     * The interface of the longest-prefix route covering {@code group}, empty if none; null if the table cannot be
     * read (not Linux), in which case the caller should not second-guess the kernel.
     */
    public static Optional<String> deviceFor(InetAddress group) {
        if (!(group instanceof Inet4Address) || !Files.isReadable(TABLE)) {
            return null;
        }
        try {
            return deviceFor(group, Files.readAllLines(TABLE));
        } catch (IOException e) {
            return null;
        }
    }

    static Optional<String> deviceFor(InetAddress group, List<String> table) {
        byte[] a = group.getAddress();
        // /proc/net/route prints addresses as the host-order (little-endian) hex of the network-order int.
        long addr = (a[0] & 0xff) | (a[1] & 0xff) << 8 | (a[2] & 0xff) << 16 | (long) (a[3] & 0xff) << 24;
        String best = null;
        int bestBits = -1;
        for (String line : table.subList(Math.min(1, table.size()), table.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 8) {
                continue;
            }
            long dest = Long.parseLong(f[1], 16);
            long mask = Long.parseLong(f[7], 16);
            int flags = Integer.parseInt(f[3], 16);
            if ((flags & 1) == 0 || (addr & mask) != dest) {
                continue; // not up, or does not cover the group
            }
            int bits = Long.bitCount(mask);
            if (bits > bestBits) {
                bestBits = bits;
                best = f[0];
            }
        }
        return Optional.ofNullable(best);
    }
}
