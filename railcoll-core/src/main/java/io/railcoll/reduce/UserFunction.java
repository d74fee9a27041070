package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

/**
 * The body of a {@link UserOperator}: for {@code i < count} elements, {@code inout[i] = in[i] op inout[i]}, where
 * element {@code i} of {@code in} starts at byte {@code inOffset + i * size} (likewise for {@code inout}). Offsets
 * are passed rather than slices so that railcoll allocates nothing per call. The two ranges are either the same or
 * disjoint. Called on the thread that runs the collective; must not block on other ranks.
 */
@FunctionalInterface
public interface UserFunction {
    void apply(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count);
}
