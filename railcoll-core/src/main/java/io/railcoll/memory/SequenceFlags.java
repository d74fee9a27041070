package io.railcoll.memory;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * One monotonically increasing 64-bit sequence number per rank, each in its own 128-byte slot.
 *
 * <pre>
 * base + i * stride + 0   long  flag of rank i   (written only by rank i, setRelease)
 * </pre>
 *
 * <p>Flags only ever grow: "rank i has finished step s" is {@code flag(i) >= s}. Nothing is ever
 * reset, so a slow reader can never confuse a reset with a new round (the classic reset race of
 * set-flag/clear-flag protocols). At one step per nanosecond a 64-bit counter lasts 292 years.
 *
 * <p>Threading: {@link #publish} only by the flag's owner (one thread); {@link #get} by anyone.
 * Lifetime: a view; valid while the segment's arena is open.
 */
public final class SequenceFlags {
    private final MemorySegment segment;
    private final long baseOffset;
    private final long strideBytes;
    private final int count;

    /**
     * @param baseOffset offset of flag 0, 8-byte aligned
     * @param count number of flags
     * @param strideBytes distance between flags; at least {@link CacheLines#SLOT_BYTES} when the
     *        flags have different writers
     */
    public SequenceFlags(MemorySegment segment, long baseOffset, int count, long strideBytes) {
        this.segment = Objects.requireNonNull(segment, "segment");
        if (baseOffset % 8 != 0 || strideBytes % 8 != 0 || count < 0 || strideBytes < 8) {
            throw new IllegalArgumentException("flags need 8-byte alignment: base " + baseOffset
                    + ", stride " + strideBytes + ", count " + count);
        }
        Objects.checkFromIndexSize(baseOffset, count == 0 ? 0 : (count - 1) * strideBytes + 8, segment.byteSize());
        this.baseOffset = baseOffset;
        this.strideBytes = strideBytes;
        this.count = count;
    }

    public int count() {
        return count;
    }

    /** The flag of rank {@code i}, read with acquire semantics. */
    public long get(int i) {
        return SharedAccess.getLongAcquire(segment, offsetOf(i));
    }

    /**
     * Publishes {@code value} as rank {@code i}'s flag with release semantics: every write the
     * caller made before this call is visible to a reader that sees the new value.
     *
     * @throws IllegalStateException if {@code value} is below the current value (flags never go back)
     */
    public void publish(int i, long value) {
        long offset = offsetOf(i);
        long current = SharedAccess.getLongAcquire(segment, offset);
        if (value < current) {
            throw new IllegalStateException("sequence flag " + i + " would go back from " + current + " to " + value);
        }
        SharedAccess.setLongRelease(segment, offset, value);
    }

    /** The lowest index whose flag is below {@code target}, or -1 if every flag has reached it. */
    public int firstBelow(long target) {
        for (int i = 0; i < count; i++) {
            if (get(i) < target) {
                return i;
            }
        }
        return -1;
    }

    private long offsetOf(int i) {
        Objects.checkIndex(i, count);
        return baseOffset + i * strideBytes;
    }
}
