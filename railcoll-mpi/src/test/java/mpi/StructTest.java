package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Struct types built field by field, the pair helpers against the predefined pair types, and the complex views. */
class StructTest {

    /** {int @0, double @4}: no padding between fields, extent rounded to 8. */
    static final class Point extends Struct {
        final int id = addInt();
        final int weight = addDouble();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            double weight() {
                return getDouble(weight);
            }

            void put(int i, double w) {
                putInt(id, i);
                putDouble(weight, w);
            }
        }
    }

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void aStructsFieldsHaveNoPaddingAndItsExtentIsAligned() throws MPIException {
        Point p = new Point();
        assertEquals(0, p.id);
        assertEquals(4, p.weight);
        assertEquals(16, p.getExtent());
        assertEquals(12, p.getType().getSize());
        byte[] bytes = new byte[3 * 16];
        Point.Data second = p.getData(bytes, 1);
        second.put(7, 2.5);
        Point.Data again = p.getData(ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.nativeOrder()), 1);
        assertEquals(7, again.id());
        assertEquals(2.5, again.weight());
        // the whole array moves as 3 struct elements, only their 12 data bytes each
        byte[] copy = new byte[bytes.length];
        MPI.COMM_WORLD.allGather(bytes, 3, p.getType(), copy, 3, p.getType());
        Point.Data copied = p.getData(copy, 1);
        assertEquals(7, copied.id());
        assertEquals(2.5, copied.weight());
        assertThrows(AssertionError.class, p::addInt);
        assertThrows(IllegalArgumentException.class, () -> new Point().setOffset(2));
    }

    @Test
    void pairHelpersMatchThePredefinedPairTypes() throws MPIException {
        assertEquals(MPI.DOUBLE_INT.getExtent(), MPI.doubleInt.getExtent());
        assertEquals(MPI.LONG_INT.getExtent(), MPI.longInt.getExtent());
        assertEquals(MPI.SHORT_INT.getExtent(), MPI.shortInt.getExtent());
        assertEquals(MPI.INT2.getExtent(), MPI.int2.getExtent());
        assertEquals(MPI.FLOAT_INT.getExtent(), MPI.floatInt.getExtent());
        ByteBuffer in = MPI.newByteBuffer(2 * 16);
        ByteBuffer out = MPI.newByteBuffer(2 * 16);
        DoubleInt.Data a0 = MPI.doubleInt.getData(in, 0);
        DoubleInt.Data a1 = MPI.doubleInt.getData(in, 1);
        a0.putValue(3.5);
        a0.putIndex(4);
        a1.putValue(-1);
        a1.putIndex(9);
        DoubleInt.Data b0 = MPI.doubleInt.getData(out, 0);
        DoubleInt.Data b1 = MPI.doubleInt.getData(out, 1);
        b0.putValue(1);
        b0.putIndex(0);
        b1.putValue(-1);
        b1.putIndex(2);
        Comm.reduceLocal(in, out, 2, MPI.DOUBLE_INT, MPI.MAXLOC);
        assertEquals(3.5, b0.getValue());
        assertEquals(4, b0.getIndex());
        assertEquals(-1, b1.getValue());
        assertEquals(2, b1.getIndex());
        ShortInt.Data s = MPI.shortInt.getData(new byte[8]);
        s.putValue((short) -3);
        s.putIndex(5);
        assertEquals(-3, s.getValue());
        assertEquals(5, s.getIndex());
    }

    @Test
    void complexViewsAreFloatPairs() {
        float[] z = new float[4];
        FloatComplex c = FloatComplex.get(z, 1);
        c.putReal(1.5f);
        c.putImag(-2);
        assertEquals(1.5f, z[2]);
        assertEquals(-2f, z[3]);
        assertEquals(-2f, FloatComplex.get(z, 1).getImag());
        DoubleComplex d = DoubleComplex.get(MPI.newDoubleBuffer(4), 1);
        d.putReal(4);
        assertEquals(4.0, d.getBuffer().get(2));
        assertEquals(6.0, DoubleComplex.get(MPI.newByteBuffer(16).putDouble(8, 6.0)).getImag());
    }
}
