package io.railcoll.reduce;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;

import java.lang.foreign.MemorySegment;

/**
 * The combiners written with the Vector API ({@code jdk.incubator.vector}), for the JVMs that run with
 * {@code --add-modules jdk.incubator.vector} (decision 0210): {@code inout[i] = in[i] op inout[i]} read and written
 * straight from and to both segments, a whole vector of the platform's preferred width per step. C2's
 * auto-vectorisation cannot do this (it does not vectorise a loop over two segments, which might alias), so the
 * {@link StagedCombiners} copy the left operand into a heap array first; here there is no staging pass, and a combine
 * runs at about the speed of a copy.
 *
 * <p>Every predefined operator on byte, short, char, int, long, float, double and boolean has a kernel (decisions 0210
 * and 0213); MINLOC and MAXLOC keep their loops. Native segments of at least {@link #MIN_BYTES} take this path (the
 * elements after the last whole vector too, one at a time in the kernel); shorter vectors and heap segments go to the
 * staged combiner given. The Vector API reads heap segments over byte arrays too, but telling those from other heap
 * segments takes {@link MemorySegment#heapBase()}, whose {@code Optional} a busy JVM did not always keep off the heap
 * (the allocation check of the unit tests failed in CI with 16 bytes per segment and call). Each kernel is element-wise, with Java's
 * own operations (wrapping integer arithmetic, unsigned order for char, {@link Math#min}/{@link Math#max} on floating
 * point, 1 or 0 from a logical operator), so its bytes are those of the staged loop.
 *
 * <p>Each (type, operator) has its own kernel, written out, in one class per lane type ({@link ByteVectorKernels},
 * {@link ShortVectorKernels}, {@link IntVectorKernels}, {@link LongVectorKernels}, {@link FloatVectorKernels},
 * {@link DoubleVectorKernels}; CHAR uses the short kernels but for min and max, BOOLEAN the byte kernels' logical
 * ones): C2 turns a vector operation into instructions only where its operator is a constant in the code it
 * compiles, and a kernel's loop is compiled by itself (on-stack replacement), so one loop taking the operator as an
 * argument would run boxed and far slower than the staged loop. This class holds the table and the checks around a
 * kernel. Loaded only when the module is present (see {@link Combiners}). Stateless; any thread.
 */
final class VectorCombiners {
    /**
     * Vectors shorter than this (four of the platform's vectors: 256 bytes with AVX-512) take the staged loop. Such a
     * kernel runs one to three steps a call, so it is compiled by C2 only after thousands of calls (a longer one is
     * compiled early by its loop's back branches), and until then the Vector API boxes every vector: hundreds of bytes
     * a call, which the per-call allocation check saw as 288 bytes per 64-byte all-reduce on a loaded host. The staged
     * loop is as quick at these sizes.
     */
    private static final long MIN_BYTES = 4L * IntVector.SPECIES_PREFERRED.vectorByteSize();

    /** Combines the {@code bytes} bytes (whole elements) from the two offsets on, whose ranges are checked. */
    @FunctionalInterface
    private interface Kernel {
        void apply(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes);
    }

    private VectorCombiners() {
    }

    /** The vector combiner for {@code op} on {@code type}, falling back on {@code staged}; null where there is none. */
    static Combiner of(ElementType type, PredefinedOperator op, Combiner staged) {
        if (LongVector.SPECIES_PREFERRED.length() < 2) {
            return null; // a platform without vector registers of at least 128 bits: C2's loops are as good
        }
        Kernel kernel = switch (type) {
            case BYTE -> switch (op) {
                case SUM -> ByteVectorKernels::sum;
                case PROD -> ByteVectorKernels::prod;
                case MIN -> ByteVectorKernels::min;
                case MAX -> ByteVectorKernels::max;
                case BAND -> ByteVectorKernels::band;
                case BOR -> ByteVectorKernels::bor;
                case BXOR -> ByteVectorKernels::bxor;
                case LAND -> ByteVectorKernels::land;
                case LOR -> ByteVectorKernels::lor;
                case LXOR -> ByteVectorKernels::lxor;
                default -> null;
            };
            // BOOLEAN is a byte, zero or not, and its staged loops are the byte loops' logical ones.
            case BOOLEAN -> switch (op) {
                case LAND -> ByteVectorKernels::land;
                case LOR -> ByteVectorKernels::lor;
                case LXOR -> ByteVectorKernels::lxor;
                default -> null;
            };
            case SHORT -> switch (op) {
                case SUM -> ShortVectorKernels::sum;
                case PROD -> ShortVectorKernels::prod;
                case MIN -> ShortVectorKernels::min;
                case MAX -> ShortVectorKernels::max;
                case BAND -> ShortVectorKernels::band;
                case BOR -> ShortVectorKernels::bor;
                case BXOR -> ShortVectorKernels::bxor;
                case LAND -> ShortVectorKernels::land;
                case LOR -> ShortVectorKernels::lor;
                case LXOR -> ShortVectorKernels::lxor;
                default -> null;
            };
            // CHAR: the short kernels give the same 16 bits for every operator but the unsigned min and max.
            case CHAR -> switch (op) {
                case SUM -> ShortVectorKernels::sum;
                case PROD -> ShortVectorKernels::prod;
                case MIN -> ShortVectorKernels::minChars;
                case MAX -> ShortVectorKernels::maxChars;
                case BAND -> ShortVectorKernels::band;
                case BOR -> ShortVectorKernels::bor;
                case BXOR -> ShortVectorKernels::bxor;
                case LAND -> ShortVectorKernels::land;
                case LOR -> ShortVectorKernels::lor;
                case LXOR -> ShortVectorKernels::lxor;
                default -> null;
            };
            case INT -> switch (op) {
                case SUM -> IntVectorKernels::sum;
                case PROD -> IntVectorKernels::prod;
                case MIN -> IntVectorKernels::min;
                case MAX -> IntVectorKernels::max;
                case BAND -> IntVectorKernels::band;
                case BOR -> IntVectorKernels::bor;
                case BXOR -> IntVectorKernels::bxor;
                case LAND -> IntVectorKernels::land;
                case LOR -> IntVectorKernels::lor;
                case LXOR -> IntVectorKernels::lxor;
                default -> null;
            };
            case LONG -> switch (op) {
                case SUM -> LongVectorKernels::sum;
                case PROD -> LongVectorKernels::prod;
                case MIN -> LongVectorKernels::min;
                case MAX -> LongVectorKernels::max;
                case BAND -> LongVectorKernels::band;
                case BOR -> LongVectorKernels::bor;
                case BXOR -> LongVectorKernels::bxor;
                case LAND -> LongVectorKernels::land;
                case LOR -> LongVectorKernels::lor;
                case LXOR -> LongVectorKernels::lxor;
                default -> null;
            };
            case FLOAT -> switch (op) {
                case SUM -> FloatVectorKernels::sum;
                case PROD -> FloatVectorKernels::prod;
                case MIN -> FloatVectorKernels::min;
                case MAX -> FloatVectorKernels::max;
                default -> null;
            };
            case DOUBLE -> switch (op) {
                case SUM -> DoubleVectorKernels::sum;
                case PROD -> DoubleVectorKernels::prod;
                case MIN -> DoubleVectorKernels::min;
                case MAX -> DoubleVectorKernels::max;
                default -> null;
            };
            default -> null; // the pair types of MINLOC and MAXLOC: a value and an index, not lanes of one type
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
            kernel.apply(in, inOffset, inout, inoutOffset, count * size);
        };
    }
}
