package mpi;

/**
 * Access to MPI.SHORT_INT pairs {short value @0, int index @4}, laid out as the C struct behind it; reached as {@code MPI.shortInt}.
 * Send the pairs with {@code MPI.SHORT_INT} (the predefined type, which MINLOC and MAXLOC require).
 */
public final class ShortInt extends Struct {
    private final int value = addShort();
    private final int index = setOffset(4).addInt();

    protected ShortInt() {
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {
        public short getValue() {
            return getShort(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(short v) {
            putShort(value, v);
        }

        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
