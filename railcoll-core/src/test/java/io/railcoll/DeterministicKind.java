package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.PredefinedOperator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * What the deterministic-reduction tests combine: an element type and operator, the same combination in Java on the
 * elements' bits, values whose sums depend on their order, and the sequential rank-order reference. Shared by
 * {@code DeterministicReductionTest} and the system tests' {@code DeterministicApps} (through core's test-jar).
 */
public enum DeterministicKind {
    FLOAT(ElementType.FLOAT, PredefinedOperator.SUM),
    DOUBLE(ElementType.DOUBLE, PredefinedOperator.SUM),
    AFFINE(ElementType.LONG, ReductionCollectivesTest.AFFINE);

    public final ElementType type;
    public final Operator op;

    DeterministicKind(ElementType type, Operator op) {
        this.type = type;
        this.op = op;
    }

    /** {@code in op inout}, on the elements' bits. */
    public long combine(long in, long inout) {
        return switch (this) {
            case FLOAT -> Float.floatToRawIntBits(Float.intBitsToFloat((int) in) + Float.intBitsToFloat((int) inout))
                    & 0xffffffffL;
            case DOUBLE -> Double.doubleToRawLongBits(Double.longBitsToDouble(in) + Double.longBitsToDouble(inout));
            case AFFINE -> ReductionCollectivesTest.compose(in, inout);
        };
    }

    /** Rank r's element i: sums of these depend on their order. */
    public long value(long seed, int r, long i) {
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + r * 7919L + i);
        double x = (rnd.nextDouble() * 2 - 1) * Math.scalb(1.0, rnd.nextInt(-20, 21));
        return switch (this) {
            case FLOAT -> Float.floatToRawIntBits((float) x) & 0xffffffffL;
            case DOUBLE -> Double.doubleToRawLongBits(x);
            case AFFINE -> rnd.nextLong() | 1L << 32;
        };
    }

    public void set(MemorySegment m, long i, long bits) {
        if (this == FLOAT) {
            m.setAtIndex(ValueLayout.JAVA_INT, i, (int) bits);
        } else {
            m.setAtIndex(ValueLayout.JAVA_LONG, i, bits);
        }
    }

    public long get(MemorySegment m, long i) {
        return this == FLOAT ? m.getAtIndex(ValueLayout.JAVA_INT, i) & 0xffffffffL : m.getAtIndex(ValueLayout.JAVA_LONG, i);
    }

    /** The sequential reference: element i of the fold {@code ((s_from op s_from+1) ...) op s_to} (inclusive). */
    public long fold(long seed, int from, int to, long i) {
        long acc = value(seed, from, i);
        for (int r = from + 1; r <= to; r++) {
            acc = combine(acc, value(seed, r, i));
        }
        return acc;
    }
}
