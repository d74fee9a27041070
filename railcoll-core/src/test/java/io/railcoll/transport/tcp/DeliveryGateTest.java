package io.railcoll.transport.tcp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeliveryGateTest {

    @Test
    void countsInOrderUntilClosedThenStaysFinal() {
        DeliveryGate g = new DeliveryGate();
        assertTrue(g.tryAdvance(0));
        assertTrue(g.tryAdvance(1));
        assertFalse(g.tryAdvance(5), "only the next position advances");
        assertEquals(2, g.close());
        assertTrue(g.isClosed());
        assertFalse(g.tryAdvance(2), "a closed lane delivers nothing more");
        assertEquals(2, g.close(), "closing again returns the same final count");
        assertEquals(2, g.count());
    }

    @Test
    void aRaceBetweenDeliveryAndClosingHasExactlyOneWinner() throws Exception {
        for (int round = 0; round < 2000; round++) {
            DeliveryGate g = new DeliveryGate();
            boolean[] delivered = new boolean[1];
            Thread lane = Thread.ofPlatform().start(() -> delivered[0] = g.tryAdvance(0));
            long finalCount = g.close();
            lane.join();
            // The copy elsewhere is a duplicate exactly when the lane's own delivery won.
            assertEquals(delivered[0], finalCount == 1, "round " + round);
        }
    }
}
