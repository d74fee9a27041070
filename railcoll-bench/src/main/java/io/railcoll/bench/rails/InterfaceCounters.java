package io.railcoll.bench.rails;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel's byte counters of named interfaces in the calling process's network namespace, from
 * {@code /proc/self/net/dev} (per namespace, unlike {@code /sys}, which shows the namespace that mounted it). A
 * rank started with {@code ip netns exec} reads its node's rails this way. Stateless; any thread.
 */
public final class InterfaceCounters {
    static final Path NET_DEV = Path.of("/proc/self/net/dev");

    /** Bytes received and sent by one interface since it was made. */
    public record Reading(String iface, long rxBytes, long txBytes) {
    }

    private InterfaceCounters() {
    }

    /**
     * The counters of {@code interfaces}, in that order.
     *
     * @throws IllegalStateException naming the interface if this namespace has no such interface
     */
    public static List<Reading> read(List<String> interfaces) {
        String text;
        try {
            text = Files.readString(NET_DEV);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the interface counters in " + NET_DEV, e);
        }
        Map<String, Reading> all = parse(text);
        List<Reading> out = new ArrayList<>();
        for (String name : interfaces) {
            Reading r = all.get(name);
            if (r == null) {
                throw new IllegalStateException("no interface '" + name + "' in this network namespace (" + NET_DEV
                        + " lists " + all.keySet() + ")");
            }
            out.add(r);
        }
        return out;
    }

    /**
     * Parses {@code /proc/net/dev}: two header lines, then {@code name: rx_bytes rx_packets ... (8 fields)
     * tx_bytes ...}.
     */
    static Map<String, Reading> parse(String text) {
        Map<String, Reading> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).strip();
            String[] f = line.substring(colon + 1).strip().split("\\s+");
            if (f.length < 16 || name.isEmpty()) {
                continue;
            }
            try {
                out.put(name, new Reading(name, Long.parseLong(f[0]), Long.parseLong(f[8])));
            } catch (NumberFormatException e) {
                // a header line that happens to hold a colon
            }
        }
        return out;
    }
}
