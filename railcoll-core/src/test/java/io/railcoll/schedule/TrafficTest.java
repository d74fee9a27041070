package io.railcoll.schedule;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The program-order k-port model behind {@link CostTerms}. */
class TrafficTest {

    @Test
    void receivePortsSerialiseAHotSpot() {
        // Six ranks send 10 bytes to rank 0, which has 2 receive ports: 3 steps, 30 bytes on the critical path.
        Traffic t = new Traffic(7);
        for (int r = 1; r < 7; r++) {
            t.send(r, 0, 0, 10);
            t.receive(0, r, 0);
        }
        CostTerms c = t.cost(Placement.ofCounts(3, 4), 2, "f");
        assertEquals(3, c.steps());
        assertEquals(30, c.betaBytes());
        assertEquals(20, c.intraNodeReceivedBytes());
        assertEquals(40, c.interNodeReceivedBytes());
        assertEquals(10, c.interNodeSentBytes());
    }

    @Test
    void sendPortsAndDependenciesChain() {
        // 0 -> 1 (100 bytes), then 1 forwards to 2 and 3 with one port: three steps, 100 + 2 * 5 bytes.
        Traffic t = new Traffic(4);
        t.send(0, 1, 0, 100);
        t.receive(1, 0, 0).send(1, 2, 0, 5).send(1, 3, 0, 5);
        t.receive(2, 1, 0);
        t.receive(3, 1, 0);
        CostTerms c = t.cost(Placement.uniform(4, 1), 1, "f");
        assertEquals(3, c.steps());
        assertEquals(110, c.betaBytes());
    }

    @Test
    void receivesListedAgainstTheirArrivalOrderHaveNoSchedule() {
        // Rank 1 lists the receive whose put comes second first; with one port the order cannot be kept.
        Traffic t = new Traffic(2);
        t.send(0, 1, 0, 1).send(0, 1, 1, 1);
        t.receive(1, 0, 1).receive(1, 0, 0);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> t.cost(Placement.uniform(2, 1), 1, "f"));
        assertTrue(e.getMessage().contains("forms a cycle"), e.getMessage());
        assertEquals(1, t.cost(Placement.uniform(2, 1), 2, "f").steps(), "two ports take both at once");
    }

    @Test
    void unmatchedMessagesAreRejected() {
        Traffic t = new Traffic(2);
        t.send(0, 1, 7, 1);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> t.cost(Placement.uniform(2, 1), 1, "f"));
        assertTrue(e.getMessage().contains("rank 0 sends to rank 1 with tag 7 but that rank never receives it"),
                e.getMessage());
    }
}
