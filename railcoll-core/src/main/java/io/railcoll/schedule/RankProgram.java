package io.railcoll.schedule;

import java.util.List;

/**
 * What one rank does in one collective: its ops in order and the scratch it needs.
 * Immutable; built once per shape and cached by the engine.
 */
public record RankProgram(int rank, List<Op> ops, long tempBytes) {
    public RankProgram {
        ops = List.copyOf(ops);
        if (tempBytes < 0) {
            throw new IllegalArgumentException("tempBytes must be >= 0");
        }
    }
}
