package io.railcoll.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FutexTest {

    @Test
    void waitReturnsAtOnceWhenTheWordDiffersFromTheExpectedValue() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(64, 64);
            SharedAccess.setIntRelease(word, 0, 7);
            assertEquals(Futex.Outcome.VALUE_CHANGED, Futex.await(word, 0, 6, 5_000_000_000L));
        }
    }

    @Test
    void waitTimesOutWhenNobodyWakes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(64, 64);
            long start = System.nanoTime();
            assertEquals(Futex.Outcome.TIMED_OUT, Futex.await(word, 0, 0, 20_000_000L));
            assertTrue(System.nanoTime() - start >= 15_000_000L, "returned before the timeout");
        }
    }

    @Test
    void wakeReleasesASleepingThreadAndCountsIt() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment word = arena.allocate(64, 64);
            CompletableFuture<Futex.Outcome> sleeper = CompletableFuture.supplyAsync(
                    () -> Futex.await(word, 0, 0, 30_000_000_000L));
            // Keep waking until the sleeper is known to have been woken by us: a wake that lands
            // before it sleeps wakes nobody (returns 0) and is simply repeated.
            int woken = 0;
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (woken == 0 && System.nanoTime() < deadline) {
                Thread.sleep(2);
                woken = Futex.wake(word, 0, 1);
            }
            assertEquals(1, woken);
            assertEquals(Futex.Outcome.WOKEN, sleeper.get(10, TimeUnit.SECONDS));
            assertEquals(0, Futex.wake(word, 0, 1), "nobody left to wake");
        }
    }

    @Test
    void rejectsMisalignedAndHeapWords() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(64, 64);
            assertThrows(IllegalArgumentException.class, () -> Futex.wake(word, 2, 1));
            assertThrows(IllegalArgumentException.class, () -> Futex.wake(MemorySegment.ofArray(new int[4]), 0, 1));
        }
    }
}
