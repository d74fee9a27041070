package io.railcoll;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sub-communicators of real in-process ranks (TCP over loopback): MPI's ordering rule, an undefined color, create's
 * refusals before anything is sent, what close does to parents and children, a split against a dup. The full matrix
 * of collectives on uneven placements with shared memory is {@code SubcommSystemTest}'s.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SubCommunicatorTest {

    /** Every rank's job rank, all-gathered on {@code c}: the order of its members. */
    static int[] members(Communicator c, int jobRank) {
        byte[] all = new byte[4 * c.size()];
        c.allgather(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, jobRank).array(), all);
        ByteBuffer in = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        int[] m = new int[c.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = in.getInt();
        }
        return m;
    }

    @Test
    void membersAreOrderedByKeyThenRankAndANegativeColorGetsNone() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(5, Config.defaults())) {
            ranks.onEveryRank(world -> {
                int me = world.rank();
                // Keys reverse the order within each parity; ranks 0 and 1 share key 100 (a tie: rank order).
                int key = me < 2 ? 100 : -me;
                try (Communicator parity = world.split(me % 2, key).orElseThrow()) {
                    int[] expected = me % 2 == 0 ? new int[] {4, 2, 0} : new int[] {3, 1};
                    assertArrayEquals(expected, members(parity, me), "rank " + me);
                    assertEquals(expected.length, parity.size());
                    assertTrue(parity.name().startsWith("world.split#0(color " + me % 2 + ")"), parity.name());
                }
                Optional<Communicator> none = world.split(me == 2 ? Communicator.UNDEFINED : 0, 0);
                assertEquals(me != 2, none.isPresent(), "rank " + me);
                if (none.isPresent()) {
                    try (Communicator c = none.get()) {
                        assertArrayEquals(new int[] {0, 1, 3, 4}, members(c, me));
                    }
                }
                try (Communicator dup = world.dup()) {
                    assertArrayEquals(new int[] {0, 1, 2, 3, 4}, members(dup, me));
                    assertEquals(world.rank(), dup.rank());
                }
                try (Communicator node = world.splitByNode()) {
                    assertEquals(1, node.size(), "each in-process rank is a node of its own");
                }
                Optional<Communicator> subset = world.create(new int[] {3, 0});
                assertEquals(me == 3 || me == 0, subset.isPresent());
                if (subset.isPresent()) {
                    try (Communicator c = subset.get()) {
                        assertArrayEquals(new int[] {3, 0}, members(c, me));
                    }
                }
            });
        }
    }

    /**
     * {@code idup} (decision 0149): rank 0's returns before the others call theirs (they wait for its message first),
     * and refuses its communicator until the request has finished; an all-reduce started on the parent after it
     * completes first; one rank's {@code idup} pairs with another's {@code dup}.
     */
    @Test
    void idupRunsBesideTheParentsCollectivesAndIsRefusedUntilItsRequestFinishes() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(3, Config.defaults())) {
            ranks.onEveryRank(world -> {
                int me = world.rank();
                DupInFlight started;
                if (me == 0) {
                    started = world.idup();
                    IllegalStateException early = assertThrows(IllegalStateException.class, started::communicator);
                    assertTrue(early.getMessage().contains("has not finished"), early.getMessage());
                    world.send(new byte[] {1}, 1, 5);
                    world.send(new byte[] {1}, 2, 5);
                } else {
                    world.recv(new byte[1], 0, 5);
                    started = world.idup();
                }
                int[] sum = new int[1];
                Request reduce = world.iallreduce(new int[] {me + 1}, sum, io.railcoll.reduce.PredefinedOperator.SUM);
                reduce.await();
                assertEquals(6, sum[0]);
                started.request().await();
                try (Communicator dup = started.communicator()) {
                    assertArrayEquals(new int[] {0, 1, 2}, members(dup, me));
                }
                // rank 0's idup pairs with the others' blocking dup
                if (me == 0) {
                    DupInFlight d = world.idup();
                    d.request().await();
                    try (Communicator dup = d.communicator()) {
                        assertEquals(3, members(dup, me).length);
                    }
                } else {
                    try (Communicator dup = world.dup()) {
                        assertEquals(3, members(dup, me).length);
                    }
                }
            });
        }
    }

    @Test
    void createRefusesBadRanksBeforeSendingAndTheWorldStaysUsable() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, Config.defaults())) {
            ranks.onEveryRank(world -> {
                IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                        () -> world.create(new int[] {1, 1}));
                assertTrue(twice.getMessage().contains("listed twice"), twice.getMessage());
                IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                        () -> world.create(new int[] {0, 2}));
                assertTrue(range.getMessage().contains("out of range"), range.getMessage());
                world.barrier();
                assertEquals(2, world.dup().size());
            });
        }
    }

    @Test
    void aChildOutlivesItsParentAndTheWorldClosesWhatIsLeftOpen() throws Exception {
        InProcessRanks ranks = InProcessRanks.start(3, Config.defaults());
        Communicator[] leftOpen = new Communicator[3];
        try {
            ranks.onEveryRank(world -> {
                int me = world.rank();
                Communicator all = world.split(0, me).orElseThrow();
                Communicator child = all.dup();
                all.close();
                IllegalStateException closed = assertThrows(IllegalStateException.class, all::barrier);
                assertTrue(closed.getMessage().contains("world.split#0(color 0) is closed"), closed.getMessage());
                assertArrayEquals(new int[] {0, 1, 2}, members(child, me));
                assertTrue(child.name().startsWith("world.split#0(color 0).dup#0"), child.name());
                world.barrier();
                leftOpen[me] = child;
            });
        } finally {
            ranks.close();
        }
        for (Communicator c : leftOpen) {
            IllegalStateException e = assertThrows(IllegalStateException.class, c::barrier);
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }

    @Test
    void aSplitAgainstADupFailsEveryRankWithAMismatch() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(20)))) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> ranks.onEveryRank(world -> {
                if (world.rank() == 0) {
                    world.dup();
                } else {
                    world.split(0, 0);
                }
            }));
            assertInstanceOf(MismatchException.class, e.getCause(), String.valueOf(e.getCause()));
            assertTrue(e.getCause().getMessage().contains("called dup") || e.getCause().getMessage().contains("called split"),
                    e.getCause().getMessage());
            // The first rank's failure ends onEveryRank; the other's follows within its own split.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (int r = 0; r < 2; r++) {
                while (ranks.rank(r).failure().isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertInstanceOf(MismatchException.class, ranks.rank(r).failure().orElse(null), "rank " + r);
            }
            Thread.sleep(2000); // let the failed split return on the other rank before the ranks close
        }
    }

    @Test
    void contextsDifferByParentCreationAndColorAndAreNeverTheWorlds() {
        Set<Long> seen = new HashSet<>();
        for (long parent : new long[] {0, 1, SplitPlan.context(0, 0, 0)}) {
            for (long creation = 0; creation < 50; creation++) {
                for (int color = 0; color < 50; color++) {
                    long c = SplitPlan.context(parent, creation, color);
                    assertNotEquals(0, c);
                    assertTrue(seen.add(c), "context collision at " + parent + "/" + creation + "/" + color);
                }
            }
        }
    }

    @Test
    void aPlanNumbersNodesInTheOrderOfTheirFirstMember() {
        // Parent: 3,4,2 ranks on nodes 0,1,2. Color 0: every third rank, keys reversing the order.
        Placement parent = Placement.ofCounts(3, 4, 2);
        int[] colors = new int[9];
        int[] keys = new int[9];
        for (int r = 0; r < 9; r++) {
            colors[r] = r % 3 == 0 ? 0 : Communicator.UNDEFINED;
            keys[r] = -r;
        }
        SplitPlan plan = SplitPlan.of(colors, keys, 3, parent, 0, 0);
        assertArrayEquals(new int[] {6, 3, 0}, plan.parentRanks());
        assertEquals(1, plan.rank());
        // 6 and 3 are both on parent node 1, which comes first; 0 is on node 0, second.
        assertEquals(Placement.ofNodeIds(0, 0, 1), plan.placement());
        assertEquals(null, SplitPlan.of(colors, keys, 1, parent, 0, 0));
        assertFalse(plan.context() == SplitPlan.of(colors, keys, 3, parent, 0, 1).context());
    }
}
