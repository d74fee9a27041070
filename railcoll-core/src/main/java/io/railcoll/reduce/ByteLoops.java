package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The combining loops on {@code byte} elements: {@code inout[i] = a[i] op inout[i]} for {@code i < n}, where {@code a} is
 * a chunk of the left operand already staged in a heap array (see {@link Staging}) and {@code inout} is read and
 * written at {@code offset + i * 1}. Each method is one counted loop with an int index over a heap array and one
 * segment, which C2's SuperWord vectorises (a loop over two segments is not, because C2 cannot rule out that
 * they alias). Byte arithmetic wraps in two's complement; min and max are signed.
 * Logical operators treat non-zero as true and store 1 or 0; they are written without branches (see
 * {@code truth}) so that C2 can vectorise them.
 * Stateless; any thread.
 */
final class ByteLoops {

    private ByteLoops() {
    }

    static void sum(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) (a[i] + inout.get(JAVA_BYTE, at)));
        }
    }

    static void prod(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) (a[i] * inout.get(JAVA_BYTE, at)));
        }
    }

    static void min(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) Math.min(a[i], inout.get(JAVA_BYTE, at)));
        }
    }

    static void max(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) Math.max(a[i], inout.get(JAVA_BYTE, at)));
        }
    }

    static void band(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) (a[i] & inout.get(JAVA_BYTE, at)));
        }
    }

    static void bor(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) (a[i] | inout.get(JAVA_BYTE, at)));
        }
    }

    static void bxor(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) (a[i] ^ inout.get(JAVA_BYTE, at)));
        }
    }

    static void land(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) ((truth(a[i]) & truth(inout.get(JAVA_BYTE, at))) >>> 31));
        }
    }

    static void lor(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) ((truth(a[i]) | truth(inout.get(JAVA_BYTE, at))) >>> 31));
        }
    }

    static void lxor(byte[] a, MemorySegment inout, long offset, int n) {
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            inout.set(JAVA_BYTE, at, (byte) ((truth(a[i]) ^ truth(inout.get(JAVA_BYTE, at))) >>> 31));
        }
    }

    /** Sign bit set exactly when {@code v != 0}: {@code v | -v} is negative for every non-zero v. */
    private static int truth(int v) {
        return v | -v;
    }
}
