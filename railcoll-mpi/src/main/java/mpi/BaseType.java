package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * The Java storage a datatype's data lives in (the bindings' "base type"): which array or heap buffer class holds
 * it, and the unit ({@link #bytes}) that extents, sizes and lower bounds are reported in. Predefined pair types and
 * {@code createStruct} results have base {@link #BYTE}; the complex types {@link #FLOAT}/{@link #DOUBLE}.
 */
enum BaseType {
    NULL(0, null, null),
    BYTE(1, byte[].class, ByteBuffer.class),
    CHAR(2, char[].class, CharBuffer.class),
    SHORT(2, short[].class, ShortBuffer.class),
    BOOLEAN(1, boolean[].class, ByteBuffer.class),
    INT(4, int[].class, IntBuffer.class),
    LONG(8, long[].class, LongBuffer.class),
    FLOAT(4, float[].class, FloatBuffer.class),
    DOUBLE(8, double[].class, DoubleBuffer.class),
    PACKED(1, byte[].class, ByteBuffer.class);

    /** Bytes of one unit of the storage (the bindings' base size). */
    final int bytes;
    private final Class<?> arrayClass;
    private final Class<? extends Buffer> bufferClass;

    BaseType(int bytes, Class<?> arrayClass, Class<? extends Buffer> bufferClass) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
        this.bufferClass = bufferClass;
    }

    /** Whether {@code buffer} (an array or a heap buffer) holds this storage. Direct buffers hold any. */
    boolean holds(Object buffer) {
        if (buffer instanceof Buffer b) {
            return b.isDirect() || bufferClass != null && bufferClass.isInstance(b);
        }
        return arrayClass != null && arrayClass.isInstance(buffer);
    }

    /** What a buffer of this storage is, for messages. */
    String storage() {
        return arrayClass == null ? "no storage" : arrayClass.getSimpleName() + " or " + bufferClass.getSimpleName();
    }

    /**
     * A fresh array of {@code n} units for a user function's {@code Object} form, or null where the bindings have
     * none ({@code BOOLEAN} goes to the user function as {@code boolean[]} directly; {@code NULL}).
     */
    Object newArray(int n) {
        return switch (this) {
            case BYTE, PACKED -> new byte[n];
            case CHAR -> new char[n];
            case SHORT -> new short[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
            case BOOLEAN, NULL -> null;
        };
    }

    /** Copies {@code n} units from the start of {@code from} (native order) into {@code array}. */
    void read(ByteBuffer from, Object array, int n) {
        copy(MemorySegment.ofBuffer(from.duplicate().clear()), arrayView(array), (long) n * bytes);
    }

    /** Copies {@code n} units of {@code array} to the start of {@code to} (native order). */
    void write(Object array, ByteBuffer to, int n) {
        copy(arrayView(array), MemorySegment.ofBuffer(to.duplicate().clear()), (long) n * bytes);
    }

    private static void copy(MemorySegment from, MemorySegment to, long bytes) {
        MemorySegment.copy(from, 0, to, 0, bytes);
    }

    /** A segment over a primitive array other than {@code boolean[]}. */
    static MemorySegment arrayView(Object array) {
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass().getSimpleName());
        };
    }
}
