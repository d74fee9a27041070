package mpi;

/**
 * Access to MPI.DOUBLE_INT pairs {double value @0, int index @8}, laid out as the C struct behind it; reached as {@code MPI.doubleInt}.
 * Send the pairs with {@code MPI.DOUBLE_INT} (the predefined type, which MINLOC and MAXLOC require).
 */
public final class DoubleInt extends Struct {
    private final int value = addDouble();
    private final int index = addInt();

    protected DoubleInt() {
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {
        public double getValue() {
            return getDouble(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(double v) {
            putDouble(value, v);
        }

        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
