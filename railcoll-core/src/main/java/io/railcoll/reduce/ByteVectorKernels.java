package io.railcoll.reduce;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static jdk.incubator.vector.VectorOperators.UMIN;
import static jdk.incubator.vector.VectorOperators.XOR;

/**
 * The Vector API's kernels on {@code byte} elements (decisions 0210 and 0213), one per operator, written out because
 * C2 turns a vector operation into instructions only where its operator is a constant in the code it compiles. Each
 * combines {@code inout[i] = in[i] op inout[i]} for the {@code bytes} bytes (whole elements) from the two offsets on,
 * reading and writing both segments: whole vectors first, then the elements after the last whole vector, one at a
 * time, with the staged loops' own expression (cheaper than handing a few elements to the staged combiner, which
 * checks the range again, looks up its thread's arrays and copies; decision 0213). {@link VectorCombiners} checks the
 * ranges first. Arithmetic wraps in 8 bits (the low byte of Java's {@code int} result, as the staged loops' {@code
 * (byte)} cast keeps); min and max are signed. Logical operators give the staged loops' bits: the unsigned minimum of
 * a lane and 1 is 1 exactly when the lane is not zero (one instruction, where the staged loops' {@code (v | -v) >>>
 * 31} would take an unsigned shift, which x86 does not have for byte lanes: 2.5 to 3 times slower on booleans,
 * decision 0213). BOOLEAN uses the logical kernels as they are.
 *
 * <p>Loaded only when the JVM has the module. Stateless; any thread.
 */
final class ByteVectorKernels {
    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private ByteVectorKernels() {
    }

    static void sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) (a + b));
        }
    }

    static void prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) (a * b));
        }
    }

    static void min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) Math.min(a, b));
        }
    }

    static void max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) Math.max(a, b));
        }
    }

    static void band(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) (a & b));
        }
    }

    static void bor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) (a | b));
        }
    }

    static void bxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) (a ^ b));
        }
    }

    static void land(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ByteVector r = a.lanewise(UMIN, (byte) 1).and(b.lanewise(UMIN, (byte) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) ((truth(a) & truth(b)) >>> 31));
        }
    }

    static void lor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).lanewise(UMIN, (byte) 1).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) ((truth(a) | truth(b)) >>> 31));
        }
    }

    static void lxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ByteVector a = ByteVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ByteVector r = a.lanewise(UMIN, (byte) 1).lanewise(XOR, b.lanewise(UMIN, (byte) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 1) {
            byte a = in.get(JAVA_BYTE, inOffset + i);
            byte b = inout.get(JAVA_BYTE, inoutOffset + i);
            inout.set(JAVA_BYTE, inoutOffset + i, (byte) ((truth(a) ^ truth(b)) >>> 31));
        }
    }

    /** Sign bit set exactly when {@code v != 0}, as in the staged loops. */
    private static int truth(int v) {
        return v | -v;
    }
}
