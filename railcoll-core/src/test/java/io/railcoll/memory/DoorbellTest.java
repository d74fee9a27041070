package io.railcoll.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DoorbellTest {

    @Test
    void ringWithoutASleeperLeavesTheWordAlone() {
        try (Arena arena = Arena.ofConfined()) {
            Doorbell bell = new Doorbell(arena.allocate(Doorbell.BYTES, 128), 0);
            bell.ring();
            bell.ring();
            assertEquals(0, bell.sequence(), "the fast path must not write the shared line");
        }
    }

    @Test
    void ringAfterArmBumpsTheKeySoTheSleepReturnsAtOnce() {
        try (Arena arena = Arena.ofConfined()) {
            Doorbell bell = new Doorbell(arena.allocate(Doorbell.BYTES, 128), 0);
            int key = bell.arm();
            bell.ring(); // lands between the sleeper's re-check and its sleep
            assertEquals(Futex.Outcome.VALUE_CHANGED, bell.await(key, 5_000_000_000L));
            bell.disarm();
            assertEquals(0, bell.waiters());
        }
    }

    @Test
    void idlerSleepsUntilTheFlagIsPublishedAndRung() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment segment = arena.allocate(4096, 4096);
            Doorbell bell = new Doorbell(segment, 0);
            SequenceFlags flags = new SequenceFlags(segment, 128, 1, 128);
            Idler idler = new Idler(bell, new WaitStrategy(0, 0, 60_000_000_000L));
            CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
                idler.reset();
                try {
                    while (flags.get(0) < 1) {
                        idler.idle();
                    }
                } finally {
                    idler.reset();
                }
                return idler.sleeps();
            });
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (bell.waiters() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            Thread.sleep(20); // let it reach the futex; a 60 s park timeout means only a ring can free it
            flags.publish(0, 1);
            bell.ring();
            long sleeps = waiter.get(10, TimeUnit.SECONDS);
            assertTrue(sleeps <= 2, "woken by the ring, not by timeouts: " + sleeps + " sleeps");
            assertEquals(0, bell.waiters(), "reset withdraws the announcement");
        }
    }

    @Test
    void ringAllWakesOnlyArmedBellsAndSkipsTheRinger() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(3 * Doorbell.BYTES, 128);
            Doorbell[] bells = {new Doorbell(segment, 0), new Doorbell(segment, 128), new Doorbell(segment, 256)};
            bells[0].arm();
            bells[2].arm();
            Doorbell.ringAll(bells, 0);
            assertEquals(0, bells[0].sequence(), "the ringer's own bell is skipped");
            assertEquals(0, bells[1].sequence(), "nobody sleeps on bell 1: no write");
            assertEquals(1, bells[2].sequence());
        }
    }

    @Test
    void sequenceFlagsNeverGoBack() {
        try (Arena arena = Arena.ofConfined()) {
            SequenceFlags flags = new SequenceFlags(arena.allocate(512, 128), 0, 2, 128);
            flags.publish(1, 5);
            assertEquals(0, flags.firstBelow(1));
            flags.publish(0, 5);
            assertEquals(-1, flags.firstBelow(5));
            assertEquals(0, flags.firstBelow(6));
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> flags.publish(1, 4));
        }
    }
}
