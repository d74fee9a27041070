package io.railcoll;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The non-blocking v-variants (decision 0108): igatherv, iscatterv, iallgatherv, ialltoallv and ireduceScatter on real
 * communicators (TCP over loopback, a thread per rank). Each round starts one call of every v-variant (and a second
 * all-to-allv) with seeded random counts (zeros, odd sizes, one large block), roots other than 0, packed and scattered
 * displacements and in-place forms, all in flight at once, then awaits them in a seeded order other than the one they
 * were started in, and checks every buffer byte for byte (the bytes around the blocks included) against the sequential
 * reference of {@link VariantCases}. N = 1, 2, 3, 5 (not powers of two), every algorithm of each collective in turn,
 * and the same on sub-communicators. Disagreeing counts fail every rank with a {@link MismatchException}; a rank that
 * never joins makes the others' requests time out naming the collective, its number and the missing rank.
 */
class NonBlockingVariantsTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60));
    private static final List<Collective> VARIANTS = List.of(Collective.GATHERV, Collective.SCATTERV,
            Collective.ALLGATHERV, Collective.ALLTOALLV, Collective.REDUCE_SCATTERV, Collective.ALLTOALLV);

    @Test
    void severalInFlightCompletedOutOfOrderMatchTheSequentialReference() throws Exception {
        int[] checked = new int[1];
        for (int n : new int[] {1, 2, 3, 5}) {
            try (InProcessRanks ranks = InProcessRanks.start(n, CONFIG)) {
                for (int round = 0; round < 6; round++) {
                    int r = round;
                    ranks.onEveryRank(comm -> forceRound(comm, r));
                    ranks.onEveryRank(comm -> runRound(comm, 1000 * n + r, "N=" + n));
                    checked[0] += VARIANTS.size();
                }
            }
        }
        assertTrue(checked[0] >= 100, "checked " + checked[0]);
    }

    @Test
    void subCommunicatorsRunThemToo() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(5, CONFIG)) {
            ranks.onEveryRank(world -> {
                int me = world.rank();
                // Odd and even ranks (3 and 2), keyed in reverse so sub-ranks differ from world ranks.
                try (Communicator parity = world.split(me % 2, -me).orElseThrow()) {
                    for (int round = 0; round < 4; round++) {
                        forceRound(parity, round);
                        runRound(parity, 77 + round, "parity " + me % 2 + " of N=" + parity.size());
                    }
                    // World calls in flight beside the sub-communicator's.
                    long[] counts = {3, 0, 5, 1, 2};
                    byte[] all = new byte[11];
                    Request w = world.iallgatherv(VariantCases.block(9, me, 0, counts[me]), all, counts, null);
                    runRound(parity, 99, "parity beside the world");
                    w.await();
                    assertArrayEquals(VariantCases.expectedBlocks(9, counts, null, 11, -1), all);
                }
            });
        }
    }

    /** Forces one algorithm of each v-variant, another each round ("auto" among them). */
    private static void forceRound(Communicator comm, int round) {
        for (Collective c : List.of(Collective.GATHERV, Collective.SCATTERV, Collective.ALLGATHERV,
                Collective.ALLTOALLV, Collective.REDUCE_SCATTERV)) {
            List<String> ids = new ArrayList<>();
            for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
                ids.add(a.id());
            }
            ids.add("auto");
            String id = ids.get(round % ids.size());
            if (id.equals("auto")) {
                comm.clearForcedAlgorithm(c);
            } else {
                comm.forceAlgorithm(id);
            }
        }
    }

    /** Starts every variant with its own seeded counts, awaits them in a seeded shuffled order, checks each. */
    private static void runRound(Communicator comm, int seed, String where) {
        int n = comm.size();
        Random random = new Random(seed); // the same on every rank: the ranks agree on every argument
        List<VariantCases.Started> started = new ArrayList<>();
        for (int i = 0; i < VARIANTS.size(); i++) {
            Collective c = VARIANTS.get(i);
            long[] counts = counts(random, n);
            int root = random.nextInt(n);
            boolean spread = random.nextBoolean();
            boolean inPlace = random.nextInt(3) == 0;
            String label = "i" + c.id() + " " + where + " seed " + seed + " counts=" + Arrays.toString(counts) + " root="
                    + root + (spread ? " spread" : "") + (inPlace ? " in place" : "") + " on rank " + comm.rank();
            started.add(VariantCases.startCase(comm, c, counts, root, spread, inPlace, seed + i, label, true));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < started.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, random);
        for (int i : order) {
            started.get(i).request().await();
        }
        for (VariantCases.Started s : started) {
            assertTrue(s.request().test());
            s.check().run();
        }
    }

    /** Zeros, odd sizes, now and then one block larger than the rest together. */
    private static long[] counts(Random random, int n) {
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = random.nextInt(4) == 0 ? 0 : 1 + 2L * random.nextInt(700);
        }
        if (random.nextInt(4) == 0) {
            counts[random.nextInt(n)] = 40_001;
        }
        return counts;
    }

    @Test
    void ialltoallvReturnsBeforeAnyPeerHasJoined() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(3, CONFIG)) {
            CountDownLatch rankZeroStarted = new CountDownLatch(1);
            ranks.onEveryRank(comm -> {
                int me = comm.rank();
                if (me != 0) {
                    // Rank 0's call must return while no peer has posted anything: had it waited for the count
                    // exchange, this latch would never open.
                    assertTrue(rankZeroStarted.await(30, TimeUnit.SECONDS), "ialltoallv on rank 0 did not return");
                }
                long[] sendCounts = {me + 1, 2L * me, 3};
                long[] recvCounts = new long[3];
                for (int i = 0; i < 3; i++) {
                    recvCounts[i] = new long[] {i + 1, 2L * i, 3}[me];
                }
                byte[] send = new byte[(int) Arrays.stream(sendCounts).sum()];
                for (int j = 0, at = 0; j < 3; at += (int) sendCounts[j], j++) {
                    Arrays.fill(send, at, at + (int) sendCounts[j], (byte) (10 * me + j));
                }
                byte[] recv = new byte[(int) Arrays.stream(recvCounts).sum()];
                Request first = comm.ialltoallv(send, sendCounts, null, recv, recvCounts, null);
                // A second call behind it, of another collective: its number follows the all-to-allv's data.
                byte[] gathered = new byte[3];
                Request second = comm.iallgather(new byte[] {(byte) me}, gathered);
                if (me == 0) {
                    rankZeroStarted.countDown();
                }
                assertEquals(first.sequenceNumber() + 1, second.sequenceNumber());
                second.await();
                first.await();
                assertArrayEquals(new byte[] {0, 1, 2}, gathered);
                byte[] expected = new byte[recv.length];
                for (int i = 0, at = 0; i < 3; at += (int) recvCounts[i], i++) {
                    Arrays.fill(expected, at, at + (int) recvCounts[i], (byte) (10 * i + me));
                }
                assertArrayEquals(expected, recv);
            });
        }
    }

    @Test
    void argumentsAreRefusedNamingTheCallBeforeAnythingIsSent() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(20)))) {
            Communicator c = ranks.rank(0);
            byte[] b = new byte[16];
            assertRefusal(() -> c.iallgatherv(b, b.clone(), new long[] {1}, null), "iallgatherv: 1 counts, expected 2");
            assertRefusal(() -> c.igatherv(new byte[2], b, new long[] {3, 3}, null, 0), "igatherv");
            assertRefusal(() -> c.iscatterv(null, new long[] {3, 3}, null, b, 0), "send (on the root)");
            assertRefusal(() -> c.ireduceScatter(new int[3], new int[4], new long[] {2, 2}, PredefinedOperator.SUM),
                    "need 16");
            assertRefusal(() -> c.ialltoallv(b, null, null, b.clone(), new long[] {1, 1}, null),
                    "ialltoallv (sendCounts)");
            ranks.onEveryRank(comm -> {
                byte[] all = new byte[3];
                comm.iallgatherv(comm.rank() == 0 ? new byte[] {1} : new byte[] {2, 3}, all, new long[] {1, 2}, null)
                        .await();
                assertArrayEquals(new byte[] {1, 2, 3}, all);
            });
        }
    }

    private static void assertRefusal(org.junit.jupiter.api.function.Executable call, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(named), () -> "expected '" + named + "' in: " + e.getMessage());
    }

    @Test
    void ranksThatPassDifferentCountsFailEveryRankWithAMismatch() throws Exception {
        VariableCollectivesTest.assertEveryRankFailsWithACountMismatch(true);
    }

    @Test
    void aRankThatNeverJoinsTimesTheRequestOutNamingTheCallAndTheMissingRank() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(3)))) {
            CountDownLatch done = new CountDownLatch(1);
            Throwable[] failure = new Throwable[1];
            long[] seq = new long[1];
            ranks.onEveryRank(comm -> {
                if (comm.rank() == 1) {
                    // Stays alive and silent past the other's deadline, then leaves without calling.
                    assertTrue(done.await(60, TimeUnit.SECONDS));
                    return;
                }
                byte[] recv = new byte[4];
                Request r = comm.ialltoallv(new byte[4], new long[] {2, 2}, null, recv, new long[] {2, 2}, null);
                seq[0] = r.sequenceNumber();
                try {
                    r.await();
                } catch (RailcollException e) {
                    failure[0] = e;
                    assertArrayEquals(new byte[4], recv, "a failed request wrote into its receive buffer");
                } finally {
                    done.countDown();
                }
            });
            assertInstanceOf(CollectiveTimeoutException.class, failure[0], String.valueOf(failure[0]));
            String m = failure[0].getMessage();
            // The count exchange is what waits: it is named, with the all-to-allv it serves and the missing rank.
            assertTrue(m.contains("allgather #" + (seq[0] - 1)) && m.contains("ialltoallv #" + seq[0])
                    && m.contains("ranks missing: 1"), m);
        }
    }
}
