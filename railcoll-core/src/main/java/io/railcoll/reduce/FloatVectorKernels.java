package io.railcoll.reduce;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;

/**
 * The Vector API's kernels on {@code float} elements (decision 0210), one per operator, written out because C2 turns a
 * vector operation into instructions only where its operator is a constant in the code it compiles. Each combines
 * {@code inout[i] = in[i] op inout[i]} for the {@code bytes} bytes (whole elements) from the two offsets on, reading
 * and writing both segments: whole vectors first, then the elements after the last whole vector, one at a time, with
 * the staged loops' own expression (cheaper than handing a few elements to the staged combiner, which checks the range
 * again, looks up its thread's arrays and copies; decision 0213). {@link VectorCombiners} checks the ranges first.
 * IEEE 754 arithmetic lane by lane; min and max as {@link Math#min} and {@link Math#max} (NaN wins, -0.0 below +0.0),
 * which is how the Vector API defines them.
 *
 * <p>Loaded only when the JVM has the module. Stateless; any thread.
 */
final class FloatVectorKernels {
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private FloatVectorKernels() {
    }

    static void sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 4) {
            float a = in.get(JAVA_FLOAT_UNALIGNED, inOffset + i);
            float b = inout.get(JAVA_FLOAT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_FLOAT_UNALIGNED, inoutOffset + i, a + b);
        }
    }

    static void prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 4) {
            float a = in.get(JAVA_FLOAT_UNALIGNED, inOffset + i);
            float b = inout.get(JAVA_FLOAT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_FLOAT_UNALIGNED, inoutOffset + i, a * b);
        }
    }

    static void min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 4) {
            float a = in.get(JAVA_FLOAT_UNALIGNED, inOffset + i);
            float b = inout.get(JAVA_FLOAT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_FLOAT_UNALIGNED, inoutOffset + i, Math.min(a, b));
        }
    }

    static void max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 4) {
            float a = in.get(JAVA_FLOAT_UNALIGNED, inOffset + i);
            float b = inout.get(JAVA_FLOAT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_FLOAT_UNALIGNED, inoutOffset + i, Math.max(a, b));
        }
    }
}
