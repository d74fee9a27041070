package io.railcoll.reduce;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

/**
 * The Vector API's kernels on {@code long} elements (decision 0210 and 0213), one per operator, written out because C2
 * turns a vector operation into instructions only where its operator is a constant in the code it compiles. Each
 * combines {@code inout[i] = in[i] op inout[i]} for the whole vectors of {@code bytes} bytes from the two offsets on,
 * reading and writing both segments, and returns the bytes it combined; {@link VectorCombiners} checks the ranges
 * first and hands the rest to the staged loop. Arithmetic wraps as Java's {@code long} does; min and max are signed.
 * Logical operators give the staged loops' bits: {@code v | -v} has its sign bit set exactly when {@code v != 0}, so
 * the sign bit of the two combined is the answer, and an unsigned shift by the lane's width less one stores it as 1 or
 * 0. (The unsigned minimum of the other kernels needs AVX-512 on long lanes; a shift of long lanes is there
 * everywhere.) Loaded only when the JVM has the module. Stateless; any thread.
 */
final class LongVectorKernels {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private LongVectorKernels() {
    }

    static long sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long band(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long bor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long bxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long land(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            LongVector r = a.or(a.neg()).and(b.or(b.neg())).lanewise(LSHR, 63);
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long lor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            LongVector r = a.or(a.neg()).or(b.or(b.neg())).lanewise(LSHR, 63);
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long lxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            LongVector r = a.or(a.neg()).lanewise(XOR, b.or(b.neg())).lanewise(LSHR, 63);
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }
}
