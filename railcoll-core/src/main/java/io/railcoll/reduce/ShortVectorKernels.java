package io.railcoll.reduce;

import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static jdk.incubator.vector.VectorOperators.UMAX;
import static jdk.incubator.vector.VectorOperators.UMIN;
import static jdk.incubator.vector.VectorOperators.XOR;

/**
 * The Vector API's kernels on {@code short} elements (decisions 0210 and 0213), one per operator, written out because
 * C2 turns a vector operation into instructions only where its operator is a constant in the code it compiles. Each
 * combines {@code inout[i] = in[i] op inout[i]} for the {@code bytes} bytes (whole elements) from the two offsets on,
 * reading and writing both segments: whole vectors first, then the elements after the last whole vector, one at a
 * time, with the staged loops' own expression (cheaper than handing a few elements to the staged combiner, which
 * checks the range again, looks up its thread's arrays and copies; decision 0213). {@link VectorCombiners} checks the
 * ranges first. Arithmetic wraps in 16 bits; min and max are signed. Logical operators give the staged loops' bits:
 * the unsigned minimum of a lane and 1 is 1 exactly when the lane is not zero (one instruction, where the staged
 * loops' {@code (v | -v) >>> 31} would take an unsigned shift, which x86 does not have for byte lanes: 2.5 to 3 times
 * slower on booleans, decision 0213).
 *
 * <p>CHAR (unsigned 16-bit) uses these kernels too: a sum, product, bitwise or logical result has the same 16 bits
 * whether the lanes are read as signed or unsigned; only min and max differ, and have their own ({@link #minChars},
 * {@link #maxChars}).
 *
 * <p>Loaded only when the JVM has the module. Stateless; any thread.
 */
final class ShortVectorKernels {
    private static final VectorSpecies<Short> SPECIES = ShortVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private ShortVectorKernels() {
    }

    static void sum(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) (a + b));
        }
    }

    static void prod(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) (a * b));
        }
    }

    static void min(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) Math.min(a, b));
        }
    }

    static void max(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) Math.max(a, b));
        }
    }

    static void band(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) (a & b));
        }
    }

    static void bor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) (a | b));
        }
    }

    static void bxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) (a ^ b));
        }
    }

    static void land(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ShortVector r = a.lanewise(UMIN, (short) 1).and(b.lanewise(UMIN, (short) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) ((truth(a) & truth(b)) >>> 31));
        }
    }

    static void lor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.or(b).lanewise(UMIN, (short) 1).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) ((truth(a) | truth(b)) >>> 31));
        }
    }

    static void lxor(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            ShortVector r = a.lanewise(UMIN, (short) 1).lanewise(XOR, b.lanewise(UMIN, (short) 1));
            r.intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            short a = in.get(JAVA_SHORT_UNALIGNED, inOffset + i);
            short b = inout.get(JAVA_SHORT_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_SHORT_UNALIGNED, inoutOffset + i, (short) ((truth(a) ^ truth(b)) >>> 31));
        }
    }

    /** CHAR's min: unsigned, as {@code Math.min} on two {@code char}s widened to int. */
    static void minChars(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(UMIN, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            char a = in.get(JAVA_CHAR_UNALIGNED, inOffset + i);
            char b = inout.get(JAVA_CHAR_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_CHAR_UNALIGNED, inoutOffset + i, (char) Math.min(a, b));
        }
    }

    /** CHAR's max: unsigned, as {@code Math.max} on two {@code char}s widened to int. */
    static void maxChars(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = SPECIES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            ShortVector a = ShortVector.fromMemorySegment(SPECIES, in, inOffset + i, ORDER);
            ShortVector b = ShortVector.fromMemorySegment(SPECIES, inout, inoutOffset + i, ORDER);
            a.lanewise(UMAX, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        for (long i = end; i < bytes; i += 2) {
            char a = in.get(JAVA_CHAR_UNALIGNED, inOffset + i);
            char b = inout.get(JAVA_CHAR_UNALIGNED, inoutOffset + i);
            inout.set(JAVA_CHAR_UNALIGNED, inoutOffset + i, (char) Math.max(a, b));
        }
    }

    /** Sign bit set exactly when {@code v != 0}, as in the staged loops. */
    private static int truth(int v) {
        return v | -v;
    }
}
