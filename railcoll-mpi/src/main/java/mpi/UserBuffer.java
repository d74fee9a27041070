package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * A buffer a program passed to a blocking call, seen as bytes from its start as the bindings address it: a primitive
 * array from element 0; a direct {@link Buffer} from its first byte and a heap buffer from its
 * {@code arrayOffset()}, position and limit ignored (offsets come from {@code MPI.slice}). A {@code boolean[]} is
 * copied to bytes (0 or 1), and {@link #commit()} writes received bytes back into it. Arrays and heap buffers must
 * hold the datatype's base type; a direct buffer may hold any.
 */
final class UserBuffer {
    /**
     * What a count of 0 with a null buffer is: MPI ignores a buffer of no elements. Shared by every thread: it is only
     * ever asked for 0 bytes, so {@link #leading} never writes its slice field.
     */
    private static final UserBuffer NONE = new UserBuffer(MemorySegment.ofArray(new byte[0]), null);

    final MemorySegment memory;
    private final boolean[] booleans;
    /** Whether railcoll can move these bytes as they are: native memory, or a heap segment over a {@code byte[]}. */
    private final boolean railcollCanUse;
    /** The last leading slice {@link #leading} made, kept for the next call of the same count. */
    private MemorySegment leading;

    private UserBuffer(MemorySegment memory, boolean[] booleans) {
        this.memory = memory;
        this.booleans = booleans;
        this.railcollCanUse = booleans == null && (memory.isNative() || memory.heapBase().orElse(null) instanceof byte[]);
    }

    /**
     * The buffer {@code buffer} for {@code count} elements of {@code type}.
     *
     * @throws MPIException              {@code ERR_BUFFER}: null where data is needed, or not a buffer of the type's storage
     * @throws IndexOutOfBoundsException the elements do not fit in it
     */
    static UserBuffer of(Object buffer, Datatype type, long count, String role, Call call) throws MPIException {
        if (buffer == null && count == 0) {
            return NONE;
        }
        if (buffer == null) {
            throw call.error(MPI.ERR_BUFFER, "invalid buffer pointer: " + role + " is null but holds " + count
                    + " elements of " + type.describe());
        }
        if (!type.baseType.holds(buffer)) {
            throw call.error(MPI.ERR_BUFFER, "invalid buffer: " + role + " is a " + buffer.getClass().getSimpleName()
                    + " but " + type.describe() + " lives in " + type.baseType.storage() + " (or a direct buffer)");
        }
        UserBuffer b;
        if (buffer instanceof boolean[] flags) {
            byte[] bytes = new byte[flags.length];
            for (int i = 0; i < flags.length; i++) {
                bytes[i] = (byte) (flags[i] ? 1 : 0);
            }
            b = new UserBuffer(MemorySegment.ofArray(bytes), flags);
        } else {
            b = call.views == null ? view(buffer) : call.views.of(buffer);
        }
        long first = type.map.firstByte(count);
        long end = type.map.endByte(count);
        if (first < 0 || end > b.memory.byteSize()) {
            throw new IndexOutOfBoundsException(call.name + " on rank " + call.rank + ": " + role + ": " + count + " elements of " + type.describe() + " need bytes ["
                    + first + ", " + end + ") of the buffer, which has " + b.memory.byteSize());
        }
        return b;
    }

    /** A new view of {@code buffer}: a {@link Buffer} from its first byte, or an array other than {@code boolean[]}. */
    static UserBuffer view(Object buffer) {
        if (buffer instanceof Buffer nio) {
            return new UserBuffer(MemorySegment.ofBuffer(nio.duplicate().clear()), null);
        }
        return new UserBuffer(BaseType.arrayView(buffer), null);
    }

    /** Whether railcoll can move these bytes as they are: native memory, or a heap segment over a {@code byte[]}. */
    boolean railcollCanUse() {
        return railcollCanUse;
    }

    /**
     * The first {@code bytes} of the buffer: all of it when that is its size, else a slice, the same slice as the last
     * call's when the count is the same (a loop of like calls makes none after the first).
     */
    MemorySegment leading(long bytes) {
        if (bytes == memory.byteSize()) {
            return memory;
        }
        MemorySegment s = leading;
        if (s == null || s.byteSize() != bytes) {
            s = memory.asSlice(0, bytes);
            leading = s;
        }
        return s;
    }

    /** Whether {@code bytes} starts at byte {@code at} of this buffer's memory (a receive that landed in place). */
    boolean startsAt(MemorySegment bytes, long at) {
        if (bytes.isNative() != memory.isNative() || bytes.address() != memory.address() + at) {
            return false;
        }
        return memory.isNative() || bytes.heapBase().equals(memory.heapBase());
    }

    /** Whether {@link #commit} has work: received bytes must be copied back into a {@code boolean[]}. */
    boolean needsCommit() {
        return booleans != null;
    }

    /** Makes received bytes visible in the program's buffer (only a {@code boolean[]} needs it). */
    void commit() {
        if (booleans != null) {
            for (int i = 0; i < booleans.length; i++) {
                booleans[i] = memory.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != 0;
            }
        }
    }
}
