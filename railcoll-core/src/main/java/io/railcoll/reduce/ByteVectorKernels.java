package io.railcoll.reduce;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static jdk.incubator.vector.VectorOperators.UMIN;
import static jdk.incubator.vector.VectorOperators.XOR;

/**
 * The Vector API's kernels on {@code byte} elements (decision 0210 and 0213), one per operator, written out because C2
 * turns a vector operation into instructions only where its operator is a constant in the code it compiles. Each
 * combines {@code inout[i] = in[i] op inout[i]} for the whole vectors of {@code bytes} bytes from the two offsets on,
 * reading and writing both segments, and returns the bytes it combined; {@link VectorCombiners} checks the ranges
 * first and hands the rest to the staged loop. Arithmetic wraps in 8 bits (the low byte of Java's {@code int} result,
 * as the staged loops' {@code (byte)} cast keeps); min and max are signed. Logical operators give the staged loops'
 * bits: the unsigned minimum of a lane and 1 is 1 exactly when the lane is not zero (one instruction, where the staged
 * loops' {@code (v | -v) >>> 31} would take an unsigned shift, which x86 does not have for byte lanes: 2.5 to 3 times
 * slower on booleans, decision 0213). BOOLEAN uses the logical kernels as they are. Loaded only when the JVM has the
 * module. Stateless; any thread.
 */
final class ByteVectorKernels {
    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private ByteVectorKernels() {
    }

    static long sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long band(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long bor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long bxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long land(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ByteVector r = a.lanewise(UMIN, (byte) 1).and(b.lanewise(UMIN, (byte) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long lor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).lanewise(UMIN, (byte) 1).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long lxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ByteVector r = a.lanewise(UMIN, (byte) 1).lanewise(XOR, b.lanewise(UMIN, (byte) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }
}
