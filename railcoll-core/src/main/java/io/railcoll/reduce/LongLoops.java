package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * The combining loops on {@code long} elements: {@code inout[i] = a[i] op inout[i]} for {@code i < n}, where {@code a} is
 * a chunk of the left operand already staged in a heap array (see {@link Staging}) and {@code inout} is read and
 * written at {@code offset + i * 8}. Each method is one counted loop with an int index over a heap array and one
 * segment, which C2's SuperWord vectorises (a loop over two segments is not, because C2 cannot rule out that
 * they alias). Arithmetic wraps in two's complement, as Java's {@code long} does.
 * Logical operators treat non-zero as true and store 1 or 0; they are written without branches (see
 * {@code truth}) so that C2 can vectorise them.
 * Stateless; any thread.
 */
final class LongLoops {

    private LongLoops() {
    }

    static void sum(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, a[i] + inout.get(JAVA_LONG_UNALIGNED, at));
        }
    }

    static void prod(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, a[i] * inout.get(JAVA_LONG_UNALIGNED, at));
        }
    }

    static void min(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, Math.min(a[i], inout.get(JAVA_LONG_UNALIGNED, at)));
        }
    }

    static void max(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, Math.max(a[i], inout.get(JAVA_LONG_UNALIGNED, at)));
        }
    }

    static void band(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, a[i] & inout.get(JAVA_LONG_UNALIGNED, at));
        }
    }

    static void bor(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, a[i] | inout.get(JAVA_LONG_UNALIGNED, at));
        }
    }

    static void bxor(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, a[i] ^ inout.get(JAVA_LONG_UNALIGNED, at));
        }
    }

    static void land(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, ((truth(a[i]) & truth(inout.get(JAVA_LONG_UNALIGNED, at))) >>> 63));
        }
    }

    static void lor(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, ((truth(a[i]) | truth(inout.get(JAVA_LONG_UNALIGNED, at))) >>> 63));
        }
    }

    static void lxor(long[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 8;
            inout.set(JAVA_LONG_UNALIGNED, at, ((truth(a[i]) ^ truth(inout.get(JAVA_LONG_UNALIGNED, at))) >>> 63));
        }
    }

    /** Sign bit set exactly when {@code v != 0}: {@code v | -v} is negative for every non-zero v. */
    private static long truth(long v) {
        return v | -v;
    }
}
