package io.railcoll.bench;

import io.railcoll.schedule.Collective;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bytes every rank sends in a checked collective, and the bytes every rank must end with. Each byte depends on
 * the source rank, the destination block, its index and a per-case seed, so a block landing in the wrong place, from
 * the wrong rank, shifted by one or left over from the previous case is caught.
 */
public final class Patterns {
    private Patterns() {
    }

    /** The byte at {@code index} of the block that {@code source} sends to {@code dest} (dest is ignored where all get the same). */
    public static byte value(int seed, int source, int dest, long index) {
        long x = seed * 0x9E3779B97F4A7C15L + source * 0xC2B2AE3D27D4EB4FL + dest * 0x165667B19E3779F9L + index;
        x ^= x >>> 29;
        x *= 0xBF58476D1CE4E5B9L;
        x ^= x >>> 32;
        return (byte) x;
    }

    /** Fills this rank's send buffer (or, for broadcast, the root's buffer) for the case. */
    public static void fillSend(Collective c, int seed, int rank, int size, long b, MemorySegment send) {
        switch (c) {
            case BARRIER -> { }
            case BROADCAST, GATHER, ALLGATHER -> {
                for (long i = 0; i < b; i++) {
                    send.set(ValueLayout.JAVA_BYTE, i, value(seed, rank, 0, i));
                }
            }
            case ALLTOALL, SCATTER -> {
                for (int d = 0; d < size; d++) {
                    for (long i = 0; i < b; i++) {
                        send.set(ValueLayout.JAVA_BYTE, d * b + i, value(seed, rank, d, i));
                    }
                }
            }
            case ALLREDUCE, REDUCE, REDUCE_SCATTER, SCAN, EXSCAN -> {
                // The whole send vector: b bytes, or N blocks of b for reduce-scatter, element i its own term.
                for (long i = 0; i < c.sendBytes(b, size) / Double.BYTES; i++) {
                    send.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, TimedReduction.term(seed, rank, i));
                }
            }
            // bench runs the v-variants with every count b: their buffers are those of the uniform collective.
            case GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, REDUCE_SCATTERV ->
                    fillSend(c.uniform(), seed, rank, size, b, send);
        }
    }

    /**
     * Checks what {@code rank} received; returns null when right, else the first wrong byte described.
     * For broadcast, {@code recv} is the broadcast buffer and the root's pattern is expected.
     */
    public static String verify(Collective c, int seed, int rank, int size, long b, int root, MemorySegment recv) {
        if (c.variable()) {
            return verify(c.uniform(), seed, rank, size, b, root, recv); // every count b, as fillSend
        }
        switch (c) {
            case BARRIER:
                return null;
            case BROADCAST:
                return compare(recv, 0, b, seed, root, 0, "broadcast from root " + root);
            case GATHER:
                if (rank != root) {
                    return null;
                }
                // fall through: the root holds what an allgather would
            case ALLGATHER:
                for (int src = 0; src < size; src++) {
                    String bad = compare(recv, src * b, b, seed, src, 0, "block of rank " + src);
                    if (bad != null) {
                        return bad;
                    }
                }
                return null;
            case SCATTER:
                return compare(recv, 0, b, seed, root, rank, "block from root " + root);
            case ALLTOALL:
                for (int src = 0; src < size; src++) {
                    String bad = compare(recv, src * b, b, seed, src, rank, "block from rank " + src);
                    if (bad != null) {
                        return bad;
                    }
                }
                return null;
            case ALLREDUCE:
                return compareSum(recv, b, seed, 0, size, 0);
            case REDUCE:
                return rank == root ? compareSum(recv, b, seed, 0, size, 0) : null;
            case REDUCE_SCATTER:
                // Block r of every rank's send vector, summed: elements r*b/8.. of the terms.
                return compareSum(recv, b, seed, 0, size, rank * (b / Double.BYTES));
            case SCAN:
                return compareSum(recv, b, seed, 0, rank + 1, 0);
            case EXSCAN:
                // Rank 0's result is undefined in MPI and left unwritten by railcoll.
                return rank == 0 ? null : compareSum(recv, b, seed, 0, rank, 0);
        }
        throw new IllegalArgumentException(c.toString());
    }

    /**
     * Checks that element i of {@code recv}'s {@code b} bytes is the sum, over sources {@code from..to-1}, of their
     * term at {@code firstTerm + i}; the terms are small integers, so the sum is exact in any order.
     */
    private static String compareSum(MemorySegment recv, long b, int seed, int from, int to, long firstTerm) {
        for (long i = 0; i < b / Double.BYTES; i++) {
            double expected = 0;
            for (int src = from; src < to; src++) {
                expected += TimedReduction.term(seed, src, firstTerm + i);
            }
            double got = recv.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
            if (got != expected) {
                return "element " + i + " of the sum over ranks " + from + ".." + (to - 1) + " is " + got
                        + ", expected " + expected;
            }
        }
        return null;
    }

    private static String compare(MemorySegment seg, long offset, long b, int seed, int source, int dest, String what) {
        for (long i = 0; i < b; i++) {
            byte want = value(seed, source, dest, i);
            byte got = seg.get(ValueLayout.JAVA_BYTE, offset + i);
            if (got != want) {
                return what + ": byte " + i + " is " + got + ", expected " + want;
            }
        }
        return null;
    }
}
