package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;

/**
 * The combining loops on {@code double} elements: {@code inout[i] = a[i] op inout[i]} for {@code i < n}, where {@code a} is
 * a chunk of the left operand already staged in a heap array (see {@link Staging}) and {@code inout} is read and
 * written at {@code offset + i * 8}. Each method is one counted loop with an int index over a heap array and one
 * segment, which C2's SuperWord vectorises (a loop over two segments is not, because C2 cannot rule out that
 * they alias). IEEE 754 arithmetic as Java's {@code double}; min and max are {@link Math#min(double, double)} and {@link Math#max(double, double)}: NaN if either operand is NaN, and -0.0 is less than +0.0.
 * Stateless; any thread.
 */
final class DoubleLoops {

    private DoubleLoops() {
    }

    static void sum(double[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_DOUBLE_UNALIGNED, at, a[i] + inout.get(JAVA_DOUBLE_UNALIGNED, at));
        }
    }

    static void prod(double[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_DOUBLE_UNALIGNED, at, a[i] * inout.get(JAVA_DOUBLE_UNALIGNED, at));
        }
    }

    static void min(double[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_DOUBLE_UNALIGNED, at, Math.min(a[i], inout.get(JAVA_DOUBLE_UNALIGNED, at)));
        }
    }

    static void max(double[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_DOUBLE_UNALIGNED, at, Math.max(a[i], inout.get(JAVA_DOUBLE_UNALIGNED, at)));
        }
    }
}
