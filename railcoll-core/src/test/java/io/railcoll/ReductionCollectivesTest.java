package io.railcoll;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.reduce.UserOperator;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Property test of reduce, Rabenseifner's all-reduce, reduce-scatter, scan, exscan and scatter through the public
 * API on real communicators (TCP over loopback, one thread per rank in this JVM): for N = 1..9, every algorithm of
 * each collective forced in turn and then the automatic choice, counts 0, 1, odd and large, every root in turn,
 * integer, floating-point and a non-commutative user operator, in-place and array forms. Every rank's result is
 * compared with a sequential reference computed here, element by element in rank order; floating-point sums
 * within (N+1) rounding errors of the sum of magnitudes, and an all-reduce's bits identical on every rank.
 */
class ReductionCollectivesTest {
    private static final long[] COUNTS = {0, 1, 7, 1031};
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Composition of affine maps mod 2^32 packed in a LONG: associative, not commutative. */
    static final UserOperator AFFINE = new UserOperator("test-affine", false, (in, inOff, inout, ioOff, count) -> {
        for (long i = 0; i < count; i++) {
            inout.set(LONG, ioOff + 8 * i, compose(in.get(LONG, inOff + 8 * i), inout.get(LONG, ioOff + 8 * i)));
        }
    });

    private record Kind(ElementType type, Operator op) {
    }

    private static final List<Kind> KINDS = List.of(new Kind(ElementType.INT, PredefinedOperator.SUM),
            new Kind(ElementType.DOUBLE, PredefinedOperator.SUM), new Kind(ElementType.LONG, PredefinedOperator.MAX),
            new Kind(ElementType.LONG, AFFINE));

    @Test
    void everyCollectiveAlgorithmAndRankCountMatchesTheSequentialReference() throws Exception {
        int cases = 0;
        for (int n = 1; n <= 9; n++) {
            try (InProcessRanks ranks = InProcessRanks.start(n, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60)))) {
                for (Collective c : List.of(Collective.REDUCE, Collective.ALLREDUCE, Collective.REDUCE_SCATTER,
                        Collective.SCAN, Collective.EXSCAN)) {
                    for (String id : algorithms(c)) {
                        force(ranks, c, id);
                        for (Kind k : KINDS) {
                            for (long count : COUNTS) {
                                int root = (int) ((cases + count) % n);
                                if (!runnable(c, id, k, n)) {
                                    assertRefused(ranks, c, k, count, root);
                                    continue;
                                }
                                checkReduction(ranks, c, id, k, count, root, cases);
                                cases++;
                            }
                        }
                    }
                }
                for (String id : algorithms(Collective.SCATTER)) {
                    force(ranks, Collective.SCATTER, id);
                    for (long b : new long[] {0, 1, 7, 5003}) {
                        for (int root = 0; root < n; root++) {
                            checkScatter(ranks, id, b, root, cases++);
                        }
                    }
                }
            }
        }
        assertTrue(cases > 1000, "checked " + cases);
    }

    /**
     * The one-node node-step reduce-scatter and prefixes (decision 0222) on ranks that share a node region: N = 2, 3,
     * 5, counts 0, 1, odd, and past what the node buffer holds at once (so they go through it in chunks), every kind
     * above with the non-commutative operator in rank order, and the automatic choice beside them.
     */
    @Test
    void nodeStepReductionsOnOneNodeMatchTheSequentialReference() throws Exception {
        int cases = 0;
        for (int n : new int[] {2, 3, 5}) {
            try (InProcessRanks ranks = InProcessRanks.startOnOneNode(n,
                    Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60)))) {
                for (Collective c : List.of(Collective.REDUCE_SCATTER, Collective.SCAN, Collective.EXSCAN)) {
                    for (String id : List.of(c.id() + ".shm", "auto")) {
                        force(ranks, c, id);
                        for (Kind k : KINDS) {
                            // 2.5 MB: more than the node buffer's 2 MiB, so every shape is chunked.
                            long big = 2_500_000 / k.type().bytes(1);
                            for (long count : new long[] {0, 1, 7, 1031, big}) {
                                if (!id.equals("auto") || count < big) {
                                    checkReduction(ranks, c, id, k, count, 0, cases);
                                    cases++;
                                }
                            }
                        }
                    }
                }
            }
        }
        assertEquals(3 * 3 * 4 * 9, cases);
    }

    @Test
    void argumentsAreRefusedBeforeAnythingIsSent() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(20)))) {
            Communicator c = ranks.rank(0);
            MemorySegment a = MemorySegment.ofArray(new byte[64]);
            assertRefusal(() -> c.reduce(a, a.asSlice(4, 16), ElementType.INT, 4, PredefinedOperator.SUM, 0), "overlap");
            assertRefusal(() -> c.reduce(a, null, ElementType.INT, 4, PredefinedOperator.SUM, 0), "recv (on the root)");
            assertRefusal(() -> c.reduce(a, a, ElementType.INT, 4, PredefinedOperator.SUM, 2), "root 2");
            assertRefusal(() -> c.reduceScatterBlock(a, MemorySegment.ofArray(new byte[16]), ElementType.INT, 16,
                    PredefinedOperator.SUM), "128");
            assertRefusal(() -> c.scan(a, MemorySegment.ofArray(new byte[64]).asReadOnly(), ElementType.INT, 4,
                    PredefinedOperator.SUM), "read-only");
            assertRefusal(() -> c.exscan(a, a, ElementType.FLOAT, 4, PredefinedOperator.BAND), "band");
            assertRefusal(() -> c.scatter(a, MemorySegment.ofArray(new byte[40]), 0), "80");
            assertRefusal(() -> c.scatter(null, MemorySegment.ofArray(new byte[4]), 0), "send (on the root)");
            assertRefusal(() -> c.scatter(MemorySegment.ofArray(new byte[7]), null, 0), "equal block");
            // Nothing was sent: a correct call on both ranks still matches.
            ranks.onEveryRank(comm -> {
                int[] out = new int[2];
                comm.scan(new int[] {comm.rank() + 1, 10}, out, PredefinedOperator.SUM);
                assertArrayEquals(comm.rank() == 0 ? new int[] {1, 10} : new int[] {3, 20}, out);
            });
        }
    }

    private static void assertRefusal(org.junit.jupiter.api.function.Executable call, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(named), () -> "expected '" + named + "' in: " + e.getMessage());
    }

    private static List<String> algorithms(Collective c) {
        List<String> ids = new ArrayList<>();
        for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
            // In-process ranks have no node region: the one-node shared-memory ones run in NodeAllreduceSystemTest.
            if (!(a instanceof io.railcoll.schedule.NodeRegionUser)) {
                ids.add(a.id());
            }
        }
        ids.add("auto");
        return ids;
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

    /** The algorithms that combine out of rank order, so refuse a non-commutative operator on more than one rank. */
    private static final java.util.Set<String> NOT_IN_RANK_ORDER = java.util.Set.of("allreduce.ring",
            "reduce-scatter.ring", "allreduce.smp", "allreduce.multi-leader", "allreduce.multi-leader-rabenseifner",
            "allreduce.multi-leader-direct");

    private static boolean runnable(Collective c, String id, Kind k, int n) {
        return k.op().commutative() || n == 1 || !NOT_IN_RANK_ORDER.contains(id);
    }

    private static void assertRefused(InProcessRanks ranks, Collective c, Kind k, long count, int root) throws Exception {
        ranks.onEveryRank(comm -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> call(comm, c, k, count, root, new byte[(int) sendBytes(c, k, count, comm.size())],
                            new byte[(int) k.type().bytes(count)], "segment"));
            assertTrue(e.getMessage().contains("rank order"), e.getMessage());
        });
    }

    private static long sendBytes(Collective c, Kind k, long count, int n) {
        return (c == Collective.REDUCE_SCATTER ? n : 1) * k.type().bytes(count);
    }

    /** Rank {@code rank}'s value for element i of case {@code seed}; LONG values of AFFINE have an odd multiplier. */
    static long value(int seed, int rank, long i, Kind k) {
        long x = (seed * 0x9E3779B97F4A7C15L) ^ (rank * 0xC2B2AE3D27D4EB4FL) ^ (i * 0x165667B19E3779F9L);
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        x ^= x >>> 29;
        return k.op() == AFFINE ? x | 1L << 32 : x;
    }

    private static void fill(byte[] buf, long offset, int seed, int rank, long count, Kind k) {
        MemorySegment m = MemorySegment.ofArray(buf);
        for (long i = 0; i < count; i++) {
            long v = value(seed, rank, i, k);
            switch (k.type()) {
                case INT -> m.set(ValueLayout.JAVA_INT_UNALIGNED, offset + 4 * i, (int) v);
                case LONG -> m.set(LONG, offset + 8 * i, v);
                case DOUBLE -> m.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + 8 * i, asDouble(v));
                default -> throw new IllegalStateException(k.type().toString());
            }
        }
    }

    /** A DOUBLE element from its random bits: mixed signs and magnitudes, so summing order shows in the last bits. */
    private static double asDouble(long v) {
        return (v % 1_000_003) * Math.scalb(1.0, (int) (v >>> 58) - 30);
    }

    /**
     * The sequential reference: element i over ranks {@code from..to-1}, combined left to right, into {@code exact}
     * (a DOUBLE as its raw bits); returns the sum of magnitudes per element (for the floating-point tolerance).
     */
    private static double[] reference(int seed, int from, int to, long count, Kind k, long[] exact) {
        double[] magnitude = new double[(int) count];
        for (int i = 0; i < count; i++) {
            long acc = 0;
            double sum = 0;
            for (int r = from; r < to; r++) {
                long v = value(seed, r, i, k);
                switch (k.type()) {
                    case DOUBLE -> {
                        sum += asDouble(v);
                        magnitude[i] += Math.abs(asDouble(v));
                    }
                    case INT -> acc = r == from ? (int) v : k.op() == PredefinedOperator.MAX ? Math.max(acc, (int) v)
                            : (int) (acc + (int) v);
                    default -> acc = r == from ? v : k.op() == AFFINE ? compose(acc, v)
                            : k.op() == PredefinedOperator.MAX ? Math.max(acc, v) : acc + v;
                }
            }
            exact[i] = k.type() == ElementType.DOUBLE ? Double.doubleToRawLongBits(sum) : acc;
        }
        return magnitude;
    }

    static long compose(long a, long b) {
        long ma = a >>> 32;
        long ca = a & 0xffffffffL;
        long mb = b >>> 32;
        long cb = b & 0xffffffffL;
        return ((ma * mb) & 0xffffffffL) << 32 | ((mb * ca + cb) & 0xffffffffL);
    }

    /** The forms a case passes its buffers in, by seed. */
    private static final List<String> FORMS = List.of("segment", "in-place", "array");

    private static void checkReduction(InProcessRanks ranks, Collective c, String id, Kind k, long count, int root,
                                       int seed) throws Exception {
        int n = ranks.size();
        String form = FORMS.get(seed % FORMS.size());
        long bytes = k.type().bytes(count);
        byte[][] results = new byte[n][];
        ranks.onEveryRank(comm -> {
            int r = comm.rank();
            byte[] send = new byte[(int) sendBytes(c, k, count, n)];
            for (int block = 0; block < send.length / Math.max(1, bytes); block++) {
                fill(send, block * bytes, seed * 31 + block, r, count, k);
            }
            byte[] recv = new byte[(int) bytes];
            Arrays.fill(recv, (byte) 0x5a);
            results[r] = call(comm, c, k, count, root, send, recv, form);
        });
        String what = c.id() + " " + id + " N=" + n + " " + k + " count " + count + " root " + root + " " + form;
        for (int r = 0; r < n; r++) {
            int from = 0;
            int to = n;
            int seedFor = seed * 31;
            switch (c) {
                case REDUCE -> {
                    if (r != root) {
                        continue;
                    }
                }
                case REDUCE_SCATTER -> seedFor = seed * 31 + r;
                case SCAN -> to = r + 1;
                case EXSCAN -> to = r;
                default -> { }
            }
            if (c == Collective.EXSCAN && r == 0) {
                byte[] untouched = new byte[(int) bytes];
                Arrays.fill(untouched, (byte) 0x5a);
                if (!form.equals("in-place")) {
                    assertArrayEquals(untouched, results[0], what + ": rank 0's recv was written");
                }
                continue;
            }
            long[] exact = new long[(int) count];
            double[] magnitude = reference(seedFor, from, to, count, k, exact);
            MemorySegment got = MemorySegment.ofArray(results[r]);
            for (int i = 0; i < count; i++) {
                if (k.type() == ElementType.DOUBLE) {
                    double g = got.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8L * i);
                    double e = Double.longBitsToDouble(exact[i]);
                    if (!(Math.abs(g - e) <= (n + 1) * Math.ulp(1.0) * magnitude[i])) {
                        fail(what + ": rank " + r + " element " + i + " is " + g + ", the sequential result " + e);
                    }
                } else {
                    long g = k.type() == ElementType.INT ? got.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * i)
                            : got.get(LONG, 8L * i);
                    if (g != exact[i]) {
                        fail(what + ": rank " + r + " element " + i + " is " + g + ", the sequential result " + exact[i]);
                    }
                }
            }
        }
        if (c == Collective.ALLREDUCE) {
            for (int r = 1; r < n; r++) {
                assertArrayEquals(results[0], results[r], what + ": rank " + r + "'s bits differ from rank 0's");
            }
        }
    }

    /** Runs one call in {@code form}; returns what this rank's result buffer holds afterwards. */
    private static byte[] call(Communicator comm, Collective c, Kind k, long count, int root, byte[] send, byte[] recv,
                               String form) {
        ElementType t = k.type();
        Operator op = k.op();
        MemorySegment s = MemorySegment.ofArray(send);
        MemorySegment r = MemorySegment.ofArray(recv);
        if (form.equals("in-place")) {
            switch (c) {
                case REDUCE -> comm.reduce(s, t, count, op, root);
                case ALLREDUCE -> comm.allreduce(s, t, count, op);
                case REDUCE_SCATTER -> comm.reduceScatterBlock(s, t, count, op);
                case SCAN -> comm.scan(s, t, count, op);
                case EXSCAN -> comm.exscan(s, t, count, op);
                default -> throw new IllegalStateException();
            }
            return Arrays.copyOf(send, recv.length);
        }
        if (form.equals("array") && t == ElementType.LONG) {
            long[] ls = s.toArray(LONG);
            long[] lr = new long[(int) count];
            switch (c) {
                case REDUCE -> comm.reduce(ls, lr, op, root);
                case ALLREDUCE -> comm.allreduce(ls, lr, op);
                case REDUCE_SCATTER -> comm.reduceScatterBlock(ls, lr, op);
                case SCAN -> comm.scan(ls, lr, op);
                case EXSCAN -> {
                    MemorySegment.ofArray(lr).copyFrom(r.asSlice(0, 8 * count)); // rank 0 keeps it
                    comm.exscan(ls, lr, op);
                }
                default -> throw new IllegalStateException();
            }
            return MemorySegment.ofArray(lr).toArray(ValueLayout.JAVA_BYTE);
        }
        switch (c) {
            case REDUCE -> comm.reduce(s, comm.rank() == root ? r : null, t, count, op, root);
            case ALLREDUCE -> comm.allreduce(s, r, t, count, op);
            case REDUCE_SCATTER -> comm.reduceScatterBlock(s, r, t, count, op);
            case SCAN -> comm.scan(s, r, t, count, op);
            case EXSCAN -> comm.exscan(s, r, t, count, op);
            default -> throw new IllegalStateException();
        }
        return recv;
    }

    private static void checkScatter(InProcessRanks ranks, String id, long b, int root, int seed) throws Exception {
        int n = ranks.size();
        boolean inPlace = seed % 2 == 0;
        byte[][] results = new byte[n][];
        Kind k = new Kind(ElementType.LONG, PredefinedOperator.SUM);
        ranks.onEveryRank(comm -> {
            byte[] recv = new byte[(int) b];
            if (comm.rank() == root) {
                byte[] send = new byte[(int) (n * b)];
                for (int i = 0; i < send.length; i++) {
                    send[i] = (byte) value(seed, root, i, k);
                }
                comm.scatter(send, inPlace ? null : recv, root);
                results[comm.rank()] = inPlace ? Arrays.copyOfRange(send, (int) (root * b), (int) (root * b + b)) : recv;
            } else {
                comm.scatter(null, recv, root);
                results[comm.rank()] = recv;
            }
        });
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < b; i++) {
                assertEquals((byte) value(seed, root, r * b + i, k), results[r][i],
                        "scatter " + id + " N=" + n + " b=" + b + " root " + root + ": rank " + r + " byte " + i);
            }
        }
    }
}
