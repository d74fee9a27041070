package io.railcoll.sim;

import java.util.Arrays;

/**
 * Finds a simulated message by (sending representative, receiver, tag): an open-addressing hash map on primitive
 * arrays, because a node-symmetric simulation of 64 ranks that each send to 65535 peers holds four million of them.
 * Not thread-safe.
 */
final class MessageIndex {
    private long[] senders = new long[1 << 10];
    private long[] receiverTags = new long[1 << 10];
    private int[] values = new int[1 << 10];
    private int size;

    MessageIndex() {
        Arrays.fill(values, -1);
    }

    /** Adds a key; returns false when it was already there (a schedule that sends twice with one tag). */
    boolean put(int sender, int receiver, int tag, int message) {
        if (2 * (size + 1) > values.length) {
            grow();
        }
        long rt = pack(receiver, tag);
        int slot = slot(sender, rt, values.length);
        while (values[slot] >= 0) {
            if (senders[slot] == sender && receiverTags[slot] == rt) {
                return false;
            }
            slot = (slot + 1) & (values.length - 1);
        }
        senders[slot] = sender;
        receiverTags[slot] = rt;
        values[slot] = message;
        size++;
        return true;
    }

    /** The message, or -1. */
    int get(int sender, int receiver, int tag) {
        long rt = pack(receiver, tag);
        int slot = slot(sender, rt, values.length);
        while (values[slot] >= 0) {
            if (senders[slot] == sender && receiverTags[slot] == rt) {
                return values[slot];
            }
            slot = (slot + 1) & (values.length - 1);
        }
        return -1;
    }

    private void grow() {
        long[] oldSenders = senders;
        long[] oldReceiverTags = receiverTags;
        int[] oldValues = values;
        int capacity = values.length * 2;
        senders = new long[capacity];
        receiverTags = new long[capacity];
        values = new int[capacity];
        Arrays.fill(values, -1);
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] >= 0) {
                int slot = slot(oldSenders[i], oldReceiverTags[i], capacity);
                while (values[slot] >= 0) {
                    slot = (slot + 1) & (capacity - 1);
                }
                senders[slot] = oldSenders[i];
                receiverTags[slot] = oldReceiverTags[i];
                values[slot] = oldValues[i];
            }
        }
    }

    private static long pack(int receiver, int tag) {
        return ((long) receiver << 32) | (tag & 0xffffffffL);
    }

    private static int slot(long sender, long receiverTag, int capacity) {
        long h = sender * 0x9E3779B97F4A7C15L + receiverTag * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        return (int) (h & (capacity - 1));
    }
}
