package mpi;

/**
 * Access to MPI.LONG_INT pairs {long value @0, int index @8}, laid out as the C struct behind it; reached as {@code MPI.longInt}.
 * Send the pairs with {@code MPI.LONG_INT} (the predefined type, which MINLOC and MAXLOC require).
 */
public final class LongInt extends Struct {
    private final int value = addLong();
    private final int index = addInt();

    protected LongInt() {
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {
        public long getValue() {
            return getLong(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(long v) {
            putLong(value, v);
        }

        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
