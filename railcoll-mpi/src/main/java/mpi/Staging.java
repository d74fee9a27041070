package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Native memory a communicator packs derived types and non-byte arrays into around a railcoll call: taken in slices
 * during one call ({@link #take}), all given back at the start of the next ({@link #reset}). It grows by doubling
 * and keeps its largest region, so a loop of like calls allocates nothing after the first. Shared arenas, since
 * railcoll's progress threads read and write these slices. Used under its communicator's call lock.
 */
final class Staging implements AutoCloseable {
    private Arena arena;
    private MemorySegment region;
    private long used;
    /** Regions outgrown during the current call, whose slices are still in use until it ends. */
    private final List<Arena> retired = new ArrayList<>();

    MemorySegment take(long bytes) {
        if (region == null || region.byteSize() - used < bytes) {
            if (arena != null) {
                retired.add(arena);
            }
            long size = Math.max(Math.max(4096, bytes), region == null ? 0 : 2 * region.byteSize());
            arena = Arena.ofShared();
            region = arena.allocate(size, 64);
            used = 0;
        }
        MemorySegment s = region.asSlice(used, bytes);
        used += (bytes + 63) & ~63L;
        return s;
    }

    void reset() {
        used = 0;
        for (Arena a : retired) {
            a.close();
        }
        retired.clear();
    }

    @Override
    public void close() {
        reset();
        if (arena != null) {
            arena.close();
            arena = null;
            region = null;
        }
    }
}
