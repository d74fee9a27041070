package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * MINLOC and MAXLOC on the (value, int index) pairs of {@link ElementType} (layouts there). The pair whose value
 * wins is kept whole; on equal values the one with the lower index, so the operator is commutative and associative,
 * as MPI defines it. For FLOAT_INT and DOUBLE_INT "wins" follows {@link Math#min(double, double)}: a NaN value beats
 * any number, and -0.0 is less than +0.0; all NaNs are equal. These loops read both segments directly: a pair's
 * choice is a branch, which C2 does not vectorise anyway. Stateless; any thread.
 */
final class PairLoops {

    private PairLoops() {
    }

    static Combiner of(ElementType type, boolean max) {
        int size = type.sizeBytes();
        return switch (type) {
            case INT_INT -> (in, io, inout, oo, count) -> {
                Bounds.check(in, io, inout, oo, count, size);
                for (long i = 0; i < count; i++) {
                    long a = io + i * size;
                    long b = oo + i * size;
                    int av = in.get(JAVA_INT_UNALIGNED, a);
                    int bv = inout.get(JAVA_INT_UNALIGNED, b);
                    int order = max ? Integer.compare(bv, av) : Integer.compare(av, bv);
                    keepWinner(in, a, inout, b, 4, order, av);
                }
            };
            case LONG_INT -> (in, io, inout, oo, count) -> {
                Bounds.check(in, io, inout, oo, count, size);
                for (long i = 0; i < count; i++) {
                    long a = io + i * size;
                    long b = oo + i * size;
                    long av = in.get(JAVA_LONG_UNALIGNED, a);
                    long bv = inout.get(JAVA_LONG_UNALIGNED, b);
                    int order = max ? Long.compare(bv, av) : Long.compare(av, bv);
                    if (order < 0 || order == 0 && index(in, a, 8) < index(inout, b, 8)) {
                        inout.set(JAVA_LONG_UNALIGNED, b, av);
                        inout.set(JAVA_INT_UNALIGNED, b + 8, index(in, a, 8));
                    }
                }
            };
            case FLOAT_INT -> (in, io, inout, oo, count) -> {
                Bounds.check(in, io, inout, oo, count, size);
                for (long i = 0; i < count; i++) {
                    long a = io + i * size;
                    long b = oo + i * size;
                    float av = in.get(JAVA_FLOAT_UNALIGNED, a);
                    float bv = inout.get(JAVA_FLOAT_UNALIGNED, b);
                    int order = order(av, bv, max);
                    if (order < 0 || order == 0 && index(in, a, 4) < index(inout, b, 4)) {
                        inout.set(JAVA_FLOAT_UNALIGNED, b, av);
                        inout.set(JAVA_INT_UNALIGNED, b + 4, index(in, a, 4));
                    }
                }
            };
            case DOUBLE_INT -> (in, io, inout, oo, count) -> {
                Bounds.check(in, io, inout, oo, count, size);
                for (long i = 0; i < count; i++) {
                    long a = io + i * size;
                    long b = oo + i * size;
                    double av = in.get(JAVA_DOUBLE_UNALIGNED, a);
                    double bv = inout.get(JAVA_DOUBLE_UNALIGNED, b);
                    int order = order(av, bv, max);
                    if (order < 0 || order == 0 && index(in, a, 8) < index(inout, b, 8)) {
                        inout.set(JAVA_DOUBLE_UNALIGNED, b, av);
                        inout.set(JAVA_INT_UNALIGNED, b + 8, index(in, a, 8));
                    }
                }
            };
            default -> throw new IllegalArgumentException(type + " is not a (value, index) pair type");
        };
    }

    private static void keepWinner(MemorySegment in, long a, MemorySegment inout, long b, int indexAt, int order,
                                   int av) {
        if (order < 0 || order == 0 && index(in, a, indexAt) < index(inout, b, indexAt)) {
            inout.set(JAVA_INT_UNALIGNED, b, av);
            inout.set(JAVA_INT_UNALIGNED, b + indexAt, index(in, a, indexAt));
        }
    }

    private static int index(MemorySegment segment, long pair, int indexAt) {
        return segment.get(JAVA_INT_UNALIGNED, pair + indexAt);
    }

    /** Negative when {@code a} wins over {@code b}, positive when {@code b} wins, 0 when equal (NaNs all equal). */
    static int order(double a, double b, boolean max) {
        boolean aNaN = Double.isNaN(a);
        boolean bNaN = Double.isNaN(b);
        if (aNaN || bNaN) {
            return aNaN == bNaN ? 0 : aNaN ? -1 : 1;
        }
        return max ? Double.compare(b, a) : Double.compare(a, b);
    }
}
