package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntBinaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The op mapping, through {@code Comm.reduceLocal} ({@code inOut = in op inOut}, the same plan and combine loops a
 * reduction collective runs): every predefined op on the types it is defined for against a plain Java reference,
 * refusals with {@code MPI.ERR_OP}, and user ops called as the bindings call them.
 */
class OpTest {
    private static final Random RANDOM = new Random(45);

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void integerOpsOnIntMatchJava() throws MPIException {
        check(MPI.SUM, Integer::sum);
        check(MPI.PROD, (a, b) -> a * b);
        check(MPI.MIN, Math::min);
        check(MPI.MAX, Math::max);
        check(MPI.BAND, (a, b) -> a & b);
        check(MPI.BOR, (a, b) -> a | b);
        check(MPI.BXOR, (a, b) -> a ^ b);
        check(MPI.LAND, (a, b) -> a != 0 && b != 0 ? 1 : 0);
        check(MPI.LOR, (a, b) -> a != 0 || b != 0 ? 1 : 0);
        check(MPI.LXOR, (a, b) -> (a != 0) != (b != 0) ? 1 : 0);
    }

    private static void check(Op op, IntBinaryOperator reference) throws MPIException {
        int[] in = new int[9];
        int[] inOut = new int[9];
        for (int i = 0; i < in.length; i++) {
            in[i] = i % 3 == 0 ? 0 : RANDOM.nextInt(41) - 20;
            inOut[i] = i % 4 == 0 ? 0 : RANDOM.nextInt(41) - 20;
        }
        int[] expected = new int[9];
        for (int i = 0; i < 8; i++) {
            expected[i] = reference.applyAsInt(in[i], inOut[i]);
        }
        expected[8] = inOut[8]; // past count: untouched
        Comm.reduceLocal(in, inOut, 8, MPI.INT, op);
        assertArrayEquals(expected, inOut, op.cName);
    }

    @Test
    void byteIsUnsignedUnderMinAndMaxAndWrapsUnderSum() throws MPIException {
        byte[] in = {(byte) 200, 3, (byte) 128, 0};
        byte[] inOut = {100, (byte) 255, 127, 1};
        byte[] max = inOut.clone();
        Comm.reduceLocal(in, max, 4, MPI.BYTE, MPI.MAX);
        assertArrayEquals(new byte[] {(byte) 200, (byte) 255, (byte) 128, 1}, max);
        byte[] min = inOut.clone();
        Comm.reduceLocal(in, min, 4, MPI.BYTE, MPI.MIN);
        assertArrayEquals(new byte[] {100, 3, 127, 0}, min);
        byte[] sum = inOut.clone();
        Comm.reduceLocal(in, sum, 4, MPI.BYTE, MPI.SUM);
        assertArrayEquals(new byte[] {(byte) 300, (byte) 258, (byte) 255, 1}, sum);
        char[] chars = {65535, 1};
        char[] charsOut = {1, 2};
        Comm.reduceLocal(chars, charsOut, 2, MPI.CHAR, MPI.MAX);
        assertArrayEquals(new char[] {65535, 2}, charsOut);
    }

    @Test
    void booleansCombineLogically() throws MPIException {
        boolean[] in = {true, true, false, false};
        boolean[] and = {true, false, true, false};
        boolean[] or = and.clone();
        boolean[] xor = and.clone();
        Comm.reduceLocal(in, and, 4, MPI.BOOLEAN, MPI.LAND);
        Comm.reduceLocal(in, or, 4, MPI.BOOLEAN, MPI.LOR);
        Comm.reduceLocal(in, xor, 4, MPI.BOOLEAN, MPI.LXOR);
        assertArrayEquals(new boolean[] {true, false, false, false}, and);
        assertArrayEquals(new boolean[] {true, true, true, false}, or);
        assertArrayEquals(new boolean[] {false, true, true, false}, xor);
    }

    @Test
    void floatingAndComplexArithmetic() throws MPIException {
        double[] in = {1.5, -2, 0.25};
        double[] inOut = {2, 3, 4};
        Comm.reduceLocal(in, inOut, 3, MPI.DOUBLE, MPI.PROD);
        assertArrayEquals(new double[] {3, -6, 1}, inOut);
        // (1 + 2i)(3 + 4i) = -5 + 10i; sums component-wise
        float[] a = {1, 2, 0.5f, 0};
        float[] prod = {3, 4, 2, 2};
        Comm.reduceLocal(a, prod, 2, MPI.FLOAT_COMPLEX, MPI.PROD);
        assertArrayEquals(new float[] {-5, 10, 1, 1}, prod);
        double[] z = {1, 2};
        double[] zProd = {3, 4};
        Comm.reduceLocal(z, zProd, 1, MPI.DOUBLE_COMPLEX, MPI.PROD);
        assertArrayEquals(new double[] {-5, 10}, zProd);
        double[] zSum = {3, 4};
        Comm.reduceLocal(z, zSum, 1, MPI.DOUBLE_COMPLEX, MPI.SUM);
        assertArrayEquals(new double[] {4, 6}, zSum);
    }

    @Test
    void minlocAndMaxlocOnEveryPairTypeTakeTheLowerIndexOnTies() throws MPIException {
        ByteBuffer in = MPI.newByteBuffer(16);
        ByteBuffer inOut = MPI.newByteBuffer(16);
        // DOUBLE_INT {double @0, int @8}, 16 bytes: (2.0, 7) against (2.0, 3) and (1.0, 9) against (5.0, 1)
        in.putDouble(0, 2.0).putInt(8, 7);
        inOut.putDouble(0, 2.0).putInt(8, 3);
        Comm.reduceLocal(in, inOut, 1, MPI.DOUBLE_INT, MPI.MINLOC);
        assertEquals(2.0, inOut.getDouble(0));
        assertEquals(3, inOut.getInt(8));
        byte[] shortIn = pairs(new short[] {4, 9}, new int[] {1, 2});
        byte[] shortOut = pairs(new short[] {4, 10}, new int[] {0, 5});
        Comm.reduceLocal(shortIn, shortOut, 2, MPI.SHORT_INT, MPI.MAXLOC);
        ByteBuffer r = ByteBuffer.wrap(shortOut).order(ByteOrder.nativeOrder());
        assertEquals(4, r.getShort(0));
        assertEquals(0, r.getInt(4));
        assertEquals(10, r.getShort(8));
        assertEquals(5, r.getInt(12));
        byte[] shortMin = pairs(new short[] {4, 10}, new int[] {0, 5});
        Comm.reduceLocal(shortIn, shortMin, 2, MPI.SHORT_INT, MPI.MINLOC);
        ByteBuffer m = ByteBuffer.wrap(shortMin).order(ByteOrder.nativeOrder());
        assertEquals(9, m.getShort(8));
        assertEquals(2, m.getInt(12));
        ByteBuffer i2 = MPI.newByteBuffer(8).putInt(0, 5).putInt(4, 1);
        ByteBuffer i2Out = MPI.newByteBuffer(8).putInt(0, 6).putInt(4, 0);
        Comm.reduceLocal(i2, i2Out, 1, MPI.INT2, MPI.MAXLOC);
        assertEquals(6, i2Out.getInt(0));
        Comm.reduceLocal(i2, i2Out, 1, MPI.INT2, MPI.MINLOC);
        assertEquals(5, i2Out.getInt(0));
        assertEquals(1, i2Out.getInt(4));
    }

    private static byte[] pairs(short[] values, int[] indexes) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.nativeOrder());
        for (int i = 0; i < values.length; i++) {
            b.putShort(8 * i, values[i]).putInt(8 * i + 4, indexes[i]);
        }
        return b.array();
    }

    @Test
    void opsOnTypesTheyAreNotDefinedForAreRefusedWithErrOp() {
        List<String> refused = new ArrayList<>();
        Object[][] cases = {
            {MPI.BAND, MPI.DOUBLE, new double[1]},
            {MPI.LOR, MPI.FLOAT, new float[1]},
            {MPI.MINLOC, MPI.INT, new int[1]},
            {MPI.SUM, MPI.DOUBLE_INT, new byte[16]},
            {MPI.MAX, MPI.DOUBLE_COMPLEX, new double[2]},
            {MPI.REPLACE, MPI.INT, new int[1]},
            {MPI.NO_OP, MPI.INT, new int[1]},
            {MPI.SUM, MPI.PACKED, new byte[1]},
        };
        for (Object[] c : cases) {
            Op op = (Op) c[0];
            MPIException e = assertThrows(MPIException.class,
                    () -> Comm.reduceLocal(c[2], c[2], 1, (Datatype) c[1], op));
            assertEquals(MPI.ERR_OP, e.getErrorClass(), e.getMessage());
            assertTrue(e.getMessage().startsWith("MPI_ERR_OP: reduceLocal"), e.getMessage());
            refused.add(op.cName);
        }
        assertEquals(cases.length, refused.size());
        Datatype mixed = uncheckedStruct();
        MPIException e = assertThrows(MPIException.class, () -> Comm.reduceLocal(new byte[16], new byte[16], 1, mixed, MPI.SUM));
        assertTrue(e.getMessage().contains("mix several predefined types"), e.getMessage());
    }

    private static Datatype uncheckedStruct() {
        try {
            Datatype t = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
            t.commit();
            return t;
        } catch (MPIException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aUserOpGetsTheCallersDatatypeAndDirectNativeBuffersAndDefaultsToArrays() throws MPIException {
        Datatype pairOfInts = Datatype.createContiguous(2, MPI.INT);
        pairOfInts.commit();
        List<Object> seen = new ArrayList<>();
        // The Object form only: the default ByteBuffer form copies into int[] of count * extent.
        Op op = new Op(new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                seen.add(datatype);
                int[] a = (int[]) inVec;
                int[] b = (int[]) inOutVec;
                assertEquals(count * 2, a.length);
                for (int i = 0; i < a.length; i++) {
                    b[i] = 10 * a[i] + b[i];
                }
            }
        }, false);
        assertTrue(op.isNull(), "a user op is null until its first use");
        assertFalse(op.isCommutative());
        int[] in = {1, 2, 3, 4};
        int[] inOut = {5, 6, 7, 8};
        Comm.reduceLocal(in, inOut, 2, pairOfInts, op);
        assertArrayEquals(new int[] {15, 26, 37, 48}, inOut);
        assertSame(pairOfInts, seen.getFirst());
        assertFalse(op.isNull());
        op.free();
        assertTrue(op.isNull());
        assertEquals(MPI.ERR_OP, assertThrows(MPIException.class, () -> Comm.reduceLocal(in, inOut, 2, pairOfInts, op))
                .getErrorClass());

        // The ByteBuffer form: direct, native order, count * extent bytes, laid out by the type (gaps included).
        Datatype everyOther = Datatype.createVector(2, 1, 2, MPI.DOUBLE);
        everyOther.commit();
        Op bytes = new Op(new UserFunction() {
            @Override
            public void call(ByteBuffer a, ByteBuffer b, int count, Datatype datatype) {
                assertTrue(a.isDirect() && b.isDirect());
                assertEquals(ByteOrder.nativeOrder(), a.order());
                assertEquals(count * 3 * 8, a.capacity());
                for (int e = 0; e < count; e++) {
                    for (int j : new int[] {0, 2}) {
                        int at = (e * 3 + j) * 8;
                        b.putDouble(at, a.getDouble(at) - b.getDouble(at));
                    }
                }
            }
        }, true);
        double[] x = {10, -1, 20, 30, -1, 40};
        double[] y = {1, 99, 2, 3, 99, 4};
        Comm.reduceLocal(x, y, 2, everyOther, bytes);
        assertArrayEquals(new double[] {9, 99, 18, 27, 99, 36}, y);
    }

    @Test
    void aUserOpOnBooleansGetsBooleanArrays() throws MPIException {
        Op implies = new Op(new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                boolean[] a = (boolean[]) inVec;
                boolean[] b = (boolean[]) inOutVec;
                for (int i = 0; i < count; i++) {
                    b[i] = !a[i] || b[i];
                }
            }
        }, false);
        boolean[] out = {true, false, true, false};
        Comm.reduceLocal(new boolean[] {true, true, false, false}, out, 4, MPI.BOOLEAN, implies);
        assertArrayEquals(new boolean[] {true, false, true, true}, out);
    }

    @Test
    void predefinedOpsCannotBeFreed() {
        assertEquals(MPI.ERR_OP, assertThrows(MPIException.class, MPI.SUM::free).getErrorClass());
        assertFalse(MPI.SUM.isNull());
        assertTrue(MPI.SUM.isCommutative());
    }
}
