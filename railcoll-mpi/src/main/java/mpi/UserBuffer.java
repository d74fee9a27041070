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
    final MemorySegment memory;
    private final boolean[] booleans;

    private UserBuffer(MemorySegment memory, boolean[] booleans) {
        this.memory = memory;
        this.booleans = booleans;
    }

    /**
     * The buffer {@code buffer} for {@code count} elements of {@code type}.
     *
     * @throws MPIException              {@code ERR_BUFFER}: null where data is needed, or not a buffer of the type's storage
     * @throws IndexOutOfBoundsException the elements do not fit in it
     */
    static UserBuffer of(Object buffer, Datatype type, long count, String role, Call call) throws MPIException {
        if (buffer == null && count == 0) {
            return new UserBuffer(MemorySegment.ofArray(new byte[0]), null); // MPI ignores a buffer of no elements
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
        } else if (buffer instanceof Buffer nio) {
            Buffer whole = nio.duplicate().clear();
            b = new UserBuffer(MemorySegment.ofBuffer(whole), null);
        } else {
            b = new UserBuffer(BaseType.arrayView(buffer), null);
        }
        long first = type.map.firstByte(count);
        long end = type.map.endByte(count);
        if (first < 0 || end > b.memory.byteSize()) {
            throw new IndexOutOfBoundsException(call.name + " on rank " + call.rank + ": " + role + ": " + count + " elements of " + type.describe() + " need bytes ["
                    + first + ", " + end + ") of the buffer, which has " + b.memory.byteSize());
        }
        return b;
    }

    /** Whether railcoll can move these bytes as they are: native memory, or a heap segment over a {@code byte[]}. */
    boolean railcollCanUse() {
        return booleans == null && (memory.isNative() || memory.heapBase().orElse(null) instanceof byte[]);
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
