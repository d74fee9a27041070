package io.railcoll;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every call but the plain getters and a second close() is refused once the communicator is closed. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClosedCommunicatorTest {

    @Test
    void aClosedCommunicatorRefusesSelectionCalls() throws Exception {
        InProcessRanks ranks = InProcessRanks.start(1, Config.defaults());
        Communicator c = ranks.rank(0);
        ranks.close();
        c.close(); // a second close does nothing
        for (var call : new org.junit.jupiter.api.function.Executable[] {
                () -> c.selectedAlgorithm(Collective.ALLGATHER, 8, 0),
                () -> c.clearForcedAlgorithm(Collective.ALLGATHER),
                () -> c.forceAlgorithm("allgather.ring"),
                c::barrier}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, call);
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }
}
