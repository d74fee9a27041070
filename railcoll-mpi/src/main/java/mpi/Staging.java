package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
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
    /**
     * The slices of the current region taken by the last calls, by their order in the call: a call that takes what the
     * previous one took gets the same slice objects again (decision 0136), so that like calls allocate nothing.
     */
    private final MemorySegment[] taken = new MemorySegment[8];
    private int takes;

    MemorySegment take(long bytes) {
        if (region == null || region.byteSize() - used < bytes) {
            if (arena != null) {
                retired.add(arena);
            }
            long size = Math.max(Math.max(4096, bytes), region == null ? 0 : 2 * region.byteSize());
            arena = Arena.ofShared();
            region = arena.allocate(size, 64);
            used = 0;
            Arrays.fill(taken, null);
        }
        int order = takes++;
        MemorySegment s = order < taken.length ? taken[order] : null;
        if (s == null || s.byteSize() != bytes || s.address() != region.address() + used) {
            s = region.asSlice(used, bytes);
            if (order < taken.length) {
                taken[order] = s;
            }
        }
        used += (bytes + 63) & ~63L;
        return s;
    }

    void reset() {
        used = 0;
        takes = 0;
        if (!retired.isEmpty()) {
            for (Arena a : retired) {
                a.close();
            }
            retired.clear();
        }
    }

    @Override
    public void close() {
        reset();
        if (arena != null) {
            arena.close();
            arena = null;
            region = null;
            Arrays.fill(taken, null);
        }
    }
}
