package io.railcoll.transport.mcast;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the multicast broadcast did since it opened. Written by the protocol's owner thread, readable from any
 * thread (atomic cells; no lock on the hot path).
 */
public final class MulticastCounters {
    public enum Counter {
        DATAGRAMS_SENT, DATAGRAMS_RECEIVED, RETRANSMISSIONS, CHECKSUM_FAILURES, DUPLICATES, UNEXPECTED,
        NACKS_SENT, NACKS_RECEIVED, SYNCS, FAILOVERS, TREE_MESSAGES_SENT, BROADCASTS_DELIVERED
    }

    private final AtomicLongArray cells = new AtomicLongArray(Counter.values().length);

    void add(Counter c, long n) {
        cells.getAndAdd(c.ordinal(), n);
    }

    void increment(Counter c) {
        cells.getAndIncrement(c.ordinal());
    }

    public long get(Counter c) {
        return cells.get(c.ordinal());
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Counter c : Counter.values()) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(c.name().toLowerCase(java.util.Locale.ROOT)).append('=').append(get(c));
        }
        return sb.toString();
    }
}
