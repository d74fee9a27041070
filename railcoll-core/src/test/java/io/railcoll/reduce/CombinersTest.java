package io.railcoll.reduce;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every (element type, operator) pair against a scalar reference written independently of the loops (element by
 * element, through {@code long}/{@code double} arithmetic and explicit rules for NaN, -0.0 and ties), on seeded
 * random data with special values, for counts 0, 1, odd, around the staging chunk and larger, unaligned offsets,
 * native and heap segments, and in == inout; both the combiners {@link Combiners#of} gives (in this JVM, which runs
 * with the Vector API's module, those of {@link VectorCombiners} where there is one) and the staged loops. Pairs that
 * are not defined must be refused with a message naming them.
 */
class CombinersTest {

    /**
     * Around the staging chunk, around one vector (64 bytes with AVX-512: 8 to 64 elements) and around the Vector
     * API's shortest combine (256 bytes: 32, 64, 128 or 256 elements), and one large odd count.
     */
    private static final long[] COUNTS = {0, 1, 2, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
            Staging.CHUNK_ELEMENTS - 1, Staging.CHUNK_ELEMENTS, Staging.CHUNK_ELEMENTS + 1, 3 * Staging.CHUNK_ELEMENTS + 17,
            20_011};

    @Test
    void everyDefinedPairMatchesTheReference() {
        assertEquals(69, checkEveryPair(false), "defined pairs");
    }

    @Test
    void everyStagedLoopMatchesTheReference() {
        assertEquals(69, checkEveryPair(true), "defined pairs");
    }

    /** The unit tests run with the Vector API (the module's pom): its combiners, not the staged loops, are checked. */
    @Test
    void theVectorApiCombinesWhereItCan() {
        assertTrue(Combiners.vectorApi(), "this test JVM must run with --add-modules jdk.incubator.vector");
        int vector = 0;
        for (ElementType type : ElementType.values()) {
            for (PredefinedOperator op : PredefinedOperator.values()) {
                if (Reference.defined(type, op) && Combiners.of(type, op) != Combiners.staged(type, op)) {
                    vector++;
                }
            }
        }
        // Every pair but MINLOC and MAXLOC: 10 operators on byte, short, char, int and long, 4 on float and double, the
        // 3 logical ones on boolean.
        assertEquals(61, vector, "pairs combined with the Vector API");
        assertThrows(IllegalArgumentException.class, () -> Combiners.staged(ElementType.FLOAT, PredefinedOperator.BXOR));
    }

    private static int checkEveryPair(boolean staged) {
        int checked = 0;
        for (ElementType type : ElementType.values()) {
            for (PredefinedOperator op : PredefinedOperator.values()) {
                if (!Reference.defined(type, op)) {
                    continue;
                }
                for (long count : COUNTS) {
                    for (int layout = 0; layout < 4; layout++) {
                        check(type, op, staged, count, layout, 1000L * type.ordinal() + 31L * op.ordinal() + count);
                    }
                }
                checked++;
            }
        }
        return checked;
    }

    /**
     * layout 0: two native segments, offsets 3 and 5; 1: heap segments over a byte and a long array, offsets 0; 2: in
     * and inout the same range; 3: heap segments over byte arrays, offsets 3 and 5 (heap segments: the staged loops).
     */
    private static void check(ElementType type, PredefinedOperator op, boolean staged, long count, int layout,
                              long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int size = type.sizeBytes();
        long bytes = count * size;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in;
            MemorySegment inout;
            long inOffset;
            long inoutOffset;
            switch (layout) {
                case 0 -> {
                    in = arena.allocate(bytes + 8);
                    inout = arena.allocate(bytes + 8);
                    inOffset = 3;
                    inoutOffset = 5;
                }
                case 1 -> {
                    in = MemorySegment.ofArray(new byte[(int) bytes]);
                    inout = MemorySegment.ofArray(new long[(int) (bytes + 7) / 8]);
                    inOffset = 0;
                    inoutOffset = 0;
                }
                case 2 -> {
                    in = arena.allocate(bytes + 8);
                    inout = in;
                    inOffset = 1;
                    inoutOffset = 1;
                }
                default -> {
                    in = MemorySegment.ofArray(new byte[(int) bytes + 8]);
                    inout = MemorySegment.ofArray(new byte[(int) bytes + 8]);
                    inOffset = 3;
                    inoutOffset = 5;
                }
            }
            for (long i = 0; i < count; i++) {
                Reference.randomElement(type, random, in, inOffset + i * size);
                if (inout != in) {
                    Reference.randomElement(type, random, inout, inoutOffset + i * size);
                }
            }
            byte[] left = in.asSlice(inOffset, bytes).toArray(JAVA_BYTE);
            byte[] right = inout.asSlice(inoutOffset, bytes).toArray(JAVA_BYTE);
            byte[] expected = Reference.combine(type, op, left, right, count);
            (staged ? Combiners.staged(type, op) : Combiners.of(type, op)).combine(in, inOffset, inout, inoutOffset, count);
            byte[] actual = inout.asSlice(inoutOffset, bytes).toArray(JAVA_BYTE);
            if (!java.util.Arrays.equals(expected, actual)) {
                for (long i = 0; i < count; i++) {
                    MemorySegment e = MemorySegment.ofArray(expected).asSlice(i * size, size);
                    MemorySegment a = MemorySegment.ofArray(actual).asSlice(i * size, size);
                    if (e.mismatch(a) >= 0) {
                        fail((staged ? "staged " : "") + op + " on " + type + ", count " + count + ", layout " + layout + ": element " + i
                                + " of " + Reference.describe(type, MemorySegment.ofArray(left), i * size) + " op "
                                + Reference.describe(type, MemorySegment.ofArray(right), i * size) + " gave "
                                + Reference.describe(type, a, 0) + ", expected " + Reference.describe(type, e, 0));
                    }
                }
            }
            if (layout == 0 || layout == 3) {
                assertEquals(0, inout.get(JAVA_BYTE, inoutOffset - 1), "byte before the range untouched");
                assertEquals(0, inout.get(JAVA_BYTE, inoutOffset + bytes), "byte after the range untouched");
            }
        }
    }

    @Test
    void undefinedPairsAreRefusedByName() {
        List<String> refused = new ArrayList<>();
        for (ElementType type : ElementType.values()) {
            for (PredefinedOperator op : PredefinedOperator.values()) {
                assertEquals(Reference.defined(type, op), Combiners.defined(type, op), op + " on " + type);
                if (!Reference.defined(type, op)) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> Combiners.of(type, op));
                    assertTrue(e.getMessage().startsWith("operator " + op.id() + " is not defined on " + type + ": "),
                            e.getMessage());
                    refused.add(op + "/" + type);
                }
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Combiners.of(ElementType.FLOAT, PredefinedOperator.BXOR));
        assertEquals("operator bxor is not defined on FLOAT: bxor takes BYTE, SHORT, CHAR, INT, LONG", e.getMessage());
        assertTrue(refused.contains("SUM/BOOLEAN") && refused.contains("MINLOC/INT") && refused.contains("SUM/INT_INT"),
                refused.toString());
    }

    @Test
    void minAndMaxFollowMathMinOnNanAndNegativeZero() {
        float[] left = {Float.NaN, 1f, -0.0f, 0.0f, -0.0f, Float.NEGATIVE_INFINITY, 2f};
        float[] right = {1f, Float.NaN, 0.0f, -0.0f, -0.0f, Float.NaN, 2f};
        float[] min = combineFloats(PredefinedOperator.MIN, left, right);
        float[] max = combineFloats(PredefinedOperator.MAX, left, right);
        assertTrue(Float.isNaN(min[0]) && Float.isNaN(min[1]) && Float.isNaN(min[5]));
        assertTrue(Float.isNaN(max[0]) && Float.isNaN(max[1]) && Float.isNaN(max[5]));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(min[2]));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(min[3]));
        assertEquals(Float.floatToRawIntBits(0.0f), Float.floatToRawIntBits(max[2]));
        assertEquals(Float.floatToRawIntBits(0.0f), Float.floatToRawIntBits(max[3]));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(max[4]));
        assertEquals(2f, min[6]);
    }

    private static float[] combineFloats(PredefinedOperator op, float[] left, float[] right) {
        float[] inout = right.clone();
        Combiners.of(ElementType.FLOAT, op).combine(MemorySegment.ofArray(left), 0, MemorySegment.ofArray(inout), 0,
                left.length);
        return inout;
    }

    @Test
    void minlocAndMaxlocKeepTheLowerIndexOnTiesAndLetNanWin() {
        // (value, index) pairs of DOUBLE_INT: 16 bytes each, index at 8.
        double[][] left = {{5, 7}, {5, 2}, {Double.NaN, 9}, {1, 4}, {-0.0, 6}, {0.0, 6}, {Double.NaN, 8}};
        double[][] right = {{5, 3}, {5, 8}, {-1e300, 1}, {Double.NaN, 5}, {0.0, 1}, {-0.0, 2}, {Double.NaN, 3}};
        int[][] minloc = {{3}, {2}, {9}, {5}, {6}, {2}, {3}};
        int[][] maxloc = {{3}, {2}, {9}, {5}, {1}, {6}, {3}};
        for (PredefinedOperator op : new PredefinedOperator[] {PredefinedOperator.MINLOC, PredefinedOperator.MAXLOC}) {
            MemorySegment in = MemorySegment.ofArray(new byte[16 * left.length]);
            MemorySegment inout = MemorySegment.ofArray(new byte[16 * left.length]);
            for (int i = 0; i < left.length; i++) {
                in.set(JAVA_DOUBLE_UNALIGNED, 16L * i, left[i][0]);
                in.set(JAVA_INT_UNALIGNED, 16L * i + 8, (int) left[i][1]);
                inout.set(JAVA_DOUBLE_UNALIGNED, 16L * i, right[i][0]);
                inout.set(JAVA_INT_UNALIGNED, 16L * i + 8, (int) right[i][1]);
            }
            Combiners.of(ElementType.DOUBLE_INT, op).combine(in, 0, inout, 0, left.length);
            int[][] expected = op == PredefinedOperator.MINLOC ? minloc : maxloc;
            for (int i = 0; i < left.length; i++) {
                assertEquals(expected[i][0], inout.get(JAVA_INT_UNALIGNED, 16L * i + 8), op + " pair " + i);
            }
            double negZero = inout.get(JAVA_DOUBLE_UNALIGNED, 16L * 4);
            assertEquals(Double.doubleToRawLongBits(op == PredefinedOperator.MINLOC ? -0.0 : 0.0),
                    Double.doubleToRawLongBits(negZero), op + " keeps the sign of the winning zero");
        }
    }

    @Test
    void aUserOperatorGetsTheLeftOperandAsIn() {
        // x op y = 2x + y: neither commutative nor symmetric, so swapped operands show.
        UserOperator twiceLeftPlusRight = new UserOperator("2x+y", false, (in, io, inout, oo, count) -> {
            for (long i = 0; i < count; i++) {
                inout.set(JAVA_INT_UNALIGNED, oo + 4 * i,
                        2 * in.get(JAVA_INT_UNALIGNED, io + 4 * i) + inout.get(JAVA_INT_UNALIGNED, oo + 4 * i));
            }
        });
        int[] left = {1, 2, 3};
        int[] right = {10, 20, 30};
        Combiners.of(ElementType.INT, twiceLeftPlusRight).combine(MemorySegment.ofArray(left), 0,
                MemorySegment.ofArray(right), 0, 3);
        assertArrayEquals(new int[] {12, 24, 36}, right);
        assertFalse(twiceLeftPlusRight.commutative());
        assertTrue(Combiners.defined(ElementType.DOUBLE_INT, twiceLeftPlusRight));
        assertThrows(IndexOutOfBoundsException.class, () -> Combiners.of(ElementType.INT, twiceLeftPlusRight)
                .combine(MemorySegment.ofArray(left), 0, MemorySegment.ofArray(right), 4, 3));
    }

    @Test
    void aRangeOutsideASegmentChangesNothing() {
        int[] left = {1, 2, 3, 4};
        int[] right = {1, 1, 1};
        Combiner sum = Combiners.of(ElementType.INT, PredefinedOperator.SUM);
        assertThrows(IndexOutOfBoundsException.class,
                () -> sum.combine(MemorySegment.ofArray(left), 0, MemorySegment.ofArray(right), 0, 4));
        assertThrows(IllegalArgumentException.class,
                () -> sum.combine(MemorySegment.ofArray(left), 0, MemorySegment.ofArray(right), 0, -1));
        assertThrows(IllegalArgumentException.class,
                () -> sum.combine(MemorySegment.ofArray(left), 0, MemorySegment.ofArray(right).asReadOnly(), 0, 1));
        assertArrayEquals(new int[] {1, 1, 1}, right);
    }

    @Test
    void combiningAllocatesNothingAfterTheFirstCall() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(64 * 1024);
            MemorySegment inout = arena.allocate(64 * 1024);
            // Heap segments over byte arrays too: the Vector API's combiners hand those to the staged loops.
            MemorySegment heapIn = MemorySegment.ofArray(new byte[64 * 1024]);
            MemorySegment heapInout = MemorySegment.ofArray(new byte[64 * 1024]);
            List<Combiner> combiners = new ArrayList<>();
            for (ElementType type : ElementType.values()) {
                for (PredefinedOperator op : PredefinedOperator.values()) {
                    if (Combiners.defined(type, op)) {
                        combiners.add(Combiners.of(type, op));
                    }
                }
            }
            // An array and an index: an iterator here would be the test's own allocation (measured: 32 bytes a pass).
            Combiner[] all = combiners.toArray(new Combiner[0]);
            long allocated = Long.MAX_VALUE;
            // Until the loops are compiled: the Vector API boxes its vectors in the interpreter and C1, and only C2
            // (which compiles a kernel after some thousands of calls) keeps them in registers. C2 compiling the 22
            // vector kernels of decision 0210 took 30 rounds (8 s) on an idle 2-processor host and more than 40 under
            // CI's load; the 50 of decision 0213 (61 pairs) took 8-12 s on that host under load 3-4. So the rounds run
            // against a deadline, not a count: a loop that still allocates after it fails.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(150);
            while (allocated >= 1024 && System.nanoTime() < deadline) {
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 100; i++) {
                    for (int c = 0; c < all.length; c++) {
                        all[c].combine(in, 0, inout, 0, 1500);
                        all[c].combine(heapIn, 0, heapInout, 0, 1500);
                    }
                }
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }
            // 100 x 69 x 2 calls in the last round; less than one byte per call allows a stray object of the JVM's own.
            assertTrue(allocated < 1024, "combining allocated " + allocated + " bytes in 13800 calls");
        }
    }

    @Test
    void sizesAndByteCounts() {
        assertEquals(16, ElementType.LONG_INT.sizeBytes());
        assertEquals(8, ElementType.FLOAT_INT.sizeBytes());
        assertEquals(2, ElementType.CHAR.sizeBytes());
        assertEquals(24, ElementType.DOUBLE.bytes(3));
        assertThrows(ArithmeticException.class, () -> ElementType.DOUBLE.bytes(Long.MAX_VALUE / 4));
    }

    /** The scalar reference: one element at a time, in long or double arithmetic, narrowed at the end. */
    static final class Reference {

        /**
         * Narrowed to byte, short or char: each type's least and greatest value (0x80/0x7F, 0x8000/0x7FFF, 0/0xFFFF),
         * -1, 1, and the other type's bounds, where signed and unsigned order disagree.
         */
        private static final int[] EXTREMES = {Byte.MIN_VALUE, Byte.MAX_VALUE, Short.MIN_VALUE, Short.MAX_VALUE,
                Character.MAX_VALUE, -1, 1, 0xFF, 0x80, 0x7FFF};

        static boolean defined(ElementType type, PredefinedOperator op) {
            return switch (op) {
                case SUM, PROD, MIN, MAX -> type.kind() == ElementType.Kind.INTEGER
                        || type.kind() == ElementType.Kind.FLOATING;
                case LAND, LOR, LXOR -> type.kind() == ElementType.Kind.INTEGER || type == ElementType.BOOLEAN;
                case BAND, BOR, BXOR -> type.kind() == ElementType.Kind.INTEGER;
                case MINLOC, MAXLOC -> type.kind() == ElementType.Kind.PAIR;
            };
        }

        static void randomElement(ElementType type, SplittableRandom random, MemorySegment s, long at) {
            int pick = random.nextInt(16);
            switch (type) {
                // Booleans too take any byte: every non-zero one is true.
                case BYTE, BOOLEAN -> s.set(JAVA_BYTE, at, (byte) (pick < 3 ? 0 : pick < 7
                        ? EXTREMES[random.nextInt(EXTREMES.length)] : random.nextInt()));
                case SHORT -> s.set(JAVA_SHORT_UNALIGNED, at, (short) (pick < 3 ? 0 : pick < 7
                        ? EXTREMES[random.nextInt(EXTREMES.length)] : random.nextInt()));
                case CHAR -> s.set(JAVA_CHAR_UNALIGNED, at, (char) (pick < 3 ? 0 : pick < 7
                        ? EXTREMES[random.nextInt(EXTREMES.length)] : random.nextInt()));
                case INT -> s.set(JAVA_INT_UNALIGNED, at, pick < 3 ? 0 : pick < 6 ? random.nextInt(5) : random.nextInt());
                case LONG -> s.set(JAVA_LONG_UNALIGNED, at, pick < 3 ? 0 : random.nextLong());
                case FLOAT -> s.set(JAVA_FLOAT_UNALIGNED, at, (float) special(random, pick));
                case DOUBLE -> s.set(JAVA_DOUBLE_UNALIGNED, at, special(random, pick));
                case INT_INT, FLOAT_INT -> {
                    if (type == ElementType.INT_INT) {
                        s.set(JAVA_INT_UNALIGNED, at, random.nextInt(4));
                    } else {
                        s.set(JAVA_FLOAT_UNALIGNED, at, (float) small(random, pick));
                    }
                    s.set(JAVA_INT_UNALIGNED, at + 4, random.nextInt(100));
                }
                case LONG_INT, DOUBLE_INT -> {
                    if (type == ElementType.LONG_INT) {
                        s.set(JAVA_LONG_UNALIGNED, at, random.nextLong(4) - 2);
                    } else {
                        s.set(JAVA_DOUBLE_UNALIGNED, at, small(random, pick));
                    }
                    s.set(JAVA_INT_UNALIGNED, at + 8, random.nextInt(100));
                }
            }
        }

        /** Mostly ordinary numbers; NaN, infinities and both zeros often enough to meet each other. */
        private static double special(SplittableRandom random, int pick) {
            return switch (pick) {
                case 0 -> Double.NaN;
                case 1 -> -0.0;
                case 2 -> 0.0;
                case 3 -> Double.POSITIVE_INFINITY;
                case 4 -> Double.NEGATIVE_INFINITY;
                default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-5, 6));
            };
        }

        /** Few distinct values, so that ties between pairs are common. */
        private static double small(SplittableRandom random, int pick) {
            return switch (pick) {
                case 0 -> Double.NaN;
                case 1 -> -0.0;
                case 2 -> 0.0;
                default -> random.nextInt(3);
            };
        }

        static byte[] combine(ElementType type, PredefinedOperator op, byte[] left, byte[] right, long count) {
            MemorySegment l = MemorySegment.ofArray(left);
            MemorySegment out = MemorySegment.ofArray(right.clone());
            int size = type.sizeBytes();
            for (long i = 0; i < count; i++) {
                long at = i * size;
                switch (type.kind()) {
                    case INTEGER, LOGICAL -> putInteger(type, out, at, integer(op, readInteger(type, l, at),
                            readInteger(type, out, at)));
                    case FLOATING -> {
                        if (type == ElementType.FLOAT) {
                            out.set(JAVA_FLOAT_UNALIGNED, at, floating(op, l.get(JAVA_FLOAT_UNALIGNED, at),
                                    out.get(JAVA_FLOAT_UNALIGNED, at)));
                        } else {
                            out.set(JAVA_DOUBLE_UNALIGNED, at, floating(op, l.get(JAVA_DOUBLE_UNALIGNED, at),
                                    out.get(JAVA_DOUBLE_UNALIGNED, at)));
                        }
                    }
                    case PAIR -> pair(type, op, l, out, at);
                }
            }
            return out.toArray(JAVA_BYTE);
        }

        private static long readInteger(ElementType type, MemorySegment s, long at) {
            return switch (type) {
                case BYTE, BOOLEAN -> s.get(JAVA_BYTE, at);
                case SHORT -> s.get(JAVA_SHORT_UNALIGNED, at);
                case CHAR -> s.get(JAVA_CHAR_UNALIGNED, at);
                case INT -> s.get(JAVA_INT_UNALIGNED, at);
                case LONG -> s.get(JAVA_LONG_UNALIGNED, at);
                default -> throw new IllegalArgumentException(type.name());
            };
        }

        private static void putInteger(ElementType type, MemorySegment s, long at, long v) {
            switch (type) {
                case BYTE, BOOLEAN -> s.set(JAVA_BYTE, at, (byte) v);
                case SHORT -> s.set(JAVA_SHORT_UNALIGNED, at, (short) v);
                case CHAR -> s.set(JAVA_CHAR_UNALIGNED, at, (char) v);
                case INT -> s.set(JAVA_INT_UNALIGNED, at, (int) v);
                case LONG -> s.set(JAVA_LONG_UNALIGNED, at, v);
                default -> throw new IllegalArgumentException(type.name());
            }
        }

        /** On values widened to long (CHAR zero-extended, so its order is unsigned); the low bits are the result. */
        private static long integer(PredefinedOperator op, long a, long b) {
            return switch (op) {
                case SUM -> a + b;
                case PROD -> a * b;
                case MIN -> a <= b ? a : b;
                case MAX -> a >= b ? a : b;
                case BAND -> a & b;
                case BOR -> a | b;
                case BXOR -> a ^ b;
                case LAND -> a != 0 && b != 0 ? 1 : 0;
                case LOR -> a != 0 || b != 0 ? 1 : 0;
                case LXOR -> (a != 0) != (b != 0) ? 1 : 0;
                default -> throw new IllegalArgumentException(op.name());
            };
        }

        private static float floating(PredefinedOperator op, float a, float b) {
            return switch (op) {
                case SUM -> a + b;
                case PROD -> a * b;
                default -> (float) floating(op, (double) a, (double) b);
            };
        }

        /** MIN and MAX spelled out: NaN if either is NaN, -0.0 below +0.0, otherwise the usual order. */
        private static double floating(PredefinedOperator op, double a, double b) {
            if (op == PredefinedOperator.SUM) {
                return a + b;
            }
            if (op == PredefinedOperator.PROD) {
                return a * b;
            }
            if (a != a || b != b) {
                return Double.NaN;
            }
            if (a == 0 && b == 0) {
                boolean aNegative = 1 / a < 0;
                boolean bNegative = 1 / b < 0;
                boolean negative = op == PredefinedOperator.MIN ? aNegative || bNegative : aNegative && bNegative;
                return negative ? -0.0 : 0.0;
            }
            return op == PredefinedOperator.MIN ? (a < b ? a : b) : (a > b ? a : b);
        }

        private static void pair(ElementType type, PredefinedOperator op, MemorySegment l, MemorySegment out, long at) {
            int indexAt = type.sizeBytes() == 16 ? 8 : 4;
            double a = pairValue(type, l, at);
            double b = pairValue(type, out, at);
            int ai = l.get(JAVA_INT_UNALIGNED, at + indexAt);
            int bi = out.get(JAVA_INT_UNALIGNED, at + indexAt);
            boolean leftWins;
            if (a != a || b != b) {
                leftWins = a != a && (b == b || ai < bi);
            } else if (a == b && (a != 0 || (1 / a < 0) == (1 / b < 0))) {
                leftWins = ai < bi;
            } else {
                double best = floating(op == PredefinedOperator.MINLOC ? PredefinedOperator.MIN : PredefinedOperator.MAX,
                        a, b);
                leftWins = Double.doubleToRawLongBits(best) == Double.doubleToRawLongBits(a);
            }
            if (leftWins) {
                MemorySegment.copy(l, at, out, at, indexAt + 4);
            }
        }

        private static double pairValue(ElementType type, MemorySegment s, long at) {
            return switch (type) {
                case INT_INT -> s.get(JAVA_INT_UNALIGNED, at);
                case FLOAT_INT -> s.get(JAVA_FLOAT_UNALIGNED, at);
                case LONG_INT -> s.get(JAVA_LONG_UNALIGNED, at);
                case DOUBLE_INT -> s.get(JAVA_DOUBLE_UNALIGNED, at);
                default -> throw new IllegalArgumentException(type.name());
            };
        }

        static String describe(ElementType type, MemorySegment s, long at) {
            return switch (type.kind()) {
                case INTEGER, LOGICAL -> Long.toString(readInteger(type, s, at));
                case FLOATING -> type == ElementType.FLOAT ? Float.toString(s.get(JAVA_FLOAT_UNALIGNED, at))
                        : Double.toString(s.get(JAVA_DOUBLE_UNALIGNED, at));
                case PAIR -> "(" + pairValue(type, s, at) + ", "
                        + s.get(JAVA_INT_UNALIGNED, at + (type.sizeBytes() == 16 ? 8 : 4)) + ")";
            };
        }
    }
}
