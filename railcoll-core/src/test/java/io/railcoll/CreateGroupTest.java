package io.railcoll;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code createGroup} (MPI_Comm_create_group, decision 0125) on real in-process ranks: made by its members alone
 * while the other ranks make groups of their own, ordered as listed, made twice with the same members and tag
 * (two communicators), made by two threads of each member at once with distinct tags in opposite orders; the world's
 * own creations unaffected; bad arguments refused before anything is sent; members that disagree on the tag fail at
 * the deadline with a message naming the call.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CreateGroupTest {

    private static int[] members(Communicator c, int jobRank) {
        return SubCommunicatorTest.members(c, jobRank);
    }

    @Test
    void membersAloneMakeItWhileTheOthersMakeTheirOwn() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(5, Config.defaults())) {
            ranks.onEveryRank(world -> {
                int me = world.rank();
                int[] group = me == 3 || me == 0 ? new int[] {3, 0} : new int[] {4, 1, 2};
                try (Communicator first = world.createGroup(group, 7);
                     Communicator second = world.createGroup(group, 7)) {
                    assertArrayEquals(group, members(first, me), "rank " + me);
                    assertArrayEquals(group, members(second, me), "rank " + me + ", the second of the same group");
                    assertTrue(first.name().startsWith("world.createGroup#0(tag 7)"), first.name());
                    assertTrue(second.name().startsWith("world.createGroup#1(tag 7)"), second.name());
                    // Point-to-point on the group: each sends its job rank to the next member.
                    int next = (first.rank() + 1) % first.size();
                    int prev = (first.rank() + first.size() - 1) % first.size();
                    byte[] got = new byte[4];
                    first.sendRecv(java.lang.foreign.MemorySegment.ofArray(ByteBuffer.allocate(4)
                                    .order(ByteOrder.LITTLE_ENDIAN).putInt(0, me).array()), next, 5,
                            java.lang.foreign.MemorySegment.ofArray(got), prev, 5);
                    assertEquals(group[prev], ByteBuffer.wrap(got).order(ByteOrder.LITTLE_ENDIAN).getInt());
                }
                // The world's own creations count as before: every rank's next split is its first.
                try (Communicator all = world.split(0, -me).orElseThrow()) {
                    assertArrayEquals(new int[] {4, 3, 2, 1, 0}, members(all, me));
                    assertTrue(all.name().startsWith("world.split#0"), all.name());
                }
            });
        }
    }

    @Test
    void twoThreadsOfEachMemberMakeTwoWithDistinctTagsInOppositeOrders() throws Exception {
        Config threads = Config.defaults().withThreadSafe(true);
        try (InProcessRanks ranks = InProcessRanks.start(3, threads)) {
            ranks.onEveryRank(world -> {
                int me = world.rank();
                if (me == 2) {
                    return; // not a member of either: it calls nothing
                }
                java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
                try {
                    int[] order = me == 0 ? new int[] {1, 2} : new int[] {2, 1};
                    java.util.List<Future<int[]>> made = new java.util.ArrayList<>();
                    for (int tag : order) {
                        made.add(two.submit(() -> {
                            try (Communicator c = world.createGroup(new int[] {1, 0}, tag)) {
                                byte[] sum = new byte[4];
                                c.allreduce(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                                                .putInt(0, tag * 100 + me).array(), sum,
                                        io.railcoll.reduce.ElementType.INT, io.railcoll.reduce.PredefinedOperator.SUM);
                                return new int[] {tag, ByteBuffer.wrap(sum).order(ByteOrder.LITTLE_ENDIAN).getInt()};
                            }
                        }));
                        Thread.sleep(50); // the first well under way before the second starts
                    }
                    for (Future<int[]> f : made) {
                        int[] r = f.get(60, TimeUnit.SECONDS);
                        assertEquals(r[0] * 200 + 1, r[1], "tag " + r[0] + ": both members' contributions");
                    }
                } finally {
                    two.shutdownNow();
                }
            });
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsSent() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, Config.defaults())) {
            ranks.onEveryRank(world -> {
                int me = world.rank();
                assertRefused(() -> world.createGroup(new int[] {1 - me}, 0), "is not among the ranks");
                assertRefused(() -> world.createGroup(new int[] {me, me}, 0), "listed twice");
                assertRefused(() -> world.createGroup(new int[] {me, 2}, 0), "out of range");
                assertRefused(() -> world.createGroup(new int[] {me}, -1), "tag -1 is negative");
                world.barrier();
                try (Communicator alone = world.createGroup(new int[] {me}, 0)) {
                    assertEquals(1, alone.size());
                }
            });
        }
    }

    private static void assertRefused(org.junit.jupiter.api.function.Executable call, String says) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }

    @Test
    void membersThatPassOtherTagsFailAtTheDeadlineNamingTheCall() throws Exception {
        Config quick = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(3));
        try (InProcessRanks ranks = InProcessRanks.start(2, quick)) {
            Future<?> zero = ranks.async(0, world -> world.createGroup(new int[] {0, 1}, 1));
            Future<?> one = ranks.async(1, world -> world.createGroup(new int[] {0, 1}, 2));
            for (Future<?> f : java.util.List.of(zero, one)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
                assertInstanceOf(CollectiveTimeoutException.class, e.getCause(), String.valueOf(e.getCause()));
                assertTrue(e.getCause().getMessage().contains("createGroup(ranks [0, 1], tag "),
                        e.getCause().getMessage());
            }
        }
    }

    @Test
    void groupContextsDifferByMembersOrderTagAndSequenceAndFromSplitContexts() {
        Set<Long> seen = new HashSet<>();
        for (long parent : new long[] {0, SplitPlan.context(0, 0, 0)}) {
            for (int[] members : new int[][] {{0, 1}, {1, 0}, {0, 1, 2}, {2}, {0}}) {
                for (int tag = 0; tag < 20; tag++) {
                    for (long sequence = 0; sequence < 20; sequence++) {
                        long c = SplitPlan.groupContext(parent, members, tag, sequence);
                        assertNotEquals(0, c);
                        assertTrue(seen.add(c), "collision at " + java.util.Arrays.toString(members) + "/" + tag);
                    }
                }
            }
            for (long creation = 0; creation < 50; creation++) {
                for (int color = 0; color < 50; color++) {
                    assertTrue(seen.add(SplitPlan.context(parent, creation, color)), "a split's context collides");
                }
            }
        }
    }
}
