package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.launcher.RankApp;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.reduce.UserOperator;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rank programs for {@code AllreduceSystemTest}. The check compares every result with a sequential reference
 * computed here, independently of railcoll's combining loops, and every rank's result bits with every other rank's.
 */
final class AllreduceApps {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /**
     * Composition of affine maps {@code x -> m x + c} modulo 2^32, packed as {@code m << 32 | c} in a LONG:
     * associative and not commutative, so only a rank-order combination gives the reference.
     */
    static final UserOperator AFFINE = new UserOperator("affine-compose", false,
            (in, inOff, inout, inoutOff, count) -> {
                for (long i = 0; i < count; i++) {
                    long a = in.get(LONG, inOff + 8 * i);
                    long b = inout.get(LONG, inoutOff + 8 * i);
                    inout.set(LONG, inoutOff + 8 * i, compose(a, b));
                }
            });

    private AllreduceApps() {
    }

    /** First {@code a}, then {@code b}. */
    static long compose(long a, long b) {
        long ma = a >>> 32;
        long ca = a & 0xffffffffL;
        long mb = b >>> 32;
        long cb = b & 0xffffffffL;
        return ((ma * mb) & 0xffffffffL) << 32 | ((mb * ca + cb) & 0xffffffffL);
    }

    record Case(ElementType type, Operator op) {
    }

    /** Every type x operator the check runs. */
    static final List<Case> CASES = List.of(
            new Case(ElementType.INT, PredefinedOperator.SUM), new Case(ElementType.INT, PredefinedOperator.MAX),
            new Case(ElementType.LONG, PredefinedOperator.SUM), new Case(ElementType.LONG, PredefinedOperator.MAX),
            new Case(ElementType.FLOAT, PredefinedOperator.SUM), new Case(ElementType.FLOAT, PredefinedOperator.MAX),
            new Case(ElementType.DOUBLE, PredefinedOperator.SUM), new Case(ElementType.DOUBLE, PredefinedOperator.MAX),
            new Case(ElementType.BYTE, PredefinedOperator.SUM), new Case(ElementType.BYTE, PredefinedOperator.MAX),
            new Case(ElementType.DOUBLE_INT, PredefinedOperator.MINLOC), new Case(ElementType.INT_INT, PredefinedOperator.MINLOC),
            new Case(ElementType.LONG, AFFINE));

    /** The ways of passing buffers, chosen per case in turn. */
    private static final List<String> FORMS = List.of("segment", "in-place", "byte[]", "direct", "array", "heap-buffer");

    /**
     * Args: {@code counts=0,1,7,...}, {@code algorithms=all,auto} (all: every catalog all-reduce algorithm
     * forced in turn) and optionally {@code ops=sum,minloc,...}: only the {@link #CASES} with those operators (every
     * type keeps at least one; by default all of them). Prints {@code ALLREDUCE-CHECKED n cases} on rank 0, and on
     * every rank first {@code COMBINERS vector-api=true|false}: whether its JVM combines with the Vector API.
     */
    public static final class Check implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            System.out.println("COMBINERS vector-api=" + io.railcoll.reduce.Combiners.vectorApi());
            long[] counts = {0, 1, 7, 100_003};
            List<String> algorithms = List.of("all", "auto");
            List<Case> cases = CASES;
            for (String a : args) {
                String[] kv = a.split("=", 2);
                switch (kv[0]) {
                    case "counts" -> counts = Arrays.stream(kv[1].split(",")).mapToLong(Long::parseLong).toArray();
                    case "algorithms" -> algorithms = List.of(kv[1].split(","));
                    case "ops" -> cases = withOperators(List.of(kv[1].split(",")));
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            List<String> ids = new ArrayList<>();
            for (String a : algorithms) {
                if (a.equals("all")) {
                    // The deterministic ones are DeterministicSystemTest's, checked there bit for bit.
                    // Those that cannot run this placement at all (allreduce.shm: one node only) are left out.
                    Shape any = Shape.reduction(Collective.ALLREDUCE, comm.placement(), 1, 8, 0, 8, true);
                    AlgorithmCatalog.standard().forCollective(Collective.ALLREDUCE).stream()
                            .filter(x -> !x.deterministic())
                            .filter(x -> x.unsupportedReason(any).isEmpty()).forEach(x -> ids.add(x.id()));
                } else {
                    ids.add(a);
                }
            }
            int checked = 0;
            int refused = 0;
            int seed = 0;
            // Each case's inputs depend on its type, operator and count only, so that its sequential reference is
            // computed once and met by every algorithm (decision 0239); the buffers' form still turns with the seed.
            Map<CaseAndCount, Expected> references = new HashMap<>();
            try (Arena arena = Arena.ofShared()) {
                refusesBadArguments(comm, arena);
                for (String id : ids) {
                    if (id.equals("auto")) {
                        comm.clearForcedAlgorithm(Collective.ALLREDUCE);
                    } else {
                        comm.forceAlgorithm(id);
                    }
                    ResultHashes hashes = new ResultHashes();
                    long started = System.nanoTime();
                    int checkedBefore = checked;
                    for (int ci = 0; ci < cases.size(); ci++) {
                        Case c = cases.get(ci);
                        for (int ki = 0; ki < counts.length; ki++) {
                            long count = counts[ki];
                            CaseAndCount input = new CaseAndCount(c, count, 1 + ci * counts.length + ki);
                            seed++;
                            String form = FORMS.get(seed % FORMS.size());
                            String what = c.op().id() + " on " + c.type() + ", " + count + " elements, " + form + ", "
                                    + id;
                            Algorithm forced = id.equals("auto") ? null : AlgorithmCatalog.standard().byId(id);
                            int e = c.type().sizeBytes();
                            // A size it refuses (allreduce.shm-doubling: small vectors only) is left out, on every
                            // rank; asked as commutative, so that a refusal of the operator is counted below instead.
                            if (forced != null && forced.unsupportedReason(Shape.reduction(Collective.ALLREDUCE,
                                    comm.placement(), 1, count * e, 0, e, true)).isPresent()) {
                                continue;
                            }
                            if (forced != null && !c.op().commutative()
                                    && RankOrder.refusesNonCommutative(id, Collective.ALLREDUCE, comm.placement())) {
                                // The ring and the SMP-aware ones cannot combine in rank order: refused before
                                // anything is sent.
                                try {
                                    runCase(comm, arena, input, references, form, hashes, what);
                                    throw new AssertionError("rank " + comm.rank() + ": " + what + " ran; expected a refusal");
                                } catch (IllegalArgumentException expected) {
                                    if (!expected.getMessage().contains("rank order")) {
                                        throw new AssertionError("rank " + comm.rank() + ": " + what + ": " + expected);
                                    }
                                }
                                refused++;
                                continue;
                            }
                            String bad = runCase(comm, arena, input, references, form, hashes, what);
                            if (bad != null) {
                                throw new AssertionError("rank " + comm.rank() + ": " + what + ": " + bad);
                            }
                            checked++;
                        }
                    }
                    String differs = hashes.sameOnEveryRank(comm);
                    if (differs != null) {
                        throw new AssertionError("rank " + comm.rank() + ": " + differs);
                    }
                    if (comm.rank() == 0) {
                        // For the record (the test prints these): where a check job's time goes, per algorithm.
                        System.out.println("ALLREDUCE-TIME " + id + ": " + (checked - checkedBefore) + " cases in "
                                + (System.nanoTime() - started) / 1_000_000 + " ms");
                    }
                }
            }
            comm.clearForcedAlgorithm(Collective.ALLREDUCE);
            if (comm.rank() == 0) {
                System.out.println("ALLREDUCE-CHECKED " + checked + " cases, " + refused + " refused, on " + comm.size()
                        + " ranks (" + comm.placement().describe() + ", " + comm.rails() + " rails)");
            }
        }
    }

    /** The cases whose operator is one of {@code ops}; refuses a list that leaves a type out or names no operator. */
    static List<Case> withOperators(List<String> ops) {
        List<Case> kept = CASES.stream().filter(c -> ops.contains(c.op().id())).toList();
        for (String op : ops) {
            if (kept.stream().noneMatch(c -> c.op().id().equals(op))) {
                throw new IllegalArgumentException("no case has the operator '" + op + "'");
            }
        }
        for (Case c : CASES) {
            if (kept.stream().noneMatch(k -> k.type() == c.type())) {
                throw new IllegalArgumentException("ops=" + ops + " leaves out every case of " + c.type());
            }
        }
        return kept;
    }

    /**
     * Every rank passes bad arguments, each refused with an {@link IllegalArgumentException} naming what is wrong;
     * the all-reduces that follow then prove that none of them sent anything (a stray frame would be a mismatch).
     */
    static void refusesBadArguments(Communicator comm, Arena arena) {
        MemorySegment a = arena.allocate(64);
        MemorySegment b = arena.allocate(64);
        expectRefusal(() -> comm.allreduce(a, b, ElementType.FLOAT, 4, PredefinedOperator.BXOR), "bxor");
        expectRefusal(() -> comm.allreduce(a, b, ElementType.INT, 17, PredefinedOperator.SUM), "68");
        expectRefusal(() -> comm.allreduce(a, b, ElementType.INT, -1, PredefinedOperator.SUM), "count");
        expectRefusal(() -> comm.allreduce(a, b, null, 4, PredefinedOperator.SUM), "null");
        expectRefusal(() -> comm.allreduce(a, a.asSlice(4), ElementType.INT, 4, PredefinedOperator.SUM), "overlap");
        expectRefusal(() -> comm.allreduce(a, b.asReadOnly(), ElementType.INT, 4, PredefinedOperator.SUM), "read-only");
        expectRefusal(() -> comm.allreduce(new byte[10], new byte[10], ElementType.INT, PredefinedOperator.SUM),
                "whole number");
        expectRefusal(() -> comm.allreduce(new int[4], new int[3], PredefinedOperator.SUM), "fewer");
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment c = confined.allocate(16);
            expectRefusal(() -> comm.allreduce(c, b, ElementType.INT, 4, PredefinedOperator.SUM), "confined");
        }
    }

    static void expectRefusal(Runnable call, String named) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().contains(named)) {
                throw new AssertionError("refused, but the message does not name '" + named + "': " + e.getMessage(), e);
            }
            return;
        }
        throw new AssertionError("not refused; expected an IllegalArgumentException naming '" + named + "'");
    }

    /** A case at one count, and the seed of its inputs. */
    record CaseAndCount(Case c, long count, int seed) {
    }

    /**
     * The sequential reference of a {@link CaseAndCount}: every rank's contribution combined in rank order, one after
     * the other, here, independently of railcoll's combining loops; and for floating-point sums the sum of magnitudes
     * that bounds their rounding (null otherwise).
     */
    record Expected(MemorySegment result, double[] magnitude) {
        static Expected of(CaseAndCount k, int ranks, Arena arena) {
            Case c = k.c();
            long count = k.count();
            long bytes = c.type().bytes(count);
            MemorySegment expected = arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
            double[] magnitude = new double[(int) count];
            fill(c, k.seed(), 0, count, expected);
            accumulateMagnitude(c, expected, magnitude);
            try (Arena scratch = Arena.ofConfined()) {
                MemorySegment next = scratch.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
                for (int r = 1; r < ranks; r++) {
                    fill(c, k.seed(), r, count, next);
                    accumulateMagnitude(c, next, magnitude);
                    reference(c, expected, next, count);
                }
            }
            boolean floatSum = c.op() == PredefinedOperator.SUM
                    && (c.type() == ElementType.FLOAT || c.type() == ElementType.DOUBLE);
            return new Expected(expected, floatSum ? magnitude : null);
        }
    }

    /**
     * Runs one all-reduce; null when this rank's result is the reference's (computed at the first call of
     * {@code input}, kept in {@code references} for the next algorithms). The result's hash goes to {@code hashes},
     * which compares it with every other rank's later (bit-identical on every rank), as case {@code what}.
     */
    static String runCase(Communicator comm, Arena arena, CaseAndCount input, Map<CaseAndCount, Expected> references,
                          String form, ResultHashes hashes, String what) {
        Case c = input.c();
        long count = input.count();
        long bytes = c.type().bytes(count);
        MemorySegment mine = arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
        fill(c, input.seed(), comm.rank(), count, mine);
        MemorySegment out = arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
        out.fill((byte) 0x5a);
        call(comm, c, count, form, mine, out, arena);
        Expected expected = references.computeIfAbsent(input, k -> Expected.of(k, comm.size(), arena));
        String wrong = compare(c, comm.size(), count, out, expected.result(), expected.magnitude());
        if (wrong != null) {
            return wrong;
        }
        hashes.add(out, what);
        return null;
    }

    private static void call(Communicator comm, Case c, long count, String form, MemorySegment mine, MemorySegment out,
                             Arena arena) {
        ElementType t = c.type();
        Operator op = c.op();
        switch (form) {
            case "in-place" -> {
                out.copyFrom(mine);
                comm.allreduce(out, t, count, op);
            }
            case "byte[]" -> {
                byte[] r = new byte[(int) out.byteSize()];
                comm.allreduce(mine.toArray(ValueLayout.JAVA_BYTE), r, t, op);
                out.copyFrom(MemorySegment.ofArray(r));
            }
            case "direct" -> {
                ByteBuffer s = ByteBuffer.allocateDirect((int) mine.byteSize());
                MemorySegment.ofBuffer(s).copyFrom(mine);
                ByteBuffer r = ByteBuffer.allocateDirect((int) out.byteSize());
                comm.allreduce(s, r, t, op);
                out.copyFrom(MemorySegment.ofBuffer(r));
            }
            case "heap-buffer" -> {
                ByteBuffer b = ByteBuffer.wrap(mine.toArray(ValueLayout.JAVA_BYTE)).order(ByteOrder.nativeOrder());
                comm.allreduce(b, t, op); // in place
                out.copyFrom(MemorySegment.ofBuffer(b));
            }
            case "array" -> {
                switch (t) {
                    case INT -> {
                        int[] s = mine.toArray(ValueLayout.JAVA_INT);
                        comm.allreduce(s, s, op); // the same array: in place
                        out.copyFrom(MemorySegment.ofArray(s));
                    }
                    case LONG -> {
                        long[] r = new long[(int) count];
                        comm.allreduce(mine.toArray(ValueLayout.JAVA_LONG), r, op);
                        out.copyFrom(MemorySegment.ofArray(r));
                    }
                    case FLOAT -> {
                        float[] r = new float[(int) count];
                        comm.allreduce(mine.toArray(ValueLayout.JAVA_FLOAT), r, op);
                        out.copyFrom(MemorySegment.ofArray(r));
                    }
                    case DOUBLE -> {
                        double[] r = new double[(int) count];
                        comm.allreduce(mine.toArray(ValueLayout.JAVA_DOUBLE), r, op);
                        out.copyFrom(MemorySegment.ofArray(r));
                    }
                    default -> comm.allreduce(mine, out, t, count, op);
                }
            }
            default -> comm.allreduce(mine, out, t, count, op);
        }
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }

    /**
     * Rank {@code rank}'s contribution for case {@code seed}. Pairs' padding is zero. One loop per type, chosen before
     * the loop (as in {@link #reference}): a switch inside the element loop made one large method that C2 compiled
     * again at every type it had not met yet, which cost the check jobs more processor time than the cases themselves
     * (decision 0239).
     */
    static void fill(Case c, int seed, int rank, long count, MemorySegment seg) {
        long base = seed * 0x9E3779B97F4A7C15L + rank * 1_000_003L;
        switch (c.type()) {
            case BYTE -> fillBytes(base, count, seg);
            case INT -> fillInts(base, count, seg);
            case LONG -> fillLongs(base, count, seg, c.op() == AFFINE ? 1L << 32 : 0);
            case FLOAT -> fillFloats(base, count, seg);
            case DOUBLE -> fillDoubles(base, count, seg);
            case INT_INT -> fillIntInts(base, rank, count, seg);
            case DOUBLE_INT -> fillDoubleInts(base, rank, count, seg);
            default -> throw new IllegalStateException("no data for " + c.type());
        }
    }

    private static void fillBytes(long base, long count, MemorySegment seg) {
        for (long i = 0; i < count; i++) {
            seg.set(ValueLayout.JAVA_BYTE, i, (byte) mix(base + i));
        }
    }

    private static void fillInts(long base, long count, MemorySegment seg) {
        for (long i = 0; i < count; i++) {
            seg.set(INT, 4 * i, (int) mix(base + i));
        }
    }

    /** {@code bits} are or-ed in: the affine maps' multiplier must be odd. */
    private static void fillLongs(long base, long count, MemorySegment seg, long bits) {
        for (long i = 0; i < count; i++) {
            seg.set(LONG, 8 * i, mix(base + i) | bits);
        }
    }

    /** Values of mixed sign and magnitude, so that the order of summing shows in the last bits. */
    private static void fillFloats(long base, long count, MemorySegment seg) {
        for (long i = 0; i < count; i++) {
            long h = mix(base + i);
            seg.set(FLOAT, 4 * i, (float) ((h % 1_000_000) * Math.scalb(1.0, (int) (h >>> 58) - 20)));
        }
    }

    private static void fillDoubles(long base, long count, MemorySegment seg) {
        for (long i = 0; i < count; i++) {
            long h = mix(base + i);
            seg.set(DOUBLE, 8 * i, (h % 1_000_000_007) * Math.scalb(1.0, (int) (h >>> 57) - 60));
        }
    }

    /** Few distinct values, so that ties test the lower-index rule; the index is the rank. */
    private static void fillIntInts(long base, int rank, long count, MemorySegment seg) {
        for (long i = 0; i < count; i++) {
            seg.set(INT, 8 * i, (int) Math.floorMod(mix(base + i), 3));
            seg.set(INT, 8 * i + 4, rank);
        }
    }

    private static void fillDoubleInts(long base, int rank, long count, MemorySegment seg) {
        for (long i = 0; i < count; i++) {
            seg.set(DOUBLE, 16 * i, Math.floorMod(mix(base + i), 3) - 1.5);
            seg.set(INT, 16 * i + 8, rank);
            seg.set(INT, 16 * i + 12, 0);
        }
    }

    /** {@code acc = acc op next}, element by element, written out per type and operator, one loop each. */
    static void reference(Case c, MemorySegment acc, MemorySegment next, long count) {
        boolean sum = c.op() == PredefinedOperator.SUM;
        switch (c.type()) {
            case BYTE -> {
                if (sum) {
                    sumBytes(acc, next, count);
                } else {
                    maxBytes(acc, next, count);
                }
            }
            case INT -> {
                if (sum) {
                    sumInts(acc, next, count);
                } else {
                    maxInts(acc, next, count);
                }
            }
            case LONG -> {
                if (c.op() == AFFINE) {
                    composeLongs(acc, next, count);
                } else if (sum) {
                    sumLongs(acc, next, count);
                } else {
                    maxLongs(acc, next, count);
                }
            }
            case FLOAT -> {
                if (sum) {
                    sumFloats(acc, next, count);
                } else {
                    maxFloats(acc, next, count);
                }
            }
            case DOUBLE -> {
                if (sum) {
                    sumDoubles(acc, next, count);
                } else {
                    maxDoubles(acc, next, count);
                }
            }
            case INT_INT -> minlocIntInts(acc, next, count);
            case DOUBLE_INT -> minlocDoubleInts(acc, next, count);
            default -> throw new IllegalStateException("no reference for " + c.type());
        }
    }

    private static void sumBytes(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(ValueLayout.JAVA_BYTE, i, (byte) (acc.get(ValueLayout.JAVA_BYTE, i) + next.get(ValueLayout.JAVA_BYTE, i)));
        }
    }

    private static void maxBytes(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(ValueLayout.JAVA_BYTE, i, (byte) Math.max(acc.get(ValueLayout.JAVA_BYTE, i), next.get(ValueLayout.JAVA_BYTE, i)));
        }
    }

    private static void sumInts(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(INT, 4 * i, acc.get(INT, 4 * i) + next.get(INT, 4 * i));
        }
    }

    private static void maxInts(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(INT, 4 * i, Math.max(acc.get(INT, 4 * i), next.get(INT, 4 * i)));
        }
    }

    private static void sumLongs(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(LONG, 8 * i, acc.get(LONG, 8 * i) + next.get(LONG, 8 * i));
        }
    }

    private static void maxLongs(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(LONG, 8 * i, Math.max(acc.get(LONG, 8 * i), next.get(LONG, 8 * i)));
        }
    }

    private static void composeLongs(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(LONG, 8 * i, compose(acc.get(LONG, 8 * i), next.get(LONG, 8 * i)));
        }
    }

    private static void sumFloats(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(FLOAT, 4 * i, acc.get(FLOAT, 4 * i) + next.get(FLOAT, 4 * i));
        }
    }

    private static void maxFloats(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(FLOAT, 4 * i, Math.max(acc.get(FLOAT, 4 * i), next.get(FLOAT, 4 * i)));
        }
    }

    private static void sumDoubles(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(DOUBLE, 8 * i, acc.get(DOUBLE, 8 * i) + next.get(DOUBLE, 8 * i));
        }
    }

    private static void maxDoubles(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            acc.set(DOUBLE, 8 * i, Math.max(acc.get(DOUBLE, 8 * i), next.get(DOUBLE, 8 * i)));
        }
    }

    /** MINLOC: ranks come in increasing order, so on a tie the accumulated (lower) index stays. */
    private static void minlocIntInts(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            if (next.get(INT, 8 * i) < acc.get(INT, 8 * i)) {
                acc.set(LONG, 8 * i, next.get(LONG, 8 * i));
            }
        }
    }

    private static void minlocDoubleInts(MemorySegment acc, MemorySegment next, long count) {
        for (long i = 0; i < count; i++) {
            if (next.get(DOUBLE, 16 * i) < acc.get(DOUBLE, 16 * i)) {
                acc.set(DOUBLE, 16 * i, next.get(DOUBLE, 16 * i));
                acc.set(INT, 16 * i + 8, next.get(INT, 16 * i + 8));
            }
        }
    }

    static void accumulateMagnitude(Case c, MemorySegment s, double[] magnitude) {
        switch (c.type()) {
            case FLOAT -> accumulateFloatMagnitudes(s, magnitude);
            case DOUBLE -> accumulateDoubleMagnitudes(s, magnitude);
            default -> {
            }
        }
    }

    private static void accumulateFloatMagnitudes(MemorySegment s, double[] magnitude) {
        for (int i = 0; i < magnitude.length; i++) {
            magnitude[i] += Math.abs(s.get(FLOAT, 4L * i));
        }
    }

    private static void accumulateDoubleMagnitudes(MemorySegment s, double[] magnitude) {
        for (int i = 0; i < magnitude.length; i++) {
            magnitude[i] += Math.abs(s.get(DOUBLE, 8L * i));
        }
    }

    /**
     * Integers, maxima and pairs must equal the reference exactly; floating-point sums, which the algorithms
     * bracket differently, within (N+1) rounding errors of the sum of magnitudes.
     */
    static String compare(Case c, int n, long count, MemorySegment got, MemorySegment expected,
                                  double[] magnitude) {
        boolean floatSum = c.op() == PredefinedOperator.SUM
                && (c.type() == ElementType.FLOAT || c.type() == ElementType.DOUBLE);
        if (!floatSum) {
            long at = got.mismatch(expected);
            return at < 0 ? null : "byte " + at + " (element " + at / c.type().sizeBytes() + ") differs from the"
                    + " sequential reference";
        }
        return c.type() == ElementType.FLOAT ? compareFloatSums(n, count, got, expected, magnitude)
                : compareDoubleSums(n, count, got, expected, magnitude);
    }

    private static String compareFloatSums(int n, long count, MemorySegment got, MemorySegment expected,
                                           double[] magnitude) {
        double eps = (n + 1) * Math.ulp(1.0f);
        for (int i = 0; i < count; i++) {
            float g = got.get(FLOAT, 4L * i);
            float e = expected.get(FLOAT, 4L * i);
            if (!(Math.abs((double) g - e) <= eps * magnitude[i])) {
                return "element " + i + " is " + g + ", the sequential sum " + e;
            }
        }
        return null;
    }

    private static String compareDoubleSums(int n, long count, MemorySegment got, MemorySegment expected,
                                            double[] magnitude) {
        double eps = (n + 1) * Math.ulp(1.0);
        for (int i = 0; i < count; i++) {
            double g = got.get(DOUBLE, 8L * i);
            double e = expected.get(DOUBLE, 8L * i);
            if (!(Math.abs(g - e) <= eps * magnitude[i])) {
                return "element " + i + " is " + g + ", the sequential sum " + e;
            }
        }
        return null;
    }

    /**
     * The hashes of one algorithm's results, in case order, compared across ranks in one all-gather at the end rather
     * than one per case (among 9 or 16 processes on 2 cores a collective costs its latency, whatever its size: decision
     * 0100). Every rank records the same cases in the same order, so case i of one rank meets case i of every other.
     */
    static final class ResultHashes {
        private final List<Long> hashes = new ArrayList<>();
        private final List<String> cases = new ArrayList<>();

        void add(MemorySegment out, String what) {
            long h = 0x1234;
            long i = 0;
            for (; i + 8 <= out.byteSize(); i += 8) {
                h = mix(h + out.get(LONG, i));
            }
            for (; i < out.byteSize(); i++) {
                h = mix(h + out.get(ValueLayout.JAVA_BYTE, i));
            }
            hashes.add(h);
            cases.add(what);
        }

        /** Null when every rank's result of every case recorded has the same bits as this rank's; else the first that differs. */
        String sameOnEveryRank(Communicator comm) {
            int k = hashes.size();
            byte[] mine = new byte[8 * k];
            MemorySegment m = MemorySegment.ofArray(mine);
            for (int i = 0; i < k; i++) {
                m.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, hashes.get(i));
            }
            byte[] all = new byte[8 * k * comm.size()];
            comm.allgather(mine, all);
            MemorySegment a = MemorySegment.ofArray(all);
            for (int i = 0; i < k; i++) {
                for (int r = 0; r < comm.size(); r++) {
                    if (a.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * (r * k + i)) != hashes.get(i)) {
                        return cases.get(i) + ": rank " + r + "'s result differs in its bits from this rank's";
                    }
                }
            }
            return null;
        }
    }

    /**
     * Rank {@code args[1]} (default 1) disagrees: {@code args[0]} is {@code type} (FLOAT where the others pass INT,
     * same size), {@code operator} (MAX where the others SUM), {@code count} (one element more) or {@code user} (a
     * user operator with another id).
     */
    public static final class Mismatch implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            String kind = args.get(0);
            int odd = args.size() > 1 ? Integer.parseInt(args.get(1)) : 1;
            boolean me = comm.rank() == odd;
            comm.barrier();
            ElementType type = me && kind.equals("type") ? ElementType.FLOAT : ElementType.INT;
            Operator op = me && kind.equals("operator") ? PredefinedOperator.MAX : PredefinedOperator.SUM;
            if (kind.equals("user")) {
                op = new UserOperator(me ? "other" : "mine", true, (in, io, inout, ioo, count) -> { });
            }
            int count = me && kind.equals("count") ? 17 : 16;
            comm.allreduce(new byte[count * 4], new byte[count * 4], type, op);
            System.out.println("rank " + comm.rank() + " finished the mismatched all-reduce");
        }
    }

    /** Rank 1's non-commutative user operator throws on its first use; args[0]: the algorithm to force, if any. */
    public static final class ThrowingOperator implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            if (!args.isEmpty()) {
                comm.forceAlgorithm(args.get(0));
            }
            boolean thrower = comm.rank() == 1;
            UserOperator op = new UserOperator("fragile", true, (in, io, inout, ioo, count) -> {
                if (thrower) {
                    throw new ArithmeticException("fragile operator refuses");
                }
            });
            comm.barrier();
            comm.allreduce(new byte[4096], new byte[4096], ElementType.INT, op);
            System.out.println("rank " + comm.rank() + " finished");
        }
    }
}
