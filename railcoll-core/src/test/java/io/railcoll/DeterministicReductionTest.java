package io.railcoll;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.deterministic.RankOrderReduction;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.select.AlgorithmSelector;
import io.railcoll.select.TuningFile;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The deterministic option (decision 0091) on real communicators (TCP over loopback, a thread per rank): every
 * reduction's bits are those of a sequential left fold over ranks 0..N-1 computed here, on every rank, for float and
 * double sums whose values span 40 binary orders of magnitude (so that other orders give other bits, which the
 * default algorithms are shown to do) and for a non-commutative user operator; forcing another algorithm is refused;
 * ranks that disagree on the option fail with a mismatch.
 */
class DeterministicReductionTest {
    private static final Config DETERMINISTIC = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60))
            .withDeterministic(true);
    private static final long[] COUNTS = {0, 1, 7, 1001};
    private static final List<Collective> REDUCTIONS = List.of(Collective.ALLREDUCE, Collective.REDUCE,
            Collective.REDUCE_SCATTER, Collective.SCAN, Collective.EXSCAN);

    @Test
    void everyReductionGivesTheSequentialRankOrderBitsOnEveryRank() throws Exception {
        AtomicInteger checked = new AtomicInteger();
        for (int n : new int[] {1, 3, 5}) {
            try (InProcessRanks ranks = InProcessRanks.start(n, DETERMINISTIC)) {
                ranks.onEveryRank(c -> {
                    int seed = 0;
                    for (Collective col : REDUCTIONS) {
                        assertEquals(RankOrderReduction.idFor(col), c.selectedAlgorithm(col, 64, 0));
                        for (DeterministicKind k : DeterministicKind.values()) {
                            for (long count : COUNTS) {
                                checkAgainstReference(c, col, k, count, seed % n, seed, seed % 2 == 1);
                                seed++;
                                checked.incrementAndGet();
                            }
                        }
                    }
                });
            }
        }
        assertTrue(checked.get() > 100, "checked " + checked.get());
    }

    /** Runs one reduction (non-blocking when asked) on {@code c} and compares every element's bits. */
    private static void checkAgainstReference(Communicator c, Collective col, DeterministicKind k, long count, int root, long seed,
                                              boolean nonBlocking) {
        int n = c.size();
        int me = c.rank();
        long sendCount = col == Collective.REDUCE_SCATTER ? n * count : count;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment send = arena.allocate(Math.max(1, sendCount * k.type.sizeBytes()), 8);
            MemorySegment recv = arena.allocate(Math.max(1, count * k.type.sizeBytes()), 8);
            for (long i = 0; i < sendCount; i++) {
                k.set(send, i, k.value(seed, me, i));
            }
            Request request = switch (col) {
                case ALLREDUCE -> nonBlocking ? c.iallreduce(send, recv, k.type, count, k.op) : blocking(
                        () -> c.allreduce(send, recv, k.type, count, k.op));
                case REDUCE -> nonBlocking ? c.ireduce(send, recv, k.type, count, k.op, root) : blocking(
                        () -> c.reduce(send, recv, k.type, count, k.op, root));
                case REDUCE_SCATTER -> nonBlocking ? c.ireduceScatterBlock(send, recv, k.type, count, k.op) : blocking(
                        () -> c.reduceScatterBlock(send, recv, k.type, count, k.op));
                case SCAN -> nonBlocking ? c.iscan(send, recv, k.type, count, k.op) : blocking(
                        () -> c.scan(send, recv, k.type, count, k.op));
                case EXSCAN -> nonBlocking ? c.iexscan(send, recv, k.type, count, k.op) : blocking(
                        () -> c.exscan(send, recv, k.type, count, k.op));
                default -> throw new IllegalArgumentException(col.id());
            };
            if (request != null) {
                request.await();
            }
            if (col == Collective.REDUCE && me != root || col == Collective.EXSCAN && me == 0) {
                return;
            }
            for (long i = 0; i < count; i++) {
                long expected = switch (col) {
                    case ALLREDUCE, REDUCE -> k.fold(seed, 0, n - 1, i);
                    case REDUCE_SCATTER -> k.fold(seed, 0, n - 1, me * count + i);
                    case SCAN -> k.fold(seed, 0, me, i);
                    case EXSCAN -> k.fold(seed, 0, me - 1, i);
                    default -> throw new IllegalArgumentException(col.id());
                };
                long got = k.get(recv, i);
                if (got != expected) {
                    fail(col.id() + " " + k + " count " + count + " on rank " + me + " of " + n + ": element " + i
                            + " has bits " + Long.toHexString(got) + ", the rank-order fold " + Long.toHexString(expected));
                }
            }
        }
    }

    private static Request blocking(Runnable call) {
        call.run();
        return null;
    }

    /**
     * Without the option, the default algorithms combine in other orders: with these values at least one of them
     * gives other bits than the rank-order fold (so the test above can fail), while each still gives every rank the
     * same bits; {@code allreduce.deterministic}, forced, gives the fold's bits.
     */
    @Test
    void withoutTheOptionOtherAlgorithmsGiveOtherBits() throws Exception {
        int n = 5;
        long count = 1001;
        try (InProcessRanks ranks = InProcessRanks.start(n, DETERMINISTIC.withDeterministic(false))) {
            long[][][] results = new long[n][][];
            // In-process ranks on 5 nodes: the one-node shared-memory all-reduces cannot run here.
            List<Algorithm> algorithms = AlgorithmCatalog.standard().forCollective(Collective.ALLREDUCE).stream()
                    .filter(a -> !(a instanceof io.railcoll.schedule.NodeRegionUser)).toList();
            ranks.onEveryRank(c -> {
                results[c.rank()] = new long[algorithms.size()][];
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment send = arena.allocate(8 * count, 8);
                    MemorySegment recv = arena.allocate(8 * count, 8);
                    for (long i = 0; i < count; i++) {
                        DeterministicKind.DOUBLE.set(send, i, DeterministicKind.DOUBLE.value(7, c.rank(), i));
                    }
                    for (int a = 0; a < algorithms.size(); a++) {
                        c.forceAlgorithm(algorithms.get(a).id());
                        c.allreduce(send, recv, ElementType.DOUBLE, count, PredefinedOperator.SUM);
                        results[c.rank()][a] = recv.toArray(ValueLayout.JAVA_LONG);
                    }
                }
            });
            long[] reference = new long[(int) count];
            for (int i = 0; i < count; i++) {
                reference[i] = DeterministicKind.DOUBLE.fold(7, 0, n - 1, i);
            }
            int differing = 0;
            for (int a = 0; a < algorithms.size(); a++) {
                for (int r = 1; r < n; r++) {
                    assertArrayEquals(results[0][a], results[r][a], algorithms.get(a).id() + ": rank " + r + " differs from rank 0");
                }
                if (algorithms.get(a).deterministic()) {
                    assertArrayEquals(reference, results[0][a], algorithms.get(a).id());
                } else if (!java.util.Arrays.equals(reference, results[0][a])) {
                    differing++;
                }
            }
            assertTrue(differing > 0, "no default all-reduce algorithm gave other bits than the rank-order fold: the"
                    + " values do not show the order");
        }
    }

    @Test
    void forcingAnotherAlgorithmIsRefusedWhenDeterministic() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, DETERMINISTIC)) {
            Communicator c = ranks.rank(0);
            for (String id : List.of("allreduce.ring", "allreduce.rabenseifner", "reduce.binomial", "scan.recursive-doubling",
                    "reduce-scatter.recursive-halving")) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.forceAlgorithm(id));
                assertTrue(e.getMessage().contains("deterministic") && e.getMessage().contains(id), e.getMessage());
            }
            c.forceAlgorithm("allreduce.deterministic");
            c.forceAlgorithm("allgather.ring"); // collectives that combine nothing are not concerned
            // Nothing was sent: a correct call on both ranks still matches.
            ranks.onEveryRank(comm -> {
                double[] out = new double[1];
                comm.allreduce(new double[] {comm.rank() + 0.5}, out, PredefinedOperator.SUM);
                assertEquals(2.0, out[0]);
            });
        }
    }

    /** Selection picks the deterministic algorithms only in deterministic mode, and prices them with the model. */
    @Test
    void selectionPicksTheDeterministicAlgorithmsOnlyInDeterministicMode() {
        var tuning = TuningFile.builtIn();
        AlgorithmSelector on = new AlgorithmSelector(Map.of(), tuning, true);
        AlgorithmSelector off = new AlgorithmSelector(Map.of(), tuning, false);
        for (Placement p : List.of(Placement.parse("3,4,2"), Placement.uniform(1, 5), Placement.uniform(4, 4))) {
            for (Collective c : REDUCTIONS) {
                for (long b : new long[] {8, 8 << 10, 8 << 20}) {
                    for (boolean commutative : new boolean[] {true, false}) {
                        Shape s = Shape.reduction(c, p, 2, b, c.hasRoot() ? 1 : 0, 8, commutative);
                        assertEquals(RankOrderReduction.idFor(c), on.select(s).id(), s.toString());
                        assertFalse(off.select(s).deterministic(), s.toString());
                        String explained = on.explain(s).toString();
                        assertTrue(explained.contains(RankOrderReduction.idFor(c)), explained);
                    }
                }
            }
        }
    }

    /** A rank with the option and ranks without run different algorithms: every rank fails with a mismatch. */
    @Test
    void ranksThatDisagreeOnTheOptionFailWithAMismatch() throws Exception {
        Config short_ = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(20));
        try (InProcessRanks ranks = InProcessRanks.start(3, r -> short_.withDeterministic(r == 1))) {
            ranks.onEveryRank(c -> {
                double[] in = new double[4096];
                java.util.Arrays.fill(in, c.rank() + 0.25);
                RailcollException e = assertThrows(RailcollException.class,
                        () -> c.allreduce(in, new double[in.length], PredefinedOperator.SUM));
                assertInstanceOf(MismatchException.class, e, "rank " + c.rank() + ": " + e);
            });
        }
    }
}
