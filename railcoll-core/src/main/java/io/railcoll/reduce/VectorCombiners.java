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
 * kernel.
 *
 * <p>Each pair's combiner is a lambda of its own that calls its kernel by name (decision 0236), not one combiner body
 * calling a kernel through an interface: such a body has one type profile for the kernel call, shared by every pair,
 * and C2 compiled it with the kernel of the pair it had seen most inlined behind a type check; in a JVM that had
 * combined int sums first, the other pairs failed that check and called their kernels out of line. Written out, a
 * kernel call is bound statically and inlined into its own pair's combiner (with the element size a constant in the
 * checks); what is left to a caller that combines several pairs through one call site is the dispatch at that site.
 * Loaded only when the module is present (see {@link Combiners}). Stateless; any thread.
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

    private VectorCombiners() {
    }

    /** The vector combiner for {@code op} on {@code type}, falling back on {@code staged}; null where there is none. */
    static Combiner of(ElementType type, PredefinedOperator op, Combiner staged) {
        if (LongVector.SPECIES_PREFERRED.length() < 2) {
            return null; // a platform without vector registers of at least 128 bits: C2's loops are as good
        }
        return switch (type) {
            case BYTE -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.sum(in, a, io, b, n);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.prod(in, a, io, b, n);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.min(in, a, io, b, n);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.max(in, a, io, b, n);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.band(in, a, io, b, n);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.bor(in, a, io, b, n);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.bxor(in, a, io, b, n);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.land(in, a, io, b, n);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.lor(in, a, io, b, n);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.lxor(in, a, io, b, n);
                    }
                };
                default -> null;
            };
            // BOOLEAN is a byte, zero or not, and its staged loops are the byte loops' logical ones.
            case BOOLEAN -> switch (op) {
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.land(in, a, io, b, n);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.lor(in, a, io, b, n);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1, staged)) {
                        ByteVectorKernels.lxor(in, a, io, b, n);
                    }
                };
                default -> null;
            };
            case SHORT -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.sum(in, a, io, b, n << 1);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.prod(in, a, io, b, n << 1);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.min(in, a, io, b, n << 1);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.max(in, a, io, b, n << 1);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.band(in, a, io, b, n << 1);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.bor(in, a, io, b, n << 1);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.bxor(in, a, io, b, n << 1);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.land(in, a, io, b, n << 1);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.lor(in, a, io, b, n << 1);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.lxor(in, a, io, b, n << 1);
                    }
                };
                default -> null;
            };
            // CHAR: the short kernels give the same 16 bits for every operator but the unsigned min and max.
            case CHAR -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.sum(in, a, io, b, n << 1);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.prod(in, a, io, b, n << 1);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.minChars(in, a, io, b, n << 1);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.maxChars(in, a, io, b, n << 1);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.band(in, a, io, b, n << 1);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.bor(in, a, io, b, n << 1);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.bxor(in, a, io, b, n << 1);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.land(in, a, io, b, n << 1);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.lor(in, a, io, b, n << 1);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2, staged)) {
                        ShortVectorKernels.lxor(in, a, io, b, n << 1);
                    }
                };
                default -> null;
            };
            case INT -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.sum(in, a, io, b, n << 2);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.prod(in, a, io, b, n << 2);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.min(in, a, io, b, n << 2);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.max(in, a, io, b, n << 2);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.band(in, a, io, b, n << 2);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.bor(in, a, io, b, n << 2);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.bxor(in, a, io, b, n << 2);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.land(in, a, io, b, n << 2);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.lor(in, a, io, b, n << 2);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        IntVectorKernels.lxor(in, a, io, b, n << 2);
                    }
                };
                default -> null;
            };
            case LONG -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.sum(in, a, io, b, n << 3);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.prod(in, a, io, b, n << 3);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.min(in, a, io, b, n << 3);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.max(in, a, io, b, n << 3);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.band(in, a, io, b, n << 3);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.bor(in, a, io, b, n << 3);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.bxor(in, a, io, b, n << 3);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.land(in, a, io, b, n << 3);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.lor(in, a, io, b, n << 3);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        LongVectorKernels.lxor(in, a, io, b, n << 3);
                    }
                };
                default -> null;
            };
            case FLOAT -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        FloatVectorKernels.sum(in, a, io, b, n << 2);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        FloatVectorKernels.prod(in, a, io, b, n << 2);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        FloatVectorKernels.min(in, a, io, b, n << 2);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4, staged)) {
                        FloatVectorKernels.max(in, a, io, b, n << 2);
                    }
                };
                default -> null;
            };
            case DOUBLE -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        DoubleVectorKernels.sum(in, a, io, b, n << 3);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        DoubleVectorKernels.prod(in, a, io, b, n << 3);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        DoubleVectorKernels.min(in, a, io, b, n << 3);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8, staged)) {
                        DoubleVectorKernels.max(in, a, io, b, n << 3);
                    }
                };
                default -> null;
            };
            default -> null; // the pair types of MINLOC and MAXLOC: a value and an index, not lanes of one type
        };
    }

    /**
     * The checks before a kernel, shared by every pair: true where the kernel is to run (the range checked); false
     * where {@code staged} has combined instead (a vector under {@link #MIN_BYTES}, or a heap segment).
     */
    private static boolean vectorised(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset,
                                      long count, int size, Combiner staged) {
        if (count * size < MIN_BYTES || !in.isNative() || !inout.isNative()) {
            staged.combine(in, inOffset, inout, inoutOffset, count);
            return false;
        }
        Bounds.check(in, inOffset, inout, inoutOffset, count, size);
        return true;
    }
}
