package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

/**
 * The loop for one (element type, operator): {@code inout[i] = in[i] op inout[i]} for {@code i < count}, element
 * {@code i} at byte {@code offset + i * size} of each segment. {@code in} is the left operand. The ranges must be
 * the same or disjoint (a partial overlap is not detected and gives unspecified bytes). Allocates nothing after a
 * thread's first call. Made by {@link Combiners#of}; thread-safe.
 */
@FunctionalInterface
public interface Combiner {
    void combine(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count);
}
