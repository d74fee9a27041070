package io.railcoll.transport.tcp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpscRingTest {

    /** A slot that records what the producer wrote. */
    static final class Box {
        long value;
    }

    @Test
    void fifoWithWrapAroundAndFullAndEmpty() {
        SpscRing<Box> ring = new SpscRing<>(4, Box::new);
        assertTrue(ring.isEmpty());
        assertNull(ring.peek());
        long next = 0;
        long expect = 0;
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 4; i++) {
                Box b = ring.claim();
                assertNotNull(b, "slot " + i + " of round " + round);
                b.value = next++;
                ring.publish();
            }
            assertNull(ring.claim(), "a full ring has no slot to claim");
            for (int i = 0; i < 3; i++) {
                Box b = ring.peek();
                assertEquals(expect++, b.value);
                ring.release();
            }
            // one left in the ring: a claim succeeds again, and order holds across the wrap
            Box b = ring.claim();
            b.value = next++;
            ring.publish();
            assertEquals(expect++, ring.peek().value);
            ring.release();
            assertEquals(expect++, ring.peek().value);
            ring.release();
            assertTrue(ring.isEmpty());
        }
    }

    @Test
    void slotsAreReusedNotAllocated() {
        SpscRing<Box> ring = new SpscRing<>(2, Box::new);
        Box first = ring.claim();
        ring.publish();
        ring.peek();
        ring.release();
        ring.claim();
        ring.publish();
        ring.peek();
        ring.release();
        assertSame(first, ring.claim(), "the third claim reuses the first slot");
    }

    @Test
    void rejectsCapacityThatIsNotAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new SpscRing<>(3, Box::new));
    }

    @Test
    void concurrentProducerAndConsumerSeeEveryValueInOrder() throws Exception {
        SpscRing<Box> ring = new SpscRing<>(64, Box::new);
        int count = 500_000;
        long[] failure = {-1};
        Thread consumer = Thread.ofPlatform().start(() -> {
            long expected = 0;
            while (expected < count) {
                Box b = ring.peek();
                if (b == null) {
                    Thread.onSpinWait();
                    continue;
                }
                if (b.value != expected && failure[0] < 0) {
                    failure[0] = expected;
                }
                expected++;
                ring.release();
            }
        });
        for (long v = 0; v < count; v++) {
            Box b;
            while ((b = ring.claim()) == null) {
                Thread.onSpinWait();
            }
            b.value = v;
            ring.publish();
        }
        consumer.join(60_000);
        assertFalse(consumer.isAlive(), "consumer finished");
        assertEquals(-1, failure[0], "first value seen out of order or torn");
        assertTrue(ring.isEmpty());
    }
}
