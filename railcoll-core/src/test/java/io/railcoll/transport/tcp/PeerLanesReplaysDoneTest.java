package io.railcoll.transport.tcp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decision 0246: a connection closed here leaves the peer's re-sent frames pending until the peer's REPLAYS_DONE
 * for it, in whichever order the close and the REPLAYS_DONE come.
 */
class PeerLanesReplaysDoneTest {

    @Test
    void aCloseIsPendingUntilItsReplaysDone() {
        PeerLanes p = new PeerLanes(1, 2);
        assertFalse(p.replaysPending());
        p.closedAwaitingReplays(0);
        assertTrue(p.replaysPending());
        assertTrue(p.replaysDone(1), "connection 1 was made (start-up)");
        assertTrue(p.replaysPending(), "a REPLAYS_DONE of another connection settles nothing of connection 0");
        assertTrue(p.replaysDone(0));
        assertFalse(p.replaysPending());
    }

    @Test
    void aReplaysDoneBeforeTheCloseLeavesNothingPending() {
        PeerLanes p = new PeerLanes(1, 2);
        assertTrue(p.replaysDone(1));
        p.closedAwaitingReplays(1);
        assertFalse(p.replaysPending(), "the peer had re-sent everything before this side closed it");
        p.closedAwaitingReplays(0);
        assertTrue(p.replaysPending(), "an early REPLAYS_DONE is used once, for its own connection");
    }

    @Test
    void eachClosedConnectionNeedsItsOwnReplaysDone() {
        PeerLanes p = new PeerLanes(1, 2);
        int reconnected = p.nextGeneration();
        p.closedAwaitingReplays(1);
        p.closedAwaitingReplays(reconnected);
        assertTrue(p.replaysDone(reconnected));
        assertTrue(p.replaysPending());
        assertTrue(p.replaysDone(1));
        assertFalse(p.replaysPending());
    }

    @Test
    void aReplaysDoneNamingAConnectionNeverMadeIsRefused() {
        PeerLanes p = new PeerLanes(1, 2);
        assertFalse(p.replaysDone(2), "generation 2 was never made");
        assertFalse(p.replaysDone(-1));
        assertFalse(p.replaysPending());
    }
}
