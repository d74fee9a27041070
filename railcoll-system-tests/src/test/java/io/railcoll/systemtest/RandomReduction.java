package io.railcoll.systemtest;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.reduce.UserOperator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The reductions of the random calls: every element type with every predefined operator defined on it, a
 * commutative user operator and a non-commutative one; each rank's contribution as a function of (call salt, rank,
 * element index); and the sequential reference, the contributions folded in rank order 0..n-1 with Java's own
 * arithmetic. Floating-point values are chosen so that the reference is exact in any order (small integers times
 * small powers of two for sums, powers of two for products, anything for minima and maxima), so that every result is
 * compared bit for bit whatever bracketing an algorithm chooses.
 */
final class RandomReduction {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfChar CHAR = ValueLayout.JAVA_CHAR_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /** Composition of affine maps mod 2^32, associative and not commutative (as {@link AllreduceApps#AFFINE}). */
    static final UserOperator AFFINE = AllreduceApps.AFFINE;
    /** A commutative user operator on INT: railcoll may combine it in any order. */
    static final UserOperator USER_SUM = new UserOperator("random-user-sum", true,
            (in, inOff, inout, inoutOff, count) -> {
                for (long i = 0; i < count; i++) {
                    inout.set(INT, inoutOff + 4 * i, in.get(INT, inOff + 4 * i) + inout.get(INT, inoutOff + 4 * i));
                }
            });

    record Case(ElementType type, Operator op) {
        @Override
        public String toString() {
            return op.id() + " on " + type;
        }
    }

    /** Every (type, operator) pair the API defines, and the two user operators. */
    static final List<Case> CASES = cases();

    private static List<Case> cases() {
        List<Case> all = new ArrayList<>();
        for (ElementType t : ElementType.values()) {
            for (PredefinedOperator op : PredefinedOperator.values()) {
                if (defined(t, op)) {
                    all.add(new Case(t, op));
                }
            }
        }
        all.add(new Case(ElementType.LONG, AFFINE));
        all.add(new Case(ElementType.INT, USER_SUM));
        return List.copyOf(all);
    }

    private static boolean defined(ElementType t, PredefinedOperator op) {
        return switch (op) {
            case SUM, PROD, MIN, MAX -> t.kind() == ElementType.Kind.INTEGER || t.kind() == ElementType.Kind.FLOATING;
            case LAND, LOR, LXOR -> t.kind() == ElementType.Kind.INTEGER || t.kind() == ElementType.Kind.LOGICAL;
            case BAND, BOR, BXOR -> t.kind() == ElementType.Kind.INTEGER;
            case MINLOC, MAXLOC -> t.kind() == ElementType.Kind.PAIR;
        };
    }

    private RandomReduction() {
    }

    static Case pick(SplittableRandom rnd) {
        // One call in six the non-commutative operator: the rank-order paths are the rarest.
        if (rnd.nextInt(6) == 0) {
            return new Case(ElementType.LONG, AFFINE);
        }
        return CASES.get(rnd.nextInt(CASES.size()));
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }

    private static long hash(long salt, int rank, long i) {
        return mix(salt * 0x9E3779B97F4A7C15L + rank * 0x632BE59BD9B4E019L + i);
    }

    /** Writes rank {@code rank}'s elements [from, from+count) of the vector to {@code seg} from byte 0; padding gets junk. */
    static void fill(Case c, long salt, int rank, long from, long count, MemorySegment seg) {
        int size = c.type().sizeBytes();
        for (long k = 0; k < count; k++) {
            write(c, seg, k * size, value(c, salt, rank, from + k), junk(salt, rank, from + k));
        }
    }

    /**
     * Writes the reference for elements [from, from+count): the contributions of ranks {@code 0..ranks-1} folded in
     * rank order, into {@code out} from byte 0. Padding is not written: it must keep what the buffer held.
     */
    static void expect(Case c, long salt, int ranks, long from, long count, MemorySegment out) {
        int size = c.type().sizeBytes();
        for (long k = 0; k < count; k++) {
            long i = from + k;
            Object acc = value(c, salt, 0, i);
            for (int r = 1; r < ranks; r++) {
                acc = combine(c, acc, value(c, salt, r, i));
            }
            write(c, out, k * size, acc, -1);
        }
    }

    /** Byte {@code b} of an element of {@code c} is padding (neither read nor written by railcoll). */
    static boolean padding(Case c, long b) {
        return c.type().sizeBytes() == 16 && b % 16 >= 12;
    }

    private static long junk(long salt, int rank, long i) {
        return hash(salt + 77, rank, i);
    }

    /** A pair's value and index. */
    private record Pair(double value, long index) {
    }

    /** The contribution: a Long for integer and logical types, a Float or Double, or a Pair. */
    private static Object value(Case c, long salt, int rank, long i) {
        long h = hash(salt, rank, i);
        int pick = (int) ((h >>> 40) & 0xff);
        Operator op = c.op();
        return switch (c.type().kind()) {
            case INTEGER -> {
                if (op == AFFINE) {
                    yield h | 1L << 32;
                }
                if (op instanceof PredefinedOperator p) {
                    yield switch (p) {
                        // Zeros often, so that the logical results are not always true.
                        case LAND, LOR, LXOR -> normalize(c.type(), pick % 3 == 0 ? 0 : h);
                        // Small factors, so that products are not all zero after a few ranks.
                        case PROD -> normalize(c.type(), (h >> 60) | 1);
                        // Few distinct values now and then, so that ties happen.
                        case MIN, MAX -> normalize(c.type(), pick < 64 ? pick % 4 : h);
                        default -> normalize(c.type(), h);
                    };
                }
                yield normalize(c.type(), h);
            }
            case LOGICAL -> (long) (pick % 3 == 0 ? 0 : pick % 3 == 1 ? 1 : 2 + (pick & 0x7d));
            case FLOATING -> {
                double v = floating(op, h, pick);
                yield c.type() == ElementType.FLOAT ? (Object) (float) v : (Object) v;
            }
            case PAIR -> {
                double v = switch (pick % 5) {
                    case 0 -> -1.5;
                    case 1 -> 2.25;
                    case 2 -> -0.0;
                    case 3 -> 0.0;
                    default -> (double) ((h >> 50) % 5);
                };
                if (c.type() == ElementType.INT_INT || c.type() == ElementType.LONG_INT) {
                    v = (long) v;
                }
                // A few indices, so that equal values with equal and with different indices both occur.
                yield new Pair(v, (h >>> 20) % 4 - 1);
            }
        };
    }

    private static double floating(Operator op, long h, int pick) {
        PredefinedOperator p = (PredefinedOperator) op;
        return switch (p) {
            // Small integers times 2^-4..2^4: every partial sum of up to 64 ranks is exact in a float.
            case SUM -> pick % 16 == 0 ? -0.0 : Math.scalb((double) ((h >> 20) % 1000), (int) ((h >>> 8) % 9) - 4);
            // Powers of two (and now and then a zero of either sign): every product is exact.
            case PROD -> pick % 32 == 0 ? (pick % 64 == 0 ? -0.0 : 0.0)
                    : ((h & 1) == 0 ? 1 : -1) * Math.scalb(1.0, (int) ((h >>> 8) % 5) - 2);
            // Minima and maxima are exact for anything: signed zeros, infinities, NaN (which wins).
            case MIN, MAX -> switch (pick % 12) {
                case 0 -> -0.0;
                case 1 -> 0.0;
                case 2 -> pick < 24 ? Double.NaN : 1.0;
                case 3 -> Double.POSITIVE_INFINITY;
                case 4 -> Double.NEGATIVE_INFINITY;
                // Values a float holds exactly, so that FLOAT and DOUBLE share them.
                default -> (double) (float) ((h >> 11) * 0x1.0p-40);
            };
            default -> throw new IllegalStateException(op + " on floating point");
        };
    }

    /** The element as its type stores it: integers wrap, CHAR is unsigned. */
    private static long normalize(ElementType t, long x) {
        return switch (t) {
            case BYTE -> (byte) x;
            case SHORT -> (short) x;
            case CHAR -> (char) x;
            case INT -> (int) x;
            default -> x;
        };
    }

    /** {@code a op b}, a being the lower ranks' part (the left operand). */
    private static Object combine(Case c, Object a, Object b) {
        Operator op = c.op();
        if (op == AFFINE) {
            return AllreduceApps.compose((Long) a, (Long) b);
        }
        if (op == USER_SUM) {
            return normalize(ElementType.INT, (Long) a + (Long) b);
        }
        PredefinedOperator p = (PredefinedOperator) op;
        return switch (c.type().kind()) {
            case INTEGER, LOGICAL -> {
                long x = (Long) a;
                long y = (Long) b;
                long r = switch (p) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> Math.min(x, y);
                    case MAX -> Math.max(x, y);
                    case LAND -> x != 0 && y != 0 ? 1 : 0;
                    case LOR -> x != 0 || y != 0 ? 1 : 0;
                    case LXOR -> (x != 0) != (y != 0) ? 1 : 0;
                    case BAND -> x & y;
                    case BOR -> x | y;
                    case BXOR -> x ^ y;
                    default -> throw new IllegalStateException(p + " on " + c.type());
                };
                yield normalize(c.type(), r);
            }
            case FLOATING -> {
                if (c.type() == ElementType.FLOAT) {
                    float x = (Float) a;
                    float y = (Float) b;
                    yield switch (p) {
                        case SUM -> x + y;
                        case PROD -> x * y;
                        case MIN -> Math.min(x, y);
                        case MAX -> Math.max(x, y);
                        default -> throw new IllegalStateException(p + " on FLOAT");
                    };
                }
                double x = (Double) a;
                double y = (Double) b;
                yield switch (p) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> Math.min(x, y);
                    case MAX -> Math.max(x, y);
                    default -> throw new IllegalStateException(p + " on DOUBLE");
                };
            }
            case PAIR -> {
                Pair x = (Pair) a;
                Pair y = (Pair) b;
                int cmp = Double.compare(x.value, y.value); // -0.0 < +0.0, as the operators have it
                boolean min = p == PredefinedOperator.MINLOC;
                if (cmp == 0) {
                    yield x.index <= y.index ? x : y;
                }
                yield (cmp < 0) == min ? x : y;
            }
        };
    }

    /** Writes {@code v} as an element of {@code c} at byte {@code at}; padding gets {@code junk} unless it is -1. */
    private static void write(Case c, MemorySegment s, long at, Object v, long junk) {
        switch (c.type()) {
            case BYTE, BOOLEAN -> s.set(ValueLayout.JAVA_BYTE, at, (byte) (long) (Long) v);
            case SHORT -> s.set(SHORT, at, (short) (long) (Long) v);
            case CHAR -> s.set(CHAR, at, (char) (long) (Long) v);
            case INT -> s.set(INT, at, (int) (long) (Long) v);
            case LONG -> s.set(LONG, at, (Long) v);
            case FLOAT -> s.set(FLOAT, at, (Float) v);
            case DOUBLE -> s.set(DOUBLE, at, (Double) v);
            case INT_INT, FLOAT_INT, LONG_INT, DOUBLE_INT -> {
                Pair p = (Pair) v;
                switch (c.type()) {
                    case INT_INT -> s.set(INT, at, (int) p.value);
                    case FLOAT_INT -> s.set(FLOAT, at, (float) p.value);
                    case LONG_INT -> s.set(LONG, at, (long) p.value);
                    default -> s.set(DOUBLE, at, p.value);
                }
                int idxAt = c.type().sizeBytes() == 16 ? 8 : 4;
                s.set(INT, at + idxAt, (int) p.index);
                if (c.type().sizeBytes() == 16 && junk != -1) {
                    s.set(INT, at + 12, (int) junk);
                }
            }
        }
    }
}
