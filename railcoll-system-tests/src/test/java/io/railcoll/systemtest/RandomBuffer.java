package io.railcoll.systemtest;

import io.railcoll.reduce.ElementType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * One buffer of a random call: a body of the requested length at a random (often unaligned) offset inside guard
 * bytes, in one of the kinds a program may pass (native segment, heap segment over a byte[] or a wider primitive
 * array, direct or heap ByteBuffer, or a byte[] of exactly the body's length, which has no guards: the array's
 * bounds are its guards; or, for the reductions' typed overloads, an int[], long[], float[] or double[] of exactly
 * the body's length). After the call {@link #checkGuards} proves railcoll wrote nothing outside the body.
 */
final class RandomBuffer {
    /** Guard bytes on each side: more than a cache line, so that a write rounded up to a line shows. */
    static final int GUARD = 80;
    private static final byte GUARD_BYTE = (byte) 0xA5;

    /**
     * What the API receives: the segment overloads, the array overloads (byte[], or the reductions' typed arrays) or
     * the ByteBuffer overloads.
     */
    enum Family { SEGMENT, ARRAY, BUFFER }

    enum Kind {
        NATIVE(Family.SEGMENT), HEAP_BYTES(Family.SEGMENT), HEAP_WIDE(Family.SEGMENT), EXACT_ARRAY(Family.ARRAY),
        TYPED_ARRAY(Family.ARRAY), DIRECT(Family.BUFFER), HEAP_BUFFER(Family.BUFFER);

        final Family family;

        Kind(Family family) {
            this.family = family;
        }
    }

    final Kind kind;
    /** The guards and the body. */
    private final MemorySegment whole;
    /** The part the call may use. */
    final MemorySegment body;
    private final long offset;
    private final byte[] array;
    /** The int[], long[], float[] or double[] of a {@link Kind#TYPED_ARRAY}. */
    private final Object typed;
    private final ByteBuffer buffer;

    private RandomBuffer(Kind kind, MemorySegment whole, long offset, long length, byte[] array, ByteBuffer buffer) {
        this(kind, whole, offset, length, array, buffer, null);
    }

    private RandomBuffer(Kind kind, MemorySegment whole, long offset, long length, byte[] array, ByteBuffer buffer,
                         Object typed) {
        this.kind = kind;
        this.typed = typed;
        this.whole = whole;
        this.offset = offset;
        this.body = whole.asSlice(offset, length);
        this.array = array;
        this.buffer = buffer;
        whole.fill(GUARD_BYTE);
    }

    /**
     * A buffer of {@code length} bytes of a kind of {@code family}, at a random offset (0-15 past the guard); a heap
     * segment over a long[] only where {@code wide} (the reductions stage them; the other collectives refuse them,
     * decision 0075). With {@code typed} (INT, LONG, FLOAT or DOUBLE) an array of the family is an array of that
     * element type, for the typed overloads.
     */
    static RandomBuffer of(Family family, long length, boolean wide, ElementType typed, SplittableRandom rnd,
                           Arena arena) {
        if (typed != null && family == Family.ARRAY) {
            return typed(typed, length);
        }
        Kind kind = switch (family) {
            case SEGMENT -> new Kind[] {Kind.NATIVE, Kind.HEAP_BYTES, Kind.HEAP_WIDE}[rnd.nextInt(wide ? 3 : 2)];
            case ARRAY -> Kind.EXACT_ARRAY;
            case BUFFER -> rnd.nextBoolean() ? Kind.DIRECT : Kind.HEAP_BUFFER;
        };
        long off = GUARD + (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1, 16));
        long wholeBytes = length + off + GUARD;
        return switch (kind) {
            case NATIVE -> new RandomBuffer(kind, arena.allocate(wholeBytes, 16), off, length, null, null);
            case HEAP_BYTES -> {
                byte[] a = new byte[(int) wholeBytes];
                yield new RandomBuffer(kind, MemorySegment.ofArray(a), off, length, a, null);
            }
            // A long[] underneath: railcoll stages heap segments over arrays other than byte[] (decision 0065).
            case HEAP_WIDE -> new RandomBuffer(kind, MemorySegment.ofArray(new long[(int) (wholeBytes + 7) / 8])
                    .asSlice(0, wholeBytes), off, length, null, null);
            case TYPED_ARRAY -> throw new IllegalArgumentException("typed arrays are made by typed()");
            case EXACT_ARRAY -> {
                byte[] a = new byte[(int) length];
                yield new RandomBuffer(kind, MemorySegment.ofArray(a), 0, length, a, null);
            }
            case DIRECT -> {
                ByteBuffer b = ByteBuffer.allocateDirect((int) wholeBytes);
                yield new RandomBuffer(kind, MemorySegment.ofBuffer(b), off, length, null,
                        b.position((int) off).limit((int) (off + length)));
            }
            case HEAP_BUFFER -> {
                byte[] a = new byte[(int) wholeBytes];
                ByteBuffer b = ByteBuffer.wrap(a);
                yield new RandomBuffer(kind, MemorySegment.ofArray(a), off, length, a, b.position((int) off)
                        .limit((int) (off + length)));
            }
        };
    }

    /** An array of {@code type}'s Java type of exactly {@code length} bytes; the array's bounds are its guards. */
    private static RandomBuffer typed(ElementType type, long length) {
        int n = Math.toIntExact(length / type.sizeBytes());
        Object a = switch (type) {
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
            default -> throw new IllegalArgumentException("no typed overloads for " + type);
        };
        MemorySegment whole = switch (a) {
            case int[] x -> MemorySegment.ofArray(x);
            case long[] x -> MemorySegment.ofArray(x);
            case float[] x -> MemorySegment.ofArray(x);
            default -> MemorySegment.ofArray((double[]) a);
        };
        return new RandomBuffer(Kind.TYPED_ARRAY, whole, 0, length, null, null, a);
    }

    /** Whether the API has typed-array overloads for {@code type} (the reductions' int[], long[], float[], double[]). */
    static boolean hasTypedArrays(ElementType type) {
        return type == ElementType.INT || type == ElementType.LONG || type == ElementType.FLOAT
                || type == ElementType.DOUBLE;
    }

    Object typedArray() {
        if (kind != Kind.TYPED_ARRAY) {
            throw new IllegalStateException(kind + " is not a typed array");
        }
        return typed;
    }

    MemorySegment segment() {
        return body;
    }

    byte[] array() {
        if (kind != Kind.EXACT_ARRAY) {
            throw new IllegalStateException(kind + " is not an exact array");
        }
        return array;
    }

    ByteBuffer buffer() {
        return buffer;
    }

    /** Null, or where a guard byte was overwritten. */
    String checkGuards() {
        for (long i = 0; i < offset; i++) {
            if (whole.get(ValueLayout.JAVA_BYTE, i) != GUARD_BYTE) {
                return "guard byte " + (i - offset) + " before the " + kind + " buffer of " + body.byteSize()
                        + " bytes was overwritten with " + whole.get(ValueLayout.JAVA_BYTE, i);
            }
        }
        for (long i = offset + body.byteSize(); i < whole.byteSize(); i++) {
            if (whole.get(ValueLayout.JAVA_BYTE, i) != GUARD_BYTE) {
                return "guard byte +" + (i - offset - body.byteSize()) + " after the " + kind + " buffer of "
                        + body.byteSize() + " bytes was overwritten with " + whole.get(ValueLayout.JAVA_BYTE, i);
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return kind + "(" + body.byteSize() + " B at +" + (kind.family == Family.ARRAY ? 0 : offset - GUARD) + ")";
    }
}
