package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;

/**
 * The combining loops on {@code float} elements: {@code inout[i] = a[i] op inout[i]} for {@code i < n}, where {@code a} is
 * a chunk of the left operand already staged in a heap array (see {@link Staging}) and {@code inout} is read and
 * written at {@code offset + i * 4}. Each method is one counted loop with an int index over a heap array and one
 * segment, which C2's SuperWord vectorises (a loop over two segments is not, because C2 cannot rule out that
 * they alias). IEEE 754 arithmetic as Java's {@code float}; min and max are {@link Math#min(float, float)} and {@link Math#max(float, float)}: NaN if either operand is NaN, and -0.0 is less than +0.0.
 * Stateless; any thread.
 */
final class FloatLoops {

    private FloatLoops() {
    }

    static void sum(float[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_FLOAT_UNALIGNED, at, a[i] + inout.get(JAVA_FLOAT_UNALIGNED, at));
        }
    }

    static void prod(float[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_FLOAT_UNALIGNED, at, a[i] * inout.get(JAVA_FLOAT_UNALIGNED, at));
        }
    }

    static void min(float[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_FLOAT_UNALIGNED, at, Math.min(a[i], inout.get(JAVA_FLOAT_UNALIGNED, at)));
        }
    }

    static void max(float[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_FLOAT_UNALIGNED, at, Math.max(a[i], inout.get(JAVA_FLOAT_UNALIGNED, at)));
        }
    }
}
