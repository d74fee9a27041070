package mpi;

/**
 * Access to MPI.FLOAT_INT pairs {float value @0, int index @4}, laid out as the C struct behind it; reached as {@code MPI.floatInt}.
 * Send the pairs with {@code MPI.FLOAT_INT} (the predefined type, which MINLOC and MAXLOC require).
 */
public final class FloatInt extends Struct {
    private final int value = addFloat();
    private final int index = addInt();

    protected FloatInt() {
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {
        public float getValue() {
            return getFloat(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(float v) {
            putFloat(value, v);
        }

        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
