package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;

/**
 * The combining loops on {@code int} elements: {@code inout[i] = a[i] op inout[i]} for {@code i < n}, where {@code a} is
 * a chunk of the left operand already staged in a heap array (see {@link Staging}) and {@code inout} is read and
 * written at {@code offset + i * 4}. Each method is one counted loop with an int index over a heap array and one
 * segment, which C2's SuperWord vectorises (a loop over two segments is not, because C2 cannot rule out that
 * they alias). Arithmetic wraps in two's complement, as Java's {@code int} does.
 * Logical operators treat non-zero as true and store 1 or 0; they are written without branches (see
 * {@code truth}) so that C2 can vectorise them.
 * Stateless; any thread.
 */
final class IntLoops {

    private IntLoops() {
    }

    static void sum(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, a[i] + inout.get(JAVA_INT_UNALIGNED, at));
        }
    }

    static void prod(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, a[i] * inout.get(JAVA_INT_UNALIGNED, at));
        }
    }

    static void min(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, Math.min(a[i], inout.get(JAVA_INT_UNALIGNED, at)));
        }
    }

    static void max(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, Math.max(a[i], inout.get(JAVA_INT_UNALIGNED, at)));
        }
    }

    static void band(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, a[i] & inout.get(JAVA_INT_UNALIGNED, at));
        }
    }

    static void bor(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, a[i] | inout.get(JAVA_INT_UNALIGNED, at));
        }
    }

    static void bxor(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, a[i] ^ inout.get(JAVA_INT_UNALIGNED, at));
        }
    }

    static void land(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, ((truth(a[i]) & truth(inout.get(JAVA_INT_UNALIGNED, at))) >>> 31));
        }
    }

    static void lor(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, ((truth(a[i]) | truth(inout.get(JAVA_INT_UNALIGNED, at))) >>> 31));
        }
    }

    static void lxor(int[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 4;
            inout.set(JAVA_INT_UNALIGNED, at, ((truth(a[i]) ^ truth(inout.get(JAVA_INT_UNALIGNED, at))) >>> 31));
        }
    }

    /** Sign bit set exactly when {@code v != 0}: {@code v | -v} is negative for every non-zero v. */
    private static int truth(int v) {
        return v | -v;
    }
}
