package io.railcoll;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node step's wait that a node-mate's later call satisfied still checks the node-mate's call of its own number.
 * Node words only grow, so a node-mate whose call never raised the awaited flag (it ran another root's broadcast) and
 * whose next call raised it satisfies the wait; its flag's line then shows that later call. Before the fix nothing was
 * compared there, and a broadcast whose ranks disagreed on the root returned on every rank, the odd one with a later
 * call's bytes (CI, MismatchSystemTest, 1x4 ROOT). The order is forced here: the node-mate's later raise is in place
 * before the odd rank posts.
 */
class NodeMateRaisedAgainMismatchTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60));

    @Test
    void aWaitMetByTheNodeMatesNextCallFindsTheRootMismatch() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(4, CONFIG)) {
            ranks.onEveryRank(c -> {
                c.forceAlgorithm("broadcast.shm"); // 64 bytes: through the node buffer, flag 0 raised by the root
                c.barrier();
            });
            // Ranks 0-2 broadcast from rank 0; rank 1 then roots a broadcast of its own, raising flag 0 in that call.
            for (int r = 0; r < 3; r++) {
                int rank = r;
                ranks.async(rank, c -> c.broadcast(new byte[64], 0)).get(60, TimeUnit.SECONDS);
            }
            ranks.async(1, c -> c.ibroadcast(new byte[64], 1).await()).get(60, TimeUnit.SECONDS);
            // Rank 3 broadcasts from rank 1 as that same call: rank 1's flag 0 already reads past it.
            MismatchException found = assertThrows(MismatchException.class,
                    () -> ranks.rank(3).broadcast(new byte[64], 1));
            assertTrue(found.getMessage().contains("root"), found.getMessage());
        }
    }
}
