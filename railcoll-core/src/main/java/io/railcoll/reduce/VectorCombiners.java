package io.railcoll.reduce;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The combining loops written with the Vector API ({@code jdk.incubator.vector}), for the JVMs that run with
 * {@code --add-modules jdk.incubator.vector} (decision 0210): {@code inout[i] = in[i] op inout[i]} read and written
 * straight from and to both segments, a whole vector of the platform's preferred width per step. C2's
 * auto-vectorisation cannot do this (it does not vectorise a loop over two segments, which might alias), so the
 * {@link StagedCombiners} copy the left operand into a heap array first; here there is no staging pass, and a combine
 * runs at about the speed of a copy.
 *
 * <p>Native segments of at least {@link #MIN_BYTES} take this path; the elements after the last whole vector, shorter
 * vectors and heap segments go to the staged combiner given. The Vector API reads heap segments over byte arrays too, but telling those from other heap
 * segments takes {@link MemorySegment#heapBase()}, whose {@code Optional} a busy JVM did not always keep off the heap
 * (the allocation check of the unit tests failed in CI with 16 bytes per segment and call). Each kernel is
 * element-wise, with Java's own operations (wrapping integer arithmetic, {@link Math#min}/{@link Math#max} on
 * floating point), so its bytes are those of the staged loop.
 *
 * <p>Each (type, operator) has its own kernel, written out: C2 turns a vector operation into instructions only where
 * its operator is a constant in the code it compiles, and a kernel's loop is compiled by itself (on-stack
 * replacement), so one loop taking the operator as an argument would run boxed and far slower than the staged loop.
 * Loaded only when the module is present (see {@link Combiners}). Stateless; any thread.
 */
final class VectorCombiners {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /**
     * Vectors shorter than this (four of the platform's vectors: 256 bytes with AVX-512) take the staged loop. Such a
     * kernel runs one to three steps a call, so it is compiled by C2 only after thousands of calls (a longer one is
     * compiled early by its loop's back branches), and until then the Vector API boxes every vector: hundreds of bytes
     * a call, which the per-call allocation check saw as 288 bytes per 64-byte all-reduce on a loaded host. The staged
     * loop is as quick at these sizes.
     */
    private static final long MIN_BYTES = 4L * INTS.vectorByteSize();

    /** Combines the whole vectors of {@code bytes} bytes from the two offsets on; returns the bytes it combined. */
    @FunctionalInterface
    private interface Kernel {
        long apply(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes);
    }

    private VectorCombiners() {
    }

    /** The vector combiner for {@code op} on {@code type}, falling back on {@code staged}; null where there is none. */
    static Combiner of(ElementType type, PredefinedOperator op, Combiner staged) {
        if (LONGS.length() < 2) {
            return null; // a platform without vector registers of at least 128 bits: C2's loops are as good
        }
        Kernel kernel = switch (type) {
            case INT -> switch (op) {
                case SUM -> VectorCombiners::sumInts;
                case PROD -> VectorCombiners::prodInts;
                case MIN -> VectorCombiners::minInts;
                case MAX -> VectorCombiners::maxInts;
                case BAND -> VectorCombiners::bandInts;
                case BOR -> VectorCombiners::borInts;
                case BXOR -> VectorCombiners::bxorInts;
                default -> null;
            };
            case LONG -> switch (op) {
                case SUM -> VectorCombiners::sumLongs;
                case PROD -> VectorCombiners::prodLongs;
                case MIN -> VectorCombiners::minLongs;
                case MAX -> VectorCombiners::maxLongs;
                case BAND -> VectorCombiners::bandLongs;
                case BOR -> VectorCombiners::borLongs;
                case BXOR -> VectorCombiners::bxorLongs;
                default -> null;
            };
            case FLOAT -> switch (op) {
                case SUM -> VectorCombiners::sumFloats;
                case PROD -> VectorCombiners::prodFloats;
                case MIN -> VectorCombiners::minFloats;
                case MAX -> VectorCombiners::maxFloats;
                default -> null;
            };
            case DOUBLE -> switch (op) {
                case SUM -> VectorCombiners::sumDoubles;
                case PROD -> VectorCombiners::prodDoubles;
                case MIN -> VectorCombiners::minDoubles;
                case MAX -> VectorCombiners::maxDoubles;
                default -> null;
            };
            default -> null;
        };
        return kernel == null ? null : combiner(kernel, type.sizeBytes(), staged);
    }

    private static Combiner combiner(Kernel kernel, int size, Combiner staged) {
        return (in, inOffset, inout, inoutOffset, count) -> {
            if (count * size < MIN_BYTES || !in.isNative() || !inout.isNative()) {
                staged.combine(in, inOffset, inout, inoutOffset, count);
                return;
            }
            Bounds.check(in, inOffset, inout, inoutOffset, count, size);
            long done = kernel.apply(in, inOffset, inout, inoutOffset, count * size);
            if (done < count * size) {
                staged.combine(in, inOffset + done, inout, inoutOffset + done, count - done / size);
            }
        };
    }

    private static long sumInts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = INTS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(INTS, in, inOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long prodInts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = INTS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(INTS, in, inOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long minInts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = INTS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(INTS, in, inOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long maxInts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = INTS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(INTS, in, inOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long bandInts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = INTS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(INTS, in, inOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long borInts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = INTS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(INTS, in, inOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long bxorInts(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = INTS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(INTS, in, inOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, inout, inoutOffset + i, ORDER);
            a.lanewise(VectorOperators.XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long sumLongs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = LONGS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(LONGS, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long prodLongs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = LONGS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(LONGS, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long minLongs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = LONGS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(LONGS, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long maxLongs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = LONGS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(LONGS, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long bandLongs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = LONGS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(LONGS, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, inout, inoutOffset + i, ORDER);
            a.and(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long borLongs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = LONGS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(LONGS, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, inout, inoutOffset + i, ORDER);
            a.or(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long bxorLongs(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = LONGS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            LongVector a = LongVector.fromMemorySegment(LONGS, in, inOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, inout, inoutOffset + i, ORDER);
            a.lanewise(VectorOperators.XOR, b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long sumFloats(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = FLOATS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(FLOATS, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(FLOATS, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long prodFloats(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = FLOATS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(FLOATS, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(FLOATS, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long minFloats(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = FLOATS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(FLOATS, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(FLOATS, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long maxFloats(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = FLOATS.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            FloatVector a = FloatVector.fromMemorySegment(FLOATS, in, inOffset + i, ORDER);
            FloatVector b = FloatVector.fromMemorySegment(FLOATS, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long sumDoubles(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = DOUBLES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, inout, inoutOffset + i, ORDER);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long prodDoubles(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = DOUBLES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, inout, inoutOffset + i, ORDER);
            a.mul(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long minDoubles(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = DOUBLES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, inout, inoutOffset + i, ORDER);
            a.min(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

    private static long maxDoubles(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        long step = DOUBLES.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, in, inOffset + i, ORDER);
            DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, inout, inoutOffset + i, ORDER);
            a.max(b).intoMemorySegment(inout, inoutOffset + i, ORDER);
        }
        return end;
    }

}
