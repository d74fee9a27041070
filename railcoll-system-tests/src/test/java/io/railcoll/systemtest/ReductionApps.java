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
import io.railcoll.systemtest.AllreduceApps.Case;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rank programs for {@code ReductionSystemTest}: reduce, reduce-scatter (equal blocks), scan and exscan on every
 * type and operator of {@link AllreduceApps#CASES} (the non-commutative affine composition included), and scatter,
 * each result compared with a sequential reference computed here with {@link AllreduceApps#reference}.
 */
final class ReductionApps {
    private static final List<Collective> REDUCTIONS = List.of(Collective.REDUCE, Collective.REDUCE_SCATTER,
            Collective.SCAN, Collective.EXSCAN);
    private static final List<String> FORMS = List.of("segment", "in-place", "array", "byte[]", "direct");
    /** Counts above this run only {@link #LARGE_CASES}, so that a job of 9 JVMs fits its deadline on a loaded host. */
    private static final long LARGE = 1000;
    private static final List<Case> LARGE_CASES = List.of(new Case(ElementType.DOUBLE, PredefinedOperator.SUM),
            new Case(ElementType.INT, PredefinedOperator.MAX), new Case(ElementType.LONG, AllreduceApps.AFFINE));

    private ReductionApps() {
    }

    /**
     * Args: {@code counts=0,1,7,...}, optionally {@code collectives=scan,exscan} (only those, and no scatter) and
     * {@code algorithms=id,...,auto} (only those of the collectives' algorithms, else every one). Every algorithm of
     * each collective forced in turn, then the automatic choice; prints {@code REDUCTIONS-CHECKED n cases, m refused}
     * on rank 0. The single-copy prefixes ({@code *scan.shm-single-copy}) fold in sequence, {@code (c0 op c1) op c2
     * ...}, as the reference does, so their floating-point sums must equal it bit for bit.
     */
    public static final class Check implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            long[] counts = {0, 1, 7, 30001};
            List<Collective> reductions = REDUCTIONS;
            List<String> only = null;
            for (String a : args) {
                String[] kv = a.split("=", 2);
                switch (kv[0]) {
                    case "counts" -> counts = Arrays.stream(kv[1].split(",")).mapToLong(Long::parseLong).toArray();
                    case "collectives" -> reductions = Arrays.stream(kv[1].split(","))
                            .map(id -> REDUCTIONS.stream().filter(c -> c.id().equals(id)).findFirst()
                                    .orElseThrow(() -> new IllegalArgumentException("not a reduction here: " + id)))
                            .toList();
                    case "algorithms" -> only = List.of(kv[1].split(","));
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            int n = comm.size();
            int cases = 0;
            int refused = 0;
            int seed = 0;
            try (Arena arena = Arena.ofShared()) {
                refusesBadArguments(comm);
                for (Collective c : reductions) {
                    List<String> ids = ids(c, comm.placement());
                    if (only != null) {
                        ids = ids.stream().filter(only::contains).toList();
                    }
                    for (String id : ids) {
                        force(comm, c, id);
                        boolean sequential = id.endsWith("scan.shm-single-copy");
                        for (Case k : AllreduceApps.CASES) {
                            for (long count : counts) {
                                if (count > LARGE && !LARGE_CASES.contains(k)) {
                                    continue;
                                }
                                seed++;
                                int root = seed % n;
                                String form = FORMS.get(seed % FORMS.size());
                                String what = c.id() + " " + id + ", " + k.op().id() + " on " + k.type() + ", " + count
                                        + " elements, root " + root + ", " + form;
                                if (!k.op().commutative() && RankOrder.refusesNonCommutative(id, c, comm.placement())) {
                                    try {
                                        runCase(comm, arena, c, k, count, root, seed, form, false);
                                        throw new AssertionError("rank " + comm.rank() + ": " + what + " ran; expected a refusal");
                                    } catch (IllegalArgumentException expected) {
                                        if (!expected.getMessage().contains("rank order")) {
                                            throw new AssertionError("rank " + comm.rank() + ": " + what + ": " + expected);
                                        }
                                    }
                                    refused++;
                                    continue;
                                }
                                String bad = runCase(comm, arena, c, k, count, root, seed, form, sequential);
                                if (bad != null) {
                                    throw new AssertionError("rank " + comm.rank() + ": " + what + ": " + bad);
                                }
                                cases++;
                            }
                        }
                    }
                    comm.clearForcedAlgorithm(c);
                    if (comm.rank() == 0) {
                        // Progress, so that a job that runs out of time shows how far it got.
                        System.out.println("checked " + c.id() + ": " + cases + " cases so far");
                    }
                }
                for (String id : reductions == REDUCTIONS ? ids(Collective.SCATTER, comm.placement()) : List.<String>of()) {
                    force(comm, Collective.SCATTER, id);
                    for (long count : counts) {
                        for (int root : new int[] {0, n - 1, n / 2}) {
                            seed++;
                            String bad = scatterCase(comm, count * 8, root, seed);
                            if (bad != null) {
                                throw new AssertionError("rank " + comm.rank() + ": scatter " + id + ", " + count * 8
                                        + " bytes, root " + root + ": " + bad);
                            }
                            cases++;
                        }
                    }
                }
                comm.clearForcedAlgorithm(Collective.SCATTER);
            }
            if (comm.rank() == 0) {
                System.out.println("REDUCTIONS-CHECKED " + cases + " cases, " + refused + " refused, on " + n
                        + " ranks (" + comm.placement().describe() + ", " + comm.rails() + " rails)");
            }
        }
    }

    private static List<String> ids(Collective c, io.railcoll.topology.Placement placement) {
        List<String> ids = new ArrayList<>();
        // Those that cannot run this placement at all (reduce-scatter.shm, scan.shm: one node only) are left out.
        io.railcoll.schedule.Shape any = c.reduces()
                ? io.railcoll.schedule.Shape.reduction(c, placement, 1, 8, 0, 8, true)
                : new io.railcoll.schedule.Shape(c, placement, 1, 8, 0);
        for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
            // The deterministic ones are DeterministicSystemTest's, checked there bit for bit.
            if (!a.deterministic() && a.unsupportedReason(any).isEmpty()) {
                ids.add(a.id());
            }
        }
        ids.add("auto");
        return ids;
    }

    private static void force(Communicator comm, Collective c, String id) {
        if (id.equals("auto")) {
            comm.clearForcedAlgorithm(c);
        } else {
            comm.forceAlgorithm(id);
        }
    }

    /** Refusals named before anything is sent; the checked calls that follow prove nothing stray was. */
    private static void refusesBadArguments(Communicator comm) {
        MemorySegment a = MemorySegment.ofArray(new byte[64]);
        AllreduceApps.expectRefusal(() -> comm.reduce(a, a, ElementType.INT, 4, PredefinedOperator.SUM, comm.size()),
                "root");
        // A send buffer one int short of the size blocks of 16 (on one rank too, where 64 bytes would be enough).
        MemorySegment shortSend = MemorySegment.ofArray(new byte[comm.size() * 64 - 4]);
        AllreduceApps.expectRefusal(() -> comm.reduceScatterBlock(shortSend, MemorySegment.ofArray(new byte[64]),
                ElementType.INT, 16, PredefinedOperator.SUM), "holds");
        AllreduceApps.expectRefusal(() -> comm.scan(a, a.asSlice(8), ElementType.INT, 4, PredefinedOperator.SUM),
                "overlap");
        AllreduceApps.expectRefusal(() -> comm.exscan(a, a, ElementType.DOUBLE, 4, PredefinedOperator.BOR), "bor");
        AllreduceApps.expectRefusal(() -> comm.scatter(a, MemorySegment.ofArray(new byte[64]).asReadOnly(), 0),
                "read-only");
    }

    /** Block {@code block}'s seed: every reduce-scatter block has its own values. */
    private static int blockSeed(int seed, int block) {
        return seed * 64 + block;
    }

    /**
     * Runs one call; null when every rank's result is the reference's (exscan: rank 0's recv untouched), bit for bit
     * where {@code exact} (floating-point sums included), else floating-point sums within rounding.
     */
    static String runCase(Communicator comm, Arena arena, Collective c, Case k, long count, int root, int seed,
                          String form, boolean exact) {
        int n = comm.size();
        int rank = comm.rank();
        long bytes = k.type().bytes(count);
        int blocks = c == Collective.REDUCE_SCATTER ? n : 1;
        MemorySegment send = arena.allocate(Math.max(blocks * bytes, 1)).asSlice(0, blocks * bytes);
        for (int j = 0; j < blocks; j++) {
            AllreduceApps.fill(k, blockSeed(seed, j), rank, count, send.asSlice(j * bytes, bytes));
        }
        MemorySegment out = arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
        out.fill((byte) 0x5a);
        boolean written = call(comm, c, k, count, root, form, send, out);
        int from = 0;
        int to = switch (c) {
            case SCAN -> rank + 1;
            case EXSCAN -> rank;
            default -> n;
        };
        if (c == Collective.REDUCE && rank != root || c == Collective.EXSCAN && rank == 0) {
            if (written) {
                return null; // in place: the buffer was the send buffer
            }
            for (long i = 0; i < bytes; i++) {
                if (out.get(ValueLayout.JAVA_BYTE, i) != 0x5a) {
                    return "recv was written at byte " + i + " where MPI gives this rank no result";
                }
            }
            return null;
        }
        int s = blockSeed(seed, c == Collective.REDUCE_SCATTER ? rank : 0);
        MemorySegment expected = arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
        MemorySegment next = arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
        double[] magnitude = new double[(int) count];
        AllreduceApps.fill(k, s, from, count, expected);
        AllreduceApps.accumulateMagnitude(k, expected, magnitude);
        for (int r = from + 1; r < to; r++) {
            AllreduceApps.fill(k, s, r, count, next);
            AllreduceApps.accumulateMagnitude(k, next, magnitude);
            AllreduceApps.reference(k, expected, next, count);
        }
        if (exact) {
            long at = out.mismatch(expected);
            return at < 0 ? null : "byte " + at + " (element " + at / k.type().sizeBytes() + ") differs from the"
                    + " sequential fold's bits";
        }
        return AllreduceApps.compare(k, to - from, count, out, expected, magnitude);
    }

    /**
     * Calls {@code c} with the buffers in {@code form}; {@code out} then holds what this rank received. Returns
     * whether {@code out} was overwritten by the form itself (in place), so its old contents cannot be checked.
     */
    private static boolean call(Communicator comm, Collective c, Case k, long count, int root, String form,
                                MemorySegment send, MemorySegment out) {
        ElementType t = k.type();
        Operator op = k.op();
        long bytes = out.byteSize();
        switch (form) {
            case "in-place" -> {
                MemorySegment buf = Arena.ofAuto().allocate(Math.max(send.byteSize(), 1)).asSlice(0, send.byteSize());
                buf.copyFrom(send);
                switch (c) {
                    case REDUCE -> comm.reduce(buf, t, count, op, root);
                    case REDUCE_SCATTER -> comm.reduceScatterBlock(buf, t, count, op);
                    case SCAN -> comm.scan(buf, t, count, op);
                    case EXSCAN -> comm.exscan(buf, t, count, op);
                    default -> throw new IllegalStateException(c.id());
                }
                out.copyFrom(buf.asSlice(0, bytes));
                return true;
            }
            case "array" -> {
                if (t != ElementType.DOUBLE && t != ElementType.LONG) {
                    return call(comm, c, k, count, root, "segment", send, out);
                }
                if (t == ElementType.DOUBLE) {
                    double[] s = send.toArray(ValueLayout.JAVA_DOUBLE);
                    double[] r = new double[(int) count];
                    MemorySegment.ofArray(r).copyFrom(out);
                    switch (c) {
                        case REDUCE -> comm.reduce(s, comm.rank() == root ? r : null, op, root);
                        case REDUCE_SCATTER -> comm.reduceScatterBlock(s, r, op);
                        case SCAN -> comm.scan(s, r, op);
                        case EXSCAN -> comm.exscan(s, r, op);
                        default -> throw new IllegalStateException(c.id());
                    }
                    out.copyFrom(MemorySegment.ofArray(r));
                } else {
                    long[] s = send.toArray(ValueLayout.JAVA_LONG);
                    long[] r = new long[(int) count];
                    MemorySegment.ofArray(r).copyFrom(out);
                    switch (c) {
                        case REDUCE -> comm.reduce(s, comm.rank() == root ? r : null, op, root);
                        case REDUCE_SCATTER -> comm.reduceScatterBlock(s, r, op);
                        case SCAN -> comm.scan(s, r, op);
                        case EXSCAN -> comm.exscan(s, r, op);
                        default -> throw new IllegalStateException(c.id());
                    }
                    out.copyFrom(MemorySegment.ofArray(r));
                }
                return false;
            }
            case "byte[]" -> {
                byte[] s = send.toArray(ValueLayout.JAVA_BYTE);
                byte[] r = out.toArray(ValueLayout.JAVA_BYTE);
                switch (c) {
                    case REDUCE -> comm.reduce(s, comm.rank() == root ? r : null, t, op, root);
                    case REDUCE_SCATTER -> comm.reduceScatterBlock(s, r, t, op);
                    case SCAN -> comm.scan(s, r, t, op);
                    case EXSCAN -> comm.exscan(s, r, t, op);
                    default -> throw new IllegalStateException(c.id());
                }
                out.copyFrom(MemorySegment.ofArray(r));
                return false;
            }
            case "direct" -> {
                ByteBuffer s = ByteBuffer.allocateDirect((int) send.byteSize());
                MemorySegment.ofBuffer(s).copyFrom(send);
                ByteBuffer r = ByteBuffer.allocateDirect((int) bytes);
                MemorySegment.ofBuffer(r).copyFrom(out);
                switch (c) {
                    case REDUCE -> comm.reduce(s, comm.rank() == root ? r : null, t, op, root);
                    case REDUCE_SCATTER -> comm.reduceScatterBlock(s, r, t, op);
                    case SCAN -> comm.scan(s, r, t, op);
                    case EXSCAN -> comm.exscan(s, r, t, op);
                    default -> throw new IllegalStateException(c.id());
                }
                out.copyFrom(MemorySegment.ofBuffer(r));
                return false;
            }
            default -> {
                switch (c) {
                    case REDUCE -> comm.reduce(send, comm.rank() == root ? out : null, t, count, op, root);
                    case REDUCE_SCATTER -> comm.reduceScatterBlock(send, out, t, count, op);
                    case SCAN -> comm.scan(send, out, t, count, op);
                    case EXSCAN -> comm.exscan(send, out, t, count, op);
                    default -> throw new IllegalStateException(c.id());
                }
                return false;
            }
        }
    }

    /** One scatter of {@code b}-byte blocks; the root scatters in place on odd seeds. Null when every block is right. */
    private static String scatterCase(Communicator comm, long b, int root, int seed) {
        int n = comm.size();
        byte[] recv = new byte[(int) b];
        if (comm.rank() == root) {
            byte[] send = new byte[(int) (n * b)];
            for (int i = 0; i < send.length; i++) {
                send[i] = expectedByte(seed, i);
            }
            boolean inPlace = seed % 2 == 1;
            comm.scatter(send, inPlace ? null : recv, root);
            if (inPlace) {
                System.arraycopy(send, (int) (root * b), recv, 0, (int) b);
            }
        } else {
            comm.scatter(null, recv, root);
        }
        for (int i = 0; i < b; i++) {
            if (recv[i] != expectedByte(seed, comm.rank() * b + i)) {
                return "byte " + i + " is " + recv[i] + ", expected " + expectedByte(seed, comm.rank() * b + i);
            }
        }
        return null;
    }

    private static byte expectedByte(int seed, long index) {
        long x = (seed * 0x9E3779B97F4A7C15L) ^ index * 0xC2B2AE3D27D4EB4FL;
        return (byte) (x ^ x >>> 29 ^ x >>> 47);
    }

    /**
     * Rank {@code args[2]} (default 1) disagrees in {@code args[1]}: {@code root}, {@code count}, {@code type} or
     * {@code operator}, in collective {@code args[0]} ({@code reduce}, {@code reduce-scatter}, {@code scan},
     * {@code exscan}). A barrier follows, so that a rank whose part ended before any rank saw the disagreement (a
     * leaf of the reduce tree) meets the failure in its next call, as the engine reports failures between calls.
     */
    public static final class Mismatch implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            Collective c = Collective.fromId(args.get(0));
            String kind = args.get(1);
            int odd = args.size() > 2 ? Integer.parseInt(args.get(2)) : 1;
            boolean me = comm.rank() == odd;
            comm.barrier();
            ElementType type = me && kind.equals("type") ? ElementType.FLOAT : ElementType.INT;
            Operator op = me && kind.equals("operator") ? PredefinedOperator.MAX : PredefinedOperator.SUM;
            if (kind.equals("user")) {
                op = new UserOperator(me ? "other" : "mine", true, (in, io, inout, ioo, count) -> { });
            }
            int count = me && kind.equals("count") ? 17 : 16;
            int root = me && kind.equals("root") ? 2 : 0;
            byte[] send = new byte[count * 4 * (c == Collective.REDUCE_SCATTER ? comm.size() : 1)];
            byte[] recv = new byte[count * 4];
            switch (c) {
                case REDUCE -> comm.reduce(send, recv, type, op, root);
                case REDUCE_SCATTER -> comm.reduceScatterBlock(send, recv, type, op);
                case SCAN -> comm.scan(send, recv, type, op);
                case EXSCAN -> comm.exscan(send, recv, type, op);
                default -> throw new IllegalArgumentException(c.id());
            }
            comm.barrier();
            System.out.println("rank " + comm.rank() + " finished the mismatched " + c.id());
        }
    }
}
