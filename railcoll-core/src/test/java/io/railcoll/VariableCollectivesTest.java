package io.railcoll;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The v-variants (gatherv, scatterv, all-gatherv, all-to-allv, reduce-scatter with per-rank counts) through the API on
 * real communicators (TCP over loopback, one thread per rank in this JVM): N = 1, 2, 3, 5 and 6, every algorithm of
 * each forced in turn and the automatic choice, count vectors with zeros, all zeros, one non-empty block, odd sizes
 * and a large block, roots in turn, packed and scattered displacements (with gaps, blocks out of rank order), in-place
 * forms and the byte[], ByteBuffer and array forms. Every rank's buffer is compared byte for byte with a sequential
 * reference computed here, including the bytes around the blocks, which must stay untouched. Ranks that pass
 * different counts fail with a {@link MismatchException} on every rank.
 */
class VariableCollectivesTest {
    private static final int[] SIZES = {1, 2, 3, 5, 6};

    @Test
    void everyVariantAlgorithmAndCountVectorMatchesTheSequentialReference() throws Exception {
        int cases = 0;
        for (int n : SIZES) {
            try (InProcessRanks ranks = InProcessRanks.start(n, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60)))) {
                for (Collective c : List.of(Collective.GATHERV, Collective.SCATTERV, Collective.ALLGATHERV,
                        Collective.ALLTOALLV, Collective.REDUCE_SCATTERV)) {
                    for (String id : algorithms(c)) {
                        force(ranks, c, id);
                        List<long[]> vectors = VariantCases.countVectors(n, c.id().hashCode() ^ id.hashCode());
                        for (int v = 0; v < vectors.size(); v++) {
                            long[] counts = vectors.get(v);
                            int root = (v + cases) % n;
                            boolean spread = v % 2 == 1;
                            boolean inPlace = v % 3 == 2;
                            final int seed = cases;
                            final String label = c.id() + " " + id + " N=" + n + " counts=" + Arrays.toString(counts)
                                    + " root=" + root + (spread ? " spread" : "") + (inPlace ? " in place" : "");
                            ranks.onEveryRank(comm -> VariantCases.runCase(comm, c, counts, root, spread, inPlace, seed, label));
                            cases++;
                        }
                    }
                }
            }
        }
        assertTrue(cases > 300, "checked " + cases);
    }

    private static void force(InProcessRanks ranks, Collective c, String id) throws Exception {
        ranks.onEveryRank(comm -> {
            if (id.equals("auto")) {
                comm.clearForcedAlgorithm(c);
            } else {
                comm.forceAlgorithm(id);
            }
        });
    }

    private static List<String> algorithms(Collective c) {
        List<String> ids = new ArrayList<>();
        for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
            ids.add(a.id());
        }
        ids.add("auto");
        return ids;
    }

    @Test
    void argumentsAreRefusedBeforeAnythingIsSent() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(20)))) {
            Communicator c = ranks.rank(0);
            byte[] b = new byte[16];
            assertRefusal(() -> c.allgatherv(b, b.clone(), new long[] {1}, null), "1 counts, expected 2");
            assertRefusal(() -> c.allgatherv(b, b.clone(), new long[] {1, -1}, null), "negative");
            assertRefusal(() -> c.allgatherv(b, new byte[4], new long[] {3, 3}, null), "need 6");
            assertRefusal(() -> c.allgatherv(b, new byte[8], new long[] {3, 3}, new long[] {0, 2}), "overlap");
            assertRefusal(() -> c.allgatherv(b, new byte[8], new long[] {3, 3}, new long[] {0, 6}), "outside");
            assertRefusal(() -> c.gatherv(b, null, new long[] {3, 3}, null, 0), "recv (on the root)");
            assertRefusal(() -> c.scatterv(null, new long[] {3, 3}, null, b, 0), "send (on the root)");
            assertRefusal(() -> c.gatherv(new byte[2], b, new long[] {3, 3}, null, 0), "need 3");
            assertRefusal(() -> c.reduceScatter(new int[3], new int[4], new long[] {2, 2}, PredefinedOperator.SUM),
                    "need 16");
            assertRefusal(() -> c.alltoallv(b, null, null, b.clone(), new long[] {1, 1}, null), "sendCounts");
            // Nothing was sent: a correct call on both ranks still matches.
            ranks.onEveryRank(comm -> {
                byte[] all = new byte[3];
                comm.allgatherv(comm.rank() == 0 ? new byte[] {1} : new byte[] {2, 3}, all, new long[] {1, 2}, null);
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
        assertEveryRankFailsWithACountMismatch(false);
    }

    /** Every v-variant on 3 ranks with disagreeing counts ({@link VariantCases#disagree}), blocking or not. */
    static void assertEveryRankFailsWithACountMismatch(boolean nonBlocking) throws Exception {
        for (Collective c : List.of(Collective.GATHERV, Collective.SCATTERV, Collective.ALLGATHERV,
                Collective.ALLTOALLV, Collective.REDUCE_SCATTERV)) {
            try (InProcessRanks ranks = InProcessRanks.start(3, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(20)))) {
                ConcurrentHashMap<Integer, Throwable> failures = new ConcurrentHashMap<>();
                ranks.onEveryRank(comm -> {
                    try {
                        Request r = VariantCases.disagree(comm, c, nonBlocking);
                        if (r != null) {
                            r.await();
                        }
                        comm.barrier(); // a rank whose part ended before the disagreement was found meets it here
                    } catch (RailcollException e) {
                        failures.put(comm.rank(), e);
                    }
                });
                String call = (nonBlocking ? "i" : "") + c.id();
                for (int r = 0; r < 3; r++) {
                    assertInstanceOf(MismatchException.class, failures.get(r), call + " rank " + r + ": "
                            + failures.get(r));
                }
                assertTrue(failures.values().stream().anyMatch(e -> e.getMessage().contains("count mismatch")),
                        call + ": " + failures.values());
            }
        }
    }
}
