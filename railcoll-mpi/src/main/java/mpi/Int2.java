package mpi;

/**
 * Access to MPI.INT2 pairs {int value @0, int index @4}, laid out as the C struct behind it; reached as {@code MPI.int2}.
 * Send the pairs with {@code MPI.INT2} (the predefined type, which MINLOC and MAXLOC require).
 */
public final class Int2 extends Struct {
    private final int value = addInt();
    private final int index = addInt();

    protected Int2() {
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {
        public int getValue() {
            return getInt(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(int v) {
            putInt(value, v);
        }

        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
