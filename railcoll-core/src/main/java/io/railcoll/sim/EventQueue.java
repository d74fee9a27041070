package io.railcoll.sim;

import java.util.Arrays;

/**
 * A binary min-heap of (time, payload) on primitive arrays, so a simulation of millions of messages allocates no
 * object per event. Equal times leave in insertion order, which keeps a simulation deterministic. Not thread-safe.
 */
final class EventQueue {
    private double[] times = new double[1024];
    private long[] seqs = new long[1024];
    private long[] payloads = new long[1024];
    private int size;
    private long nextSeq;

    boolean isEmpty() {
        return size == 0;
    }

    void add(double time, long payload) {
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            seqs = Arrays.copyOf(seqs, size * 2);
            payloads = Arrays.copyOf(payloads, size * 2);
        }
        int i = size++;
        long seq = nextSeq++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(time, seq, times[parent], seqs[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        times[i] = time;
        seqs[i] = seq;
        payloads[i] = payload;
    }

    /** Time of the head; only when not empty. */
    double headTime() {
        return times[0];
    }

    /** Removes the head and returns its payload; only when not empty. */
    long poll() {
        long head = payloads[0];
        size--;
        if (size > 0) {
            double time = times[size];
            long seq = seqs[size];
            long payload = payloads[size];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && before(times[child + 1], seqs[child + 1], times[child], seqs[child])) {
                    child++;
                }
                if (!before(times[child], seqs[child], time, seq)) {
                    break;
                }
                move(child, i);
                i = child;
            }
            times[i] = time;
            seqs[i] = seq;
            payloads[i] = payload;
        }
        return head;
    }

    private void move(int from, int to) {
        times[to] = times[from];
        seqs[to] = seqs[from];
        payloads[to] = payloads[from];
    }

    private static boolean before(double t1, long s1, double t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}
