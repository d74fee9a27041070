package io.railcoll.memory;

/**
 * Sizes and alignment arithmetic for shared layouts.
 *
 * <p>A "slot" is 128 bytes, not 64: Intel's adjacent-line prefetcher pulls cache lines in pairs,
 * so two writers 64 bytes apart still disturb each other. Every word with its own writer gets its
 * own slot.
 */
public final class CacheLines {
    /** Bytes between two independently written words: two 64-byte lines. */
    public static final long SLOT_BYTES = 128;
    /** Bytes of one cache line, the unit copies are aligned to. */
    public static final long LINE_BYTES = 64;
    /** Bytes of a page; bulk data areas start on page boundaries. */
    public static final long PAGE_BYTES = 4096;

    private CacheLines() {
    }

    /** {@code value} rounded up to a multiple of {@code alignment} (a power of two). */
    public static long alignUp(long value, long alignment) {
        requirePowerOfTwo(alignment);
        return (value + alignment - 1) & -alignment;
    }

    /** {@code value} rounded down to a multiple of {@code alignment} (a power of two). */
    public static long alignDown(long value, long alignment) {
        requirePowerOfTwo(alignment);
        return value & -alignment;
    }

    private static void requirePowerOfTwo(long alignment) {
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment must be a power of two, got " + alignment);
        }
    }
}
