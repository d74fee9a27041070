package io.railcoll.reduce;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The Vector API's kernels on {@code double} elements (decision 0210), one per operator, written out because C2 turns
 * a vector operation into instructions only where its operator is a constant in the code it compiles. Each combines
 * {@code inout[i] = in[i] op inout[i]} for the whole vectors of {@code bytes} bytes from the two offsets on, reading
 * and writing both segments, and returns the bytes it combined; {@link VectorCombiners} checks the ranges first and
 * hands the rest to the staged loop. IEEE 754 arithmetic lane by lane; min and max as {@link Math#min} and {@link
 * Math#max} (NaN wins, -0.0 below +0.0), which is how the Vector API defines them. Loaded only when the JVM has the
 * module. Stateless; any thread.
 */
final class DoubleVectorKernels {
    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private DoubleVectorKernels() {
    }

    static long sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    static long max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }
}
