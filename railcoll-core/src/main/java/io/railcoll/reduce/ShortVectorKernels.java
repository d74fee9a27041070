package io.railcoll.reduce;

import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static jdk.incubator.vector.VectorOperators.UMAX;
import static jdk.incubator.vector.VectorOperators.UMIN;
import static jdk.incubator.vector.VectorOperators.XOR;

/**
 * The Vector API's kernels on {@code short} elements (decision 0210 and 0213), one per operator, written out because
 * C2 turns a vector operation into instructions only where its operator is a constant in the code it compiles. Each
 * combines {@code inout[i] = in[i] op inout[i]} for the whole vectors of {@code bytes} bytes from the two offsets on,
 * reading and writing both segments, and returns the bytes it combined; {@link VectorCombiners} checks the ranges
 * first and hands the rest to the staged loop. Arithmetic wraps in 16 bits; min and max are signed. Logical operators
 * give the staged loops' bits: the unsigned minimum of a lane and 1 is 1 exactly when the lane is not zero (one
 * instruction, where the staged loops' {@code (v | -v) >>> 31} would take an unsigned shift, which x86 does not have
 * for byte lanes: 2.5 to 3 times slower on booleans, decision 0213). CHAR (unsigned 16-bit) uses these kernels too: a
 * sum, product, bitwise or logical result has the same 16 bits whether the lanes are read as signed or unsigned; only
 * min and max differ, and have their own ({@link #minChars}, {@link #maxChars}). Loaded only when the JVM has the
 * module. Stateless; any thread.
 */
final class ShortVectorKernels {
    private static final VectorSpecies<Short> SPECIES = ShortVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private ShortVectorKernels() {
    }

    static long sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long band(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long bor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long bxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long land(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ShortVector r = a.lanewise(UMIN, (short) 1).and(b.lanewise(UMIN, (short) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long lor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).lanewise(UMIN, (short) 1).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long lxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ShortVector r = a.lanewise(UMIN, (short) 1).lanewise(XOR, b.lanewise(UMIN, (short) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    /** CHAR's min: unsigned, as {@code Math.min} on two {@code char}s widened to int. */
    static long minChars(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(UMIN, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    /** CHAR's max: unsigned, as {@code Math.max} on two {@code char}s widened to int. */
    static long maxChars(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(UMAX, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }
}
