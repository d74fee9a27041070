package io.railcoll.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.railcoll.memory.Doorbell;
import io.railcoll.memory.SharedAccess;
import io.railcoll.memory.WaitStrategy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ring over plain native memory in one process: wrap-around, full and empty, counters, waking. */
class ShmChannelTest {
    private static final int CAPACITY = 4096;
    private static final long CONTROL = 0;
    private static final long WRITER_BELL = 256;
    private static final long READER_BELL = 384;
    private static final long DATA = 4096;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory = arena.allocate(DATA + CAPACITY, 4096);

    @AfterEach
    void close() {
        arena.close();
    }

    private ShmChannel channel() {
        return new ShmChannel(memory, CONTROL, DATA, CAPACITY, 0, 1, new Doorbell(memory, WRITER_BELL),
                new Doorbell(memory, READER_BELL), PeerWatch.unwatched(2, 0), new WaitStrategy(10, 2, 5_000_000L));
    }

    private static MemorySegment pattern(Arena arena, long size, int seed) {
        MemorySegment s = arena.allocate(Math.max(1, size));
        for (long i = 0; i < size; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed * 7 + (i >>> 8)));
        }
        return s;
    }

    @Test
    void oddSizedMessagesWrapAroundTheRingIntact() {
        ShmChannel ring = channel();
        for (int round = 0; round < 60; round++) {
            int size = 997 + round * 13; // never divides the capacity: every boundary falls somewhere new
            MemorySegment in = pattern(arena, size, round);
            MemorySegment out = arena.allocate(size);
            assertEquals(size, ring.write(in, 0, size));
            assertEquals(size, ring.readable());
            assertEquals(size, ring.read(out, 0, size));
            assertEquals(-1, in.mismatch(out), "round " + round);
        }
        assertEquals(0, ring.readable());
        assertEquals(CAPACITY, ring.writable());
    }

    @Test
    void fullRingAcceptsOnlyWhatFitsAndEmptyRingDeliversNothing() {
        ShmChannel ring = channel();
        MemorySegment in = pattern(arena, 3 * CAPACITY, 1);
        MemorySegment out = arena.allocate(3 * CAPACITY);
        assertEquals(0, ring.read(out, 0, 10), "empty ring");
        assertEquals(1000, ring.write(in, 0, 1000));
        assertEquals(CAPACITY - 1000, ring.write(in, 1000, 3L * CAPACITY - 1000), "only the free space");
        assertEquals(0, ring.writable());
        assertEquals(0, ring.write(in, CAPACITY, 1), "full ring");
        assertEquals(100, ring.read(out, 0, 100));
        assertEquals(100, ring.writable());
        assertEquals(100, ring.write(in, CAPACITY, 500), "exactly the freed bytes, wrapping to the start");
        assertEquals(CAPACITY, ring.read(out, 100, 2L * CAPACITY));
        assertEquals(-1, MemorySegment.mismatch(in, 0, CAPACITY + 100, out, 0, CAPACITY + 100));
        assertEquals(0, ring.write(in, 0, 0));
    }

    @Test
    void countersKeepWorkingPastTheThirtyTwoBitBoundary() {
        long start = (1L << 32) - 1500; // a counter truncated to int anywhere would break here
        SharedAccess.setLongRelease(memory, CONTROL + ShmChannel.TAIL, start);
        SharedAccess.setLongRelease(memory, CONTROL + ShmChannel.HEAD, start);
        ShmChannel ring = channel();
        MemorySegment in = pattern(arena, 3000, 9);
        MemorySegment out = arena.allocate(3000);
        for (int i = 0; i < 5; i++) {
            assertEquals(3000, ring.write(in, 0, 3000));
            assertEquals(3000, ring.read(out, 0, 3000));
            assertEquals(-1, in.mismatch(out));
        }
        assertEquals(start + 15000, SharedAccess.getLongAcquire(memory, CONTROL + ShmChannel.TAIL));
    }

    @Test
    void aMessageMuchLargerThanTheRingStreamsBetweenTwoThreads() throws Exception {
        ShmChannel ring = channel();
        long size = 1_000_003;
        MemorySegment in = pattern(arena, size, 5);
        MemorySegment out = arena.allocate(size);
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> ring.readFully(out, 0, size, 20_000_000_000L));
        ring.writeFully(in, 0, size, 20_000_000_000L);
        reader.get(30, TimeUnit.SECONDS);
        assertEquals(-1, in.mismatch(out));
    }

    @Test
    void aStalledReadTimesOutSayingWhatItAwaited() {
        ShmChannel ring = channel();
        ShmException e = assertThrows(ShmException.class, () -> ring.readFully(arena.allocate(8), 0, 8, 50_000_000L));
        assertEquals(ShmException.Reason.TIMED_OUT, e.reason());
        assertTrue(e.getMessage().contains("data in the ring from local rank 0 to local rank 1"), e.getMessage());
        assertTrue(e.getMessage().contains(" ms "), e.getMessage());
    }
}
