package io.railcoll.sim;

import java.util.Locale;

/**
 * The kinds of link a message can take, each with its own {@link LinkCost}: shared memory between ranks of one node,
 * the TCP rails between nodes, and UDP multicast. The schedule IR has no multicast op yet, so the simulator costs
 * puts as shared memory or rail by placement; the multicast parameters are carried (parsed, validated, written) for
 * the broadcast that will use them.
 */
public enum LinkClass {
    SHARED_MEMORY("shm"),
    RAIL("rail"),
    MULTICAST("mcast");

    private final String key;

    LinkClass(String key) {
        this.key = key;
    }

    /** The short name used in tuning files and reports ({@code shm}, {@code rail}, {@code mcast}). */
    public String key() {
        return key;
    }

    public static LinkClass fromKey(String key) {
        for (LinkClass c : values()) {
            if (c.key.equals(key.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown link class '" + key + "'; known: shm, rail, mcast");
    }
}
