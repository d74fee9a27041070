package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * The combining loops on {@code short} elements: {@code inout[i] = a[i] op inout[i]} for {@code i < n}, where {@code a} is
 * a chunk of the left operand already staged in a heap array (see {@link Staging}) and {@code inout} is read and
 * written at {@code offset + i * 2}. Each method is one counted loop with an int index over a heap array and one
 * segment, which C2's SuperWord vectorises (a loop over two segments is not, because C2 cannot rule out that
 * they alias). Short arithmetic wraps in two's complement; min and max are signed.
 * Logical operators treat non-zero as true and store 1 or 0; they are written without branches (see
 * {@code truth}) so that C2 can vectorise them.
 * Stateless; any thread.
 */
final class ShortLoops {

    private ShortLoops() {
    }

    static void sum(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) (a[i] + inout.get(JAVA_SHORT_UNALIGNED, at)));
        }
    }

    static void prod(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) (a[i] * inout.get(JAVA_SHORT_UNALIGNED, at)));
        }
    }

    static void min(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) Math.min(a[i], inout.get(JAVA_SHORT_UNALIGNED, at)));
        }
    }

    static void max(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) Math.max(a[i], inout.get(JAVA_SHORT_UNALIGNED, at)));
        }
    }

    static void band(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) (a[i] & inout.get(JAVA_SHORT_UNALIGNED, at)));
        }
    }

    static void bor(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) (a[i] | inout.get(JAVA_SHORT_UNALIGNED, at)));
        }
    }

    static void bxor(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) (a[i] ^ inout.get(JAVA_SHORT_UNALIGNED, at)));
        }
    }

    static void land(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) ((truth(a[i]) & truth(inout.get(JAVA_SHORT_UNALIGNED, at))) >>> 31));
        }
    }

    static void lor(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) ((truth(a[i]) | truth(inout.get(JAVA_SHORT_UNALIGNED, at))) >>> 31));
        }
    }

    static void lxor(short[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_SHORT_UNALIGNED, at, (short) ((truth(a[i]) ^ truth(inout.get(JAVA_SHORT_UNALIGNED, at))) >>> 31));
        }
    }

    /** Sign bit set exactly when {@code v != 0}: {@code v | -v} is negative for every non-zero v. */
    private static int truth(int v) {
        return v | -v;
    }
}
