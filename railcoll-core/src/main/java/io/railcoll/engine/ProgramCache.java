package io.railcoll.engine;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Shape;

import java.util.HashMap;
import java.util.Map;

/**
 * Compiled programs per (algorithm, shape): plan once, run many. Owned by one communicator and used by its one
 * calling thread. Bounded: when it grows past its capacity it starts over, which only costs recompilation.
 */
final class ProgramCache {
    private static final int CAPACITY = 4096;

    private record Key(String algorithmId, Shape shape) {
    }

    private final int rank;
    private final Map<Key, CompiledProgram> programs = new HashMap<>();

    ProgramCache(int rank) {
        this.rank = rank;
    }

    CompiledProgram get(Algorithm algorithm, Shape shape) {
        Key key = new Key(algorithm.id(), shape);
        CompiledProgram p = programs.get(key);
        if (p == null) {
            if (programs.size() >= CAPACITY) {
                programs.clear();
            }
            p = new CompiledProgram(algorithm.id(), algorithm.program(shape, rank));
            programs.put(key, p);
        }
        return p;
    }
}
