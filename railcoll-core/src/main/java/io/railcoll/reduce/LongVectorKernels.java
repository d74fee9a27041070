package io.railcoll.reduce;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

/**
 * The Vector API's kernels on {@code long} elements (decisions 0210 and 0213), one per operator, written out because
 * C2 turns a vector operation into instructions only where its operator is a constant in the code it compiles. Each
 * combines {@code inout[i] = in[i] op inout[i]} for the {@code bytes} bytes (whole elements) from the two offsets on,
 * reading and writing both segments: whole vectors first, then the elements after the last whole vector, one at a
 * time, with the staged loops' own expression (cheaper than handing a few elements to the staged combiner, which
 * checks the range again, looks up its thread's arrays and copies; decision 0213). {@link VectorCombiners} checks the
 * ranges first. Arithmetic wraps as Java's {@code long} does; min and max are signed. Logical operators give the
 * staged loops' bits: {@code v | -v} has its sign bit set exactly when {@code v != 0}, so the sign bit of the two
 * combined is the answer, and an unsigned shift by 63 stores it as 1 or 0. (The unsigned minimum of the other kernels
 * needs AVX-512 on long lanes; a shift of long lanes is there everywhere.)
 *
 * <p>Loaded only when the JVM has the module. Stateless; any thread.
 */
final class LongVectorKernels {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private LongVectorKernels() {
    }

    static void sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, a + b);
        }
    }

    static void prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, a * b);
        }
    }

    static void min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, Math.min(a, b));
        }
    }

    static void max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, Math.max(a, b));
        }
    }

    static void band(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, a & b);
        }
    }

    static void bor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, a | b);
        }
    }

    static void bxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, a ^ b);
        }
    }

    static void land(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(a.neg()).and(b.or(b.neg())).lanewise(LSHR, 63).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, (truth(a) & truth(b)) >>> 63);
        }
    }

    static void lor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(a.neg()).or(b.or(b.neg())).lanewise(LSHR, 63).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, (truth(a) | truth(b)) >>> 63);
        }
    }

    static void lxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            LongVector r = a.or(a.neg()).lanewise(XOR, b.or(b.neg())).lanewise(LSHR, 63);
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 8) {
            long a = in.get(JAVA_LONG_UNALIGNED, inOffset + i);
            long b = inout.get(JAVA_LONG_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_LONG_UNALIGNED, inoutOffset + i, (truth(a) ^ truth(b)) >>> 63);
        }
    }

    /** Sign bit set exactly when {@code v != 0}, as in the staged loops. */
    private static long truth(long v) {
        return v | -v;
    }
}
