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
 * pair's staged loop. The Vector API reads heap segments over byte arrays too, but telling those from other heap
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
 * checks). The staged loop a pair falls back on is called by name in the same way (decision 0241: it used to be a
 * captured combiner called from the shared checks, one type profile for every pair again). What is left to a caller
 * that combines several pairs through one call site is the dispatch at that site.
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

    /**
     * The vector combiner for {@code op} on {@code type}, which hands what it does not vectorise to the pair's staged
     * loop ({@link StagedCombiners}, called by name too); null where there is none.
     */
    static Combiner of(ElementType type, PredefinedOperator op) {
        if (LongVector.SPECIES_PREFERRED.length() < 2) {
            return null; // a platform without vector registers of at least 128 bits: C2's loops are as good
        }
        return switch (type) {
            case BYTE -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.sum(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::sum);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.prod(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::prod);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.min(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::min);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.max(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::max);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.band(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::band);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.bor(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::bor);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.bxor(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::bxor);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.land(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::land);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.lor(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lor);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.lxor(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lxor);
                    }
                };
                default -> null;
            };
            // BOOLEAN is a byte, zero or not, and its staged loops are the byte loops' logical ones.
            case BOOLEAN -> switch (op) {
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.land(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::land);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.lor(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lor);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 1)) {
                        ByteVectorKernels.lxor(in, a, io, b, n);
                    } else {
                        StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lxor);
                    }
                };
                default -> null;
            };
            case SHORT -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.sum(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::sum);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.prod(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::prod);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.min(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::min);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.max(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::max);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.band(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::band);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.bor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::bor);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.bxor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::bxor);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.land(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::land);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.lor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::lor);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.lxor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.shorts(in, a, io, b, n, ShortLoops::lxor);
                    }
                };
                default -> null;
            };
            // CHAR: the short kernels give the same 16 bits for every operator but the unsigned min and max.
            case CHAR -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.sum(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::sum);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.prod(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::prod);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.minChars(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::min);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.maxChars(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::max);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.band(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::band);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.bor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::bor);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.bxor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::bxor);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.land(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::land);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.lor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::lor);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 2)) {
                        ShortVectorKernels.lxor(in, a, io, b, n << 1);
                    } else {
                        StagedCombiners.chars(in, a, io, b, n, CharLoops::lxor);
                    }
                };
                default -> null;
            };
            case INT -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.sum(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::sum);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.prod(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::prod);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.min(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::min);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.max(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::max);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.band(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::band);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.bor(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::bor);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.bxor(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::bxor);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.land(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::land);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.lor(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::lor);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        IntVectorKernels.lxor(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.ints(in, a, io, b, n, IntLoops::lxor);
                    }
                };
                default -> null;
            };
            case LONG -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.sum(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::sum);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.prod(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::prod);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.min(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::min);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.max(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::max);
                    }
                };
                case BAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.band(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::band);
                    }
                };
                case BOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.bor(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::bor);
                    }
                };
                case BXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.bxor(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::bxor);
                    }
                };
                case LAND -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.land(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::land);
                    }
                };
                case LOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.lor(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::lor);
                    }
                };
                case LXOR -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        LongVectorKernels.lxor(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.longs(in, a, io, b, n, LongLoops::lxor);
                    }
                };
                default -> null;
            };
            case FLOAT -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        FloatVectorKernels.sum(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.floats(in, a, io, b, n, FloatLoops::sum);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        FloatVectorKernels.prod(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.floats(in, a, io, b, n, FloatLoops::prod);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        FloatVectorKernels.min(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.floats(in, a, io, b, n, FloatLoops::min);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 4)) {
                        FloatVectorKernels.max(in, a, io, b, n << 2);
                    } else {
                        StagedCombiners.floats(in, a, io, b, n, FloatLoops::max);
                    }
                };
                default -> null;
            };
            case DOUBLE -> switch (op) {
                case SUM -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        DoubleVectorKernels.sum(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::sum);
                    }
                };
                case PROD -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        DoubleVectorKernels.prod(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::prod);
                    }
                };
                case MIN -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        DoubleVectorKernels.min(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::min);
                    }
                };
                case MAX -> (in, a, io, b, n) -> {
                    if (vectorised(in, a, io, b, n, 8)) {
                        DoubleVectorKernels.max(in, a, io, b, n << 3);
                    } else {
                        StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::max);
                    }
                };
                default -> null;
            };
            default -> null; // the pair types of MINLOC and MAXLOC: a value and an index, not lanes of one type
        };
    }

    /**
     * The checks before a kernel, shared by every pair: true where the kernel is to run (the range checked); false
     * where the caller is to hand the combine to its staged loop (a vector under {@link #MIN_BYTES}, or a heap
     * segment), which checks the range itself. The staged loop is not called from here: this method is inlined into
     * every pair's combiner, and a call from it would have one type profile for all pairs (decision 0241).
     */
    private static boolean vectorised(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset,
                                      long count, int size) {
        if (count * size < MIN_BYTES || !in.isNative() || !inout.isNative()) {
            return false;
        }
        Bounds.check(in, inOffset, inout, inoutOffset, count, size);
        return true;
    }
}
