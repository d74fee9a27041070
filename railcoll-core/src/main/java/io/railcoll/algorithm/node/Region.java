package io.railcoll.algorithm.node;

import io.railcoll.schedule.Buffer;

/**
 * Where one rank keeps a {@link PackedBlocks}: RECV at the first block's final offset when the blocks are one RECV
 * range, else a TEMP range of its own. Immutable.
 */
public record Region(Buffer buffer, long offset) {

    /** {@code bytes} further into the region. */
    public Region plus(long bytes) {
        return new Region(buffer, offset + bytes);
    }
}
