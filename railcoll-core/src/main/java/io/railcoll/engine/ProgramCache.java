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
    /** Maps an AwaitFlag's peer to its local rank; null where no node steps can run. */
    private java.util.function.IntUnaryOperator localRankOf;
    private final Map<Key, CompiledProgram> programs = new HashMap<>();
    /** The last program per collective, found again by identity without a key allocated: a loop of like calls. */
    private final Algorithm[] lastAlgorithm = new Algorithm[io.railcoll.schedule.Collective.values().length];
    private final Shape[] lastShape = new Shape[lastAlgorithm.length];
    private final CompiledProgram[] lastProgram = new CompiledProgram[lastAlgorithm.length];

    ProgramCache(int rank) {
        this.rank = rank;
    }

    /** Node steps' peers are local ranks of {@code placement} from now on. */
    void useLocalRanks(io.railcoll.topology.Placement placement) {
        localRankOf = placement::localRankOf;
        programs.clear();
        java.util.Arrays.fill(lastAlgorithm, null);
    }

    CompiledProgram get(Algorithm algorithm, Shape shape) {
        int c = shape.collective().ordinal();
        if (lastAlgorithm[c] == algorithm && lastShape[c] == shape) {
            return lastProgram[c];
        }
        CompiledProgram p = lookUp(algorithm, shape);
        lastAlgorithm[c] = algorithm;
        lastShape[c] = shape;
        lastProgram[c] = p;
        return p;
    }

    private CompiledProgram lookUp(Algorithm algorithm, Shape shape) {
        Key key = new Key(algorithm.id(), shape);
        CompiledProgram p = programs.get(key);
        if (p == null) {
            if (programs.size() >= CAPACITY) {
                programs.clear();
            }
            p = new CompiledProgram(algorithm.id(), algorithm.program(shape, rank), localRankOf,
                    algorithm instanceof io.railcoll.schedule.PeerAccessUser);
            programs.put(key, p);
        }
        return p;
    }
}
