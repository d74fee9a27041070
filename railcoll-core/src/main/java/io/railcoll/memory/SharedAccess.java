package io.railcoll.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Ordered access to 32- and 64-bit words of a (usually shared, mapped) {@link MemorySegment}.
 *
 * <p>The only place that holds the element VarHandles, so every protocol word in railcoll is
 * written with {@code setRelease} and read with {@code getAcquire} (or volatile/RMW where a
 * Dekker-style handshake needs a full fence), never with plain accesses. Offsets must be aligned
 * to the word size; the VarHandles throw on misaligned offsets rather than tear.
 *
 * <p>Stateless and thread-safe. The segment's arena must be alive for every call.
 */
public final class SharedAccess {
    // ValueLayout.varHandle() has coordinates (MemorySegment, long baseOffset) since JDK 22.
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private SharedAccess() {
    }

    public static long getLongAcquire(MemorySegment segment, long offset) {
        return (long) LONG.getAcquire(segment, offset);
    }

    public static void setLongRelease(MemorySegment segment, long offset, long value) {
        LONG.setRelease(segment, offset, value);
    }

    public static long getLongVolatile(MemorySegment segment, long offset) {
        return (long) LONG.getVolatile(segment, offset);
    }

    public static void setLongVolatile(MemorySegment segment, long offset, long value) {
        LONG.setVolatile(segment, offset, value);
    }

    public static int getIntAcquire(MemorySegment segment, long offset) {
        return (int) INT.getAcquire(segment, offset);
    }

    public static void setIntRelease(MemorySegment segment, long offset, int value) {
        INT.setRelease(segment, offset, value);
    }

    public static int getIntVolatile(MemorySegment segment, long offset) {
        return (int) INT.getVolatile(segment, offset);
    }

    /** Atomic add with volatile (sequentially consistent) semantics; returns the previous value. */
    public static long getAndAddLong(MemorySegment segment, long offset, long delta) {
        return (long) LONG.getAndAdd(segment, offset, delta);
    }

    /** Atomic compare-and-set with volatile semantics. */
    public static boolean compareAndSetLong(MemorySegment segment, long offset, long expected, long value) {
        return LONG.compareAndSet(segment, offset, expected, value);
    }

    /** Atomic add with volatile (sequentially consistent) semantics; returns the previous value. */
    public static int getAndAddInt(MemorySegment segment, long offset, int delta) {
        return (int) INT.getAndAdd(segment, offset, delta);
    }
}
