package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A C-struct-like datatype built field by field, with typed access to its elements in a {@link ByteBuffer} or
 * {@code byte[]}: a subclass adds its fields in its constructor or initialisers ({@code addInt()},
 * {@code addDouble(3)}, ... each returning the field's byte offset; no alignment padding is inserted,
 * {@link #setOffset} skips ahead) and returns its own {@link Data} from {@link #newData()}, whose accessors read the
 * fields. The datatype ({@link #getType()}, a {@code createStruct} result, extent in bytes rounded to the largest
 * member alignment) is built on first use, after which adding a field is an {@link AssertionError}.
 *
 * <p>{@code MPI.int2}, {@code MPI.shortInt}, {@code MPI.longInt}, {@code MPI.floatInt} and {@code MPI.doubleInt} are
 * the helpers of the (value, index) pair types; send pairs with the predefined {@code MPI.INT2} etc.
 */
public abstract class Struct {
    private int offset;
    private final List<int[]> fields = new ArrayList<>(); // {offset, length}
    private final List<Datatype> types = new ArrayList<>();
    private final List<Struct> nested = new ArrayList<>();
    private Datatype type;
    private int extent;

    /** The extent of one element in bytes; builds the type. */
    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    /** The datatype of one element; builds it on first use. */
    public final Datatype getType() throws MPIException {
        commit();
        return type;
    }

    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    /** A view of element {@code index} of {@code buffer} (at byte {@code index * getExtent()}), used as given. */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        commit();
        Data d = newData();
        d.buffer = buffer;
        d.offset = index * extent;
        return (T) d;
    }

    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(array, 0);
    }

    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    /** Moves the next field to byte {@code offset}, at or after the current end. */
    public final Struct setOffset(int offset) {
        open();
        if (offset < this.offset) {
            throw new IllegalArgumentException("The offset must be greater or equal to the current offset ("
                    + this.offset + "), got " + offset);
        }
        this.offset = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return add(MPI.BYTE, 1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return add(MPI.CHAR, 2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return add(MPI.SHORT, 2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return add(MPI.INT, 4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return add(MPI.LONG, 8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return add(MPI.FLOAT, 4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return add(MPI.DOUBLE, 8, length);
    }

    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /** {@code length} elements of another struct; builds that struct's type. */
    public final int addStruct(Struct struct, int length) throws MPIException {
        int at = add(struct.getType(), struct.getExtent(), length);
        nested.add(struct);
        return at;
    }

    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /** {@code length} elements of {@code type}, advancing by its extent in bytes. */
    public final int addData(Datatype type, int length) throws MPIException {
        return add(type, type.getExtent() * type.baseType.bytes, length);
    }

    /** A new element view of the subclass's own {@link Data} class. */
    protected abstract Data newData();

    private int add(Datatype fieldType, int bytes, int length) {
        open();
        int at = offset;
        fields.add(new int[] {at, length});
        types.add(fieldType);
        offset += bytes * length;
        return at;
    }

    private void open() {
        if (type != null) {
            throw new AssertionError("The struct data type was committed.");
        }
    }

    private void commit() throws MPIException {
        if (type != null) {
            MPI.check();
            return;
        }
        int n = fields.size();
        int[] lengths = new int[n];
        int[] displacements = new int[n];
        for (int i = 0; i < n; i++) {
            displacements[i] = fields.get(i)[0];
            lengths[i] = fields.get(i)[1];
        }
        Datatype t = Datatype.createStruct(lengths, displacements, types.toArray(new Datatype[0]));
        t.commit();
        extent = t.getExtent();
        type = t;
    }

    /**
     * One element of a struct in a buffer: the subclass's {@code Data} reads and writes its fields with the
     * accessors below, at {@code field} (the offset {@code addX} returned) plus {@code index} elements of the field.
     * Absolute {@code ByteBuffer} gets and puts, in the buffer's own byte order.
     */
    public abstract class Data {
        ByteBuffer buffer;
        int offset;

        /** The whole buffer when this element is at its start, else {@code MPI.slice(buffer, offset)}. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }

        /** The nested struct at {@code field}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return getData(struct, field, 0);
        }

        @SuppressWarnings("unchecked")
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            Data d = struct.newData();
            d.buffer = buffer;
            d.offset = offset + field + index * ((Struct) struct).extent;
            return (D) d;
        }

        /** The buffer from the field at {@code field}, for data of {@code type}. */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            return MPI.slice(buffer, offset + field);
        }

        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            return MPI.slice(buffer, offset + field + index * type.getExtent() * type.baseType.bytes);
        }
    }
}
