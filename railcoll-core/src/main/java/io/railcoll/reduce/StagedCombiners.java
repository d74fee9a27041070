package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Turns a loop of a {@code *Loops} class into a {@link Combiner}: the left operand is copied chunk by chunk into the
 * thread's {@link Staging} array, and the loop combines the chunk into {@code inout} (for floating point, into a
 * staged copy of {@code inout} that is then copied back). A chunk is copied before any
 * byte of the same chunk of {@code inout} is written, so {@code in} and {@code inout} may be the same range.
 *
 * <p>Each pair's combiner ({@link Combiners}, and the fallback of each {@link VectorCombiners} pair) is a lambda of its
 * own that calls the helper of its element type with its loop as a method reference: a non-capturing reference is a
 * constant, so once the helper is inlined into the pair's lambda C2 binds the loop call statically, whatever other
 * pairs the JVM has combined (decision 0241). These helpers used to return one lambda per element type that called its
 * loop through a captured interface, one call site and one type profile for the ten operators of that type (the shape
 * decision 0236 removed from the Vector API's combiners).
 */
final class StagedCombiners {

    interface ByteKernel {
        void apply(byte[] a, MemorySegment inout, long offset, int n);
    }

    interface ShortKernel {
        void apply(short[] a, MemorySegment inout, long offset, int n);
    }

    interface CharKernel {
        void apply(char[] a, MemorySegment inout, long offset, int n);
    }

    interface IntKernel {
        void apply(int[] a, MemorySegment inout, long offset, int n);
    }

    interface LongKernel {
        void apply(long[] a, MemorySegment inout, long offset, int n);
    }

    /** Floating point: both operands staged, {@code b[i] = a[i] op b[i]}. */
    interface FloatKernel {
        void apply(float[] a, float[] b, int n);
    }

    /** Floating point: both operands staged, {@code b[i] = a[i] op b[i]}. */
    interface DoubleKernel {
        void apply(double[] a, double[] b, int n);
    }

    private StagedCombiners() {
    }

    static void bytes(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count,
            ByteKernel kernel) {
        Bounds.check(in, inOffset, inout, inoutOffset, count, 1);
        byte[] a = Staging.get().bytes;
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(a.length, count - done);
            MemorySegment.copy(in, JAVA_BYTE, inOffset + done, a, 0, n);
            kernel.apply(a, inout, inoutOffset + done, n);
            done += n;
        }
    }

    static void shorts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count,
            ShortKernel kernel) {
        Bounds.check(in, inOffset, inout, inoutOffset, count, 2);
        short[] a = Staging.get().shorts;
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(a.length, count - done);
            MemorySegment.copy(in, JAVA_SHORT_UNALIGNED, inOffset + done * 2, a, 0, n);
            kernel.apply(a, inout, inoutOffset + done * 2, n);
            done += n;
        }
    }

    static void chars(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count,
            CharKernel kernel) {
        Bounds.check(in, inOffset, inout, inoutOffset, count, 2);
        char[] a = Staging.get().chars;
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(a.length, count - done);
            MemorySegment.copy(in, JAVA_CHAR_UNALIGNED, inOffset + done * 2, a, 0, n);
            kernel.apply(a, inout, inoutOffset + done * 2, n);
            done += n;
        }
    }

    static void ints(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count,
            IntKernel kernel) {
        Bounds.check(in, inOffset, inout, inoutOffset, count, 4);
        int[] a = Staging.get().ints;
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(a.length, count - done);
            MemorySegment.copy(in, JAVA_INT_UNALIGNED, inOffset + done * 4, a, 0, n);
            kernel.apply(a, inout, inoutOffset + done * 4, n);
            done += n;
        }
    }

    static void longs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count,
            LongKernel kernel) {
        Bounds.check(in, inOffset, inout, inoutOffset, count, 8);
        long[] a = Staging.get().longs;
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(a.length, count - done);
            MemorySegment.copy(in, JAVA_LONG_UNALIGNED, inOffset + done * 8, a, 0, n);
            kernel.apply(a, inout, inoutOffset + done * 8, n);
            done += n;
        }
    }

    /**
     * Both operands are staged, combined array to array and the result copied back: C2 in JDK 25 does not vectorise
     * float accesses to a segment at all, but does vectorise the array loop, and three bulk copies cost less than
     * a scalar loop.
     */
    static void floats(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count,
            FloatKernel kernel) {
        Bounds.check(in, inOffset, inout, inoutOffset, count, 4);
        Staging staging = Staging.get();
        float[] a = staging.floats;
        float[] b = staging.floats2;
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(a.length, count - done);
            MemorySegment.copy(in, JAVA_FLOAT_UNALIGNED, inOffset + done * 4, a, 0, n);
            MemorySegment.copy(inout, JAVA_FLOAT_UNALIGNED, inoutOffset + done * 4, b, 0, n);
            kernel.apply(a, b, n);
            MemorySegment.copy(b, 0, inout, JAVA_FLOAT_UNALIGNED, inoutOffset + done * 4, n);
            done += n;
        }
    }

    /**
     * Both operands are staged, combined array to array and the result copied back: C2 in JDK 25 does not vectorise
     * double accesses to a segment at all, but does vectorise the array loop, and three bulk copies cost less than
     * a scalar loop.
     */
    static void doubles(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count,
            DoubleKernel kernel) {
        Bounds.check(in, inOffset, inout, inoutOffset, count, 8);
        Staging staging = Staging.get();
        double[] a = staging.doubles;
        double[] b = staging.doubles2;
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(a.length, count - done);
            MemorySegment.copy(in, JAVA_DOUBLE_UNALIGNED, inOffset + done * 8, a, 0, n);
            MemorySegment.copy(inout, JAVA_DOUBLE_UNALIGNED, inoutOffset + done * 8, b, 0, n);
            kernel.apply(a, b, n);
            MemorySegment.copy(b, 0, inout, JAVA_DOUBLE_UNALIGNED, inoutOffset + done * 8, n);
            done += n;
        }
    }
}
