package io.railcoll.systemtest;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * One buffer of a random call: a body of the requested length at a random (often unaligned) offset inside guard
 * bytes, in one of the kinds a program may pass (native segment, heap segment over a byte[] or a wider primitive
 * array, direct or heap ByteBuffer, or a byte[] of exactly the body's length, which has no guards: the array's
 * bounds are its guards). After the call {@link #checkGuards} proves railcoll wrote nothing outside the body.
 */
final class RandomBuffer {
    /** Guard bytes on each side: more than a cache line, so that a write rounded up to a line shows. */
    static final int GUARD = 80;
    private static final byte GUARD_BYTE = (byte) 0xA5;

    /** What the API receives: the segment overloads, the byte[] overloads or the ByteBuffer overloads. */
    enum Family { SEGMENT, ARRAY, BUFFER }

    enum Kind {
        NATIVE(Family.SEGMENT), HEAP_BYTES(Family.SEGMENT), HEAP_WIDE(Family.SEGMENT), EXACT_ARRAY(Family.ARRAY),
        DIRECT(Family.BUFFER), HEAP_BUFFER(Family.BUFFER);

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
    private final ByteBuffer buffer;

    private RandomBuffer(Kind kind, MemorySegment whole, long offset, long length, byte[] array, ByteBuffer buffer) {
        this.kind = kind;
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
     * decision 0075).
     */
    static RandomBuffer of(Family family, long length, boolean wide, SplittableRandom rnd, Arena arena) {
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
        return kind + "(" + body.byteSize() + " B at +" + (offset - (kind == Kind.EXACT_ARRAY ? 0 : GUARD)) + ")";
    }
}
