package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;

/**
 * The combining loops on {@code char} elements: {@code inout[i] = a[i] op inout[i]} for {@code i < n}, where {@code a} is
 * a chunk of the left operand already staged in a heap array (see {@link Staging}) and {@code inout} is read and
 * written at {@code offset + i * 2}. Each method is one counted loop with an int index over a heap array and one
 * segment, which C2's SuperWord vectorises (a loop over two segments is not, because C2 cannot rule out that
 * they alias). Char is an unsigned 16-bit integer: arithmetic wraps modulo 2^16, min and max are unsigned.
 * Logical operators treat non-zero as true and store 1 or 0; they are written without branches (see
 * {@code truth}) so that C2 can vectorise them.
 * Stateless; any thread.
 */
final class CharLoops {

    private CharLoops() {
    }

    static void sum(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) (a[i] + inout.get(JAVA_CHAR_UNALIGNED, at)));
        }
    }

    static void prod(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) (a[i] * inout.get(JAVA_CHAR_UNALIGNED, at)));
        }
    }

    static void min(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) Math.min(a[i], inout.get(JAVA_CHAR_UNALIGNED, at)));
        }
    }

    static void max(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) Math.max(a[i], inout.get(JAVA_CHAR_UNALIGNED, at)));
        }
    }

    static void band(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) (a[i] & inout.get(JAVA_CHAR_UNALIGNED, at)));
        }
    }

    static void bor(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) (a[i] | inout.get(JAVA_CHAR_UNALIGNED, at)));
        }
    }

    static void bxor(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) (a[i] ^ inout.get(JAVA_CHAR_UNALIGNED, at)));
        }
    }

    static void land(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) ((truth(a[i]) & truth(inout.get(JAVA_CHAR_UNALIGNED, at))) >>> 31));
        }
    }

    static void lor(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) ((truth(a[i]) | truth(inout.get(JAVA_CHAR_UNALIGNED, at))) >>> 31));
        }
    }

    static void lxor(char[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + (long) i * 2;
            inout.set(JAVA_CHAR_UNALIGNED, at, (char) ((truth(a[i]) ^ truth(inout.get(JAVA_CHAR_UNALIGNED, at))) >>> 31));
        }
    }

    /** Sign bit set exactly when {@code v != 0}: {@code v | -v} is negative for every non-zero v. */
    private static int truth(int v) {
        return v | -v;
    }
}
