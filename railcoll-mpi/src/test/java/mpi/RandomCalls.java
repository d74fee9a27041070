package mpi;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random call test's catalogue: draws one collective with its arguments from the generator every rank shares
 * ({@code rnd}, the same draws on every rank), runs it on this rank, and writes the reference's expectations into
 * the call's buffers. A non-blocking call returns its request, to be completed (and then checked) later.
 */
final class RandomCalls {
    private final Intracomm comm;
    private final int size;
    private final int rank;
    private final long seed;

    RandomCalls(Intracomm comm, int size, int rank, long seed) {
        this.comm = comm;
        this.size = size;
        this.rank = rank;
        this.seed = seed;
    }

    /** A drawn call, started; {@code request} is null for a blocking one. */
    record Started(RandomCall call, Request request) {
    }

    private static final String[] BLOCKING = {"bcast", "gather", "gatherv", "scatter", "scatterv", "allGather",
            "allGatherv", "allToAll", "allToAllv", "reduce", "allReduce", "reduceScatterBlock", "reduceScatter", "scan",
            "exScan", "minloc"};
    private static final String[] NON_BLOCKING = {"bcast", "gather", "scatter", "allGather", "allToAll", "reduce",
            "allReduce", "reduceScatterBlock", "scan", "minloc", "gatherv", "scatterv", "allGatherv", "allToAllv",
            "reduceScatter", "exScan"};

    Started next(SplittableRandom rnd, long step, boolean nonBlocking) throws MPIException {
        String[] names = nonBlocking ? NON_BLOCKING : BLOCKING;
        String what = names[rnd.nextInt(names.length)];
        boolean inPlace = rnd.nextInt(3) == 0;
        RandomTypes.Prim p = RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)];
        RandomTypes.Model s = RandomTypes.random(rnd, p, 2);
        if (rnd.nextInt(6) == 0) {
            s = RandomTypes.mixed(rnd); // several primitives (not reduced: see reduction)
        }
        int root = rnd.nextInt(size);
        RandomCoverage.count("collective: " + (nonBlocking ? "i" : "") + what + (inPlace ? " (in place drawn)" : ""));
        RandomCall c = new RandomCall((nonBlocking ? "i" : "") + what + (inPlace ? "(in place)" : "") + " root " + root,
                seed, step, rank, nonBlocking);
        return switch (what) {
            case "minloc" -> RandomPairs.next(comm, size, rank, rnd, seed, step, nonBlocking);
            case "bcast" -> bcast(c, rnd, s, root, nonBlocking);
            case "gather", "scatter", "allGather", "allToAll" -> blocks(c, what, rnd, s, root, inPlace, nonBlocking);
            case "gatherv", "scatterv", "allGatherv", "allToAllv" -> vectors(c, what, rnd, s, root, inPlace, nonBlocking);
            default -> reduction(c, what, rnd, s, root, inPlace, nonBlocking);
        };
    }

    private static long[] same(int n, long count) {
        long[] c = new long[n];
        Arrays.fill(c, count);
        return c;
    }

    private Started bcast(RandomCall c, SplittableRandom rnd, RandomTypes.Model t, int root, boolean nb)
            throws MPIException {
        int count = rnd.nextInt(4);
        RandomCall.Arg b = c.arg(t, same(size, count), false);
        if (rank != root) {
            b.expect(0, count, b.packed(root, 0, count), 0);
        }
        Request r = null;
        if (nb) {
            r = comm.iBcast(b.direct(), count, t.type(), root);
        } else {
            comm.bcast(b.passed(), count, t.type(), root);
        }
        return new Started(c, r);
    }

    /**
     * A send type and a receive type of the same signature (the same primitives in the same number) with their
     * counts: the same type, or another type over the same primitive with counts in the ratio of their leaves.
     */
    private record Pair(RandomTypes.Model send, int sendCount, RandomTypes.Model recv, int recvCount) {
    }

    private static Pair pair(SplittableRandom rnd, RandomTypes.Model s) throws MPIException {
        if (s.signature() != null) { // a struct of several primitives: another layout of the same ones
            RandomTypes.Model r = RandomTypes.relayout(rnd, s);
            int k = rnd.nextInt(3);
            return rnd.nextBoolean() ? new Pair(s, k, s, k) : new Pair(s, k, r, k);
        }
        RandomTypes.Model r = RandomTypes.random(rnd, s.prim(), 2);
        int k = rnd.nextInt(3);
        if (rnd.nextBoolean() || s.leaves() == 0 || r.leaves() == 0) {
            return new Pair(s, k, s, k);
        }
        int g = gcd(s.leaves(), r.leaves());
        return new Pair(s, k * r.leaves() / g, r, k * s.leaves() / g);
    }

    /** As {@link #pair}, the counts the smallest that match (1 and 1 for one type): a unit of the v-calls. */
    private static Pair units(SplittableRandom rnd, RandomTypes.Model s) throws MPIException {
        if (s.signature() != null) {
            RandomTypes.Model r = RandomTypes.relayout(rnd, s);
            return rnd.nextBoolean() ? new Pair(s, 1, s, 1) : new Pair(s, 1, r, 1);
        }
        RandomTypes.Model r = RandomTypes.random(rnd, s.prim(), 2);
        if (rnd.nextBoolean() || s.leaves() == 0 || r.leaves() == 0) {
            return new Pair(s, 1, s, 1);
        }
        int g = gcd(s.leaves(), r.leaves());
        return new Pair(s, r.leaves() / g, r, s.leaves() / g);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private Started blocks(RandomCall c, String what, SplittableRandom rnd, RandomTypes.Model t, int root,
                           boolean inPlace, boolean nb) throws MPIException {
        Pair p = pair(rnd, t);
        int sc = p.sendCount;
        int rc = p.recvCount;
        Request req = null;
        switch (what) {
            case "gather" -> {
                if (inPlace) { // one type, one count
                    RandomCall.Arg b = c.arg(t, rankCounts(root, sc * (long) size, sc), false);
                    if (rank == root) {
                        for (int i = 0; i < size; i++) {
                            if (i != root) {
                                b.expect((long) i * sc, sc, other(b, t, i, sc), 0);
                            }
                        }
                    }
                    if (nb) {
                        req = comm.iGather(b.direct(), sc, t.type(), root);
                    } else {
                        comm.gather(b.passed(), sc, t.type(), root);
                    }
                    break;
                }
                RandomCall.Arg s = c.arg(p.send, same(size, sc), false);
                RandomCall.Arg r = c.arg(p.recv, rankCounts(root, rc * (long) size, 0), false);
                if (rank == root) {
                    for (int i = 0; i < size; i++) {
                        r.expect((long) i * rc, rc, s.packed(i, 0, sc), 0);
                    }
                }
                if (nb) {
                    req = comm.iGather(s.direct(), sc, p.send.type(), r.direct(), rc, p.recv.type(), root);
                } else {
                    comm.gather(s.passed(), sc, p.send.type(), rank == root ? r.passed() : null, rc, p.recv.type(),
                            root);
                }
            }
            case "scatter" -> {
                if (inPlace) {
                    RandomCall.Arg b = c.arg(t, rankCounts(root, sc * (long) size, sc), false);
                    if (rank != root) {
                        b.expect(0, sc, b.packed(root, (long) rank * sc, sc), 0);
                    }
                    if (nb) {
                        req = comm.iScatter(b.direct(), sc, t.type(), root);
                    } else {
                        comm.scatter(b.passed(), sc, t.type(), root);
                    }
                    break;
                }
                RandomCall.Arg s = c.arg(p.send, rankCounts(root, sc * (long) size, 0), false);
                RandomCall.Arg r = c.arg(p.recv, same(size, rc), false);
                r.expect(0, rc, s.packed(root, (long) rank * sc, sc), 0);
                if (nb) {
                    req = comm.iScatter(s.direct(), sc, p.send.type(), r.direct(), rc, p.recv.type(), root);
                } else {
                    comm.scatter(rank == root ? s.passed() : null, sc, p.send.type(), r.passed(), rc, p.recv.type(),
                            root);
                }
            }
            case "allGather" -> {
                if (inPlace) {
                    RandomCall.Arg b = c.arg(t, same(size, sc * (long) size), false);
                    for (int i = 0; i < size; i++) {
                        if (i != rank) {
                            b.expect((long) i * sc, sc, b.packed(i, (long) i * sc, sc), 0);
                        }
                    }
                    if (nb) {
                        req = comm.iAllGather(b.direct(), sc, t.type());
                    } else {
                        comm.allGather(b.passed(), sc, t.type());
                    }
                    break;
                }
                RandomCall.Arg s = c.arg(p.send, same(size, sc), false);
                RandomCall.Arg r = c.arg(p.recv, same(size, rc * (long) size), false);
                for (int i = 0; i < size; i++) {
                    r.expect((long) i * rc, rc, s.packed(i, 0, sc), 0);
                }
                if (nb) {
                    req = comm.iAllGather(s.direct(), sc, p.send.type(), r.direct(), rc, p.recv.type());
                } else {
                    comm.allGather(s.passed(), sc, p.send.type(), r.passed(), rc, p.recv.type());
                }
            }
            default -> { // allToAll
                RandomCall.Arg s = c.arg(p.send, same(size, sc * (long) size), false);
                RandomCall.Arg r = c.arg(p.recv, same(size, rc * (long) size), false);
                for (int i = 0; i < size; i++) {
                    r.expect((long) i * rc, rc, s.packed(i, (long) rank * sc, sc), 0);
                }
                if (nb) {
                    req = comm.iAllToAll(s.direct(), sc, p.send.type(), r.direct(), rc, p.recv.type());
                } else {
                    comm.allToAll(s.passed(), sc, p.send.type(), r.passed(), rc, p.recv.type());
                }
            }
        }
        return new Started(c, req);
    }

    /** In-place gather: rank i's send block is block i of its own (single) buffer only at the root; else element 0. */
    private static byte[] other(RandomCall.Arg b, RandomTypes.Model t, int i, int count) {
        return b.packed(i, 0, count);
    }

    /** {@code atRoot} elements at the root, {@code elsewhere} at the others. */
    private long[] rankCounts(int root, long atRoot, long elsewhere) {
        long[] c = same(size, elsewhere);
        c[root] = atRoot;
        return c;
    }

    /** Counts and displacements (in extents) of one v-call buffer on one rank: blocks in a random order with gaps. */
    private static int[][] layoutV(SplittableRandom rnd, int[] counts) {
        int n = counts.length;
        int[] order = RandomExchanges.permutation(rnd, n);
        int[] displs = new int[n];
        int at = rnd.nextInt(2);
        for (int i : order) {
            displs[i] = at;
            at += counts[i] + rnd.nextInt(2);
        }
        return new int[][] {displs, {at}};
    }

    private Started vectors(RandomCall c, String what, SplittableRandom rnd, RandomTypes.Model t, int root,
                            boolean inPlace, boolean nb) throws MPIException {
        Request req = null;
        // Counts differ by rank: rank i sends counts[i] units of the pair's send type (u.sendCount elements each),
        // received as counts[i] units of its receive type; one type and unit 1 in place.
        Pair u = inPlace ? new Pair(t, 1, t, 1) : units(rnd, t);
        RandomTypes.Model st = u.send;
        RandomTypes.Model rt = u.recv;
        int[] counts = new int[size];
        int[] sc = new int[size];
        int[] rc = new int[size];
        for (int i = 0; i < size; i++) {
            counts[i] = rnd.nextInt(4);
            sc[i] = counts[i] * u.sendCount;
            rc[i] = counts[i] * u.recvCount;
        }
        int[][] lay = layoutV(rnd, what.equals("scatterv") ? sc : rc);
        int[] displs = lay[0];
        long span = lay[1][0];
        switch (what) {
            case "gatherv" -> {
                if (inPlace) {
                    RandomCall.Arg b = c.arg(t, rankCountsV(root, span, counts), false);
                    if (rank == root) {
                        for (int i = 0; i < size; i++) {
                            if (i != root) {
                                b.expect(displs[i], counts[i], b.packed(i, 0, counts[i]), 0);
                            }
                        }
                        req = nb ? comm.iGatherv(b.direct(), counts, displs, t.type(), root) : null;
                        if (!nb) {
                            comm.gatherv(b.passed(), counts, displs, t.type(), root);
                        }
                    } else if (nb) {
                        req = comm.iGatherv(b.direct(), counts[rank], t.type(), root);
                    } else {
                        comm.gatherv(b.passed(), counts[rank], t.type(), root);
                    }
                    break;
                }
                RandomCall.Arg s = c.arg(st, countsOf(sc), false);
                RandomCall.Arg r = c.arg(rt, rankCounts(root, span, 0), false);
                if (rank == root) {
                    for (int i = 0; i < size; i++) {
                        r.expect(displs[i], rc[i], s.packed(i, 0, sc[i]), 0);
                    }
                }
                if (nb) {
                    req = comm.iGatherv(s.direct(), sc[rank], st.type(), r.direct(), rank == root ? rc : null,
                            rank == root ? displs : null, rt.type(), root);
                } else {
                    comm.gatherv(s.passed(), sc[rank], st.type(), rank == root ? r.passed() : null,
                            rank == root ? rc : null, rank == root ? displs : null, rt.type(), root);
                }
            }
            case "scatterv" -> {
                if (inPlace) {
                    RandomCall.Arg b = c.arg(t, rankCountsV(root, span, counts), false);
                    if (rank == root) {
                        req = nb ? comm.iScatterv(b.direct(), counts, displs, t.type(), root) : null;
                        if (!nb) {
                            comm.scatterv(b.passed(), counts, displs, t.type(), root);
                        }
                    } else {
                        b.expect(0, counts[rank], b.packed(root, displs[rank], counts[rank]), 0);
                        req = nb ? comm.iScatterv(b.direct(), counts[rank], t.type(), root) : null;
                        if (!nb) {
                            comm.scatterv(b.passed(), counts[rank], t.type(), root);
                        }
                    }
                    break;
                }
                RandomCall.Arg s = c.arg(st, rankCounts(root, span, 0), false);
                RandomCall.Arg r = c.arg(rt, countsOf(rc), false);
                r.expect(0, rc[rank], s.packed(root, displs[rank], sc[rank]), 0);
                if (nb) {
                    req = comm.iScatterv(s.direct(), rank == root ? sc : null, rank == root ? displs : null,
                            st.type(), r.direct(), rc[rank], rt.type(), root);
                } else {
                    comm.scatterv(rank == root ? s.passed() : null, rank == root ? sc : null,
                            rank == root ? displs : null, st.type(), r.passed(), rc[rank], rt.type(), root);
                }
            }
            case "allGatherv" -> {
                if (inPlace) {
                    RandomCall.Arg b = c.arg(t, same(size, span), false);
                    for (int i = 0; i < size; i++) {
                        if (i != rank) {
                            b.expect(displs[i], counts[i], b.packed(i, displs[i], counts[i]), 0);
                        }
                    }
                    if (nb) {
                        req = comm.iAllGatherv(b.direct(), counts, displs, t.type());
                    } else {
                        comm.allGatherv(b.passed(), counts, displs, t.type());
                    }
                    break;
                }
                RandomCall.Arg s = c.arg(st, countsOf(sc), false);
                RandomCall.Arg r = c.arg(rt, same(size, span), false);
                for (int i = 0; i < size; i++) {
                    r.expect(displs[i], rc[i], s.packed(i, 0, sc[i]), 0);
                }
                if (nb) {
                    req = comm.iAllGatherv(s.direct(), sc[rank], st.type(), r.direct(), rc, displs, rt.type());
                } else {
                    comm.allGatherv(s.passed(), sc[rank], st.type(), r.passed(), rc, displs, rt.type());
                }
            }
            default -> { // allToAllv: counts[i][j] from i to j, every rank's send and receive layouts drawn here
                int[][] sendCounts = new int[size][size];
                for (int i = 0; i < size; i++) {
                    for (int j = 0; j < size; j++) {
                        sendCounts[i][j] = rnd.nextInt(3) * u.sendCount;
                    }
                }
                int[][] sDispls = new int[size][];
                int[][] rDispls = new int[size][];
                int[][] recvCounts = new int[size][size];
                long[] sSpan = new long[size];
                long[] rSpan = new long[size];
                for (int i = 0; i < size; i++) {
                    for (int j = 0; j < size; j++) {
                        recvCounts[i][j] = sendCounts[j][i] / u.sendCount * u.recvCount;
                    }
                    int[][] sl = layoutV(rnd, sendCounts[i]);
                    int[][] rl = layoutV(rnd, recvCounts[i]);
                    sDispls[i] = sl[0];
                    sSpan[i] = sl[1][0];
                    rDispls[i] = rl[0];
                    rSpan[i] = rl[1][0];
                }
                RandomCall.Arg s = c.arg(st, sSpan, false);
                RandomCall.Arg r = c.arg(rt, rSpan, false);
                for (int i = 0; i < size; i++) {
                    r.expect(rDispls[rank][i], recvCounts[rank][i], s.packed(i, sDispls[i][rank], sendCounts[i][rank]), 0);
                }
                if (nb) {
                    req = comm.iAllToAllv(s.direct(), sendCounts[rank], sDispls[rank], st.type(), r.direct(),
                            recvCounts[rank], rDispls[rank], rt.type());
                } else {
                    comm.allToAllv(s.passed(), sendCounts[rank], sDispls[rank], st.type(), r.passed(), recvCounts[rank],
                            rDispls[rank], rt.type());
                }
            }
        }
        return new Started(c, req);
    }

    private static long[] countsOf(int[] counts) {
        return Arrays.stream(counts).asLongStream().toArray();
    }

    private long[] rankCountsV(int root, long atRoot, int[] counts) {
        long[] c = countsOf(counts);
        c[root] = atRoot;
        return c;
    }

    private Started reduction(RandomCall c, String what, SplittableRandom rnd, RandomTypes.Model drawn, int root,
                              boolean inPlace, boolean nb) throws MPIException {
        // A type with no leaves has no predefined type under it, so predefined ops are not defined on it (MPI 6.9.1).
        // A struct of several primitives is reduced by the struct user ops (field by field), half the time resized to
        // a lower bound below its origin (decision 0224).
        RandomTypes.Model t = drawn.leaves() == 0 ? RandomTypes.predefined(drawn.prim())
                : drawn.signature() != null && rnd.nextBoolean() ? RandomTypes.lowered(rnd, drawn) : drawn;
        if (t.signature() != null) {
            RandomReference.register(t);
        }
        RandomReference.Fold[] folds = Arrays.stream(RandomReference.Fold.values()).filter(f -> f.definedOn(t))
                .toArray(RandomReference.Fold[]::new);
        RandomReference.Fold f = folds[rnd.nextInt(folds.length)];
        c = new RandomCall(c.name + " " + f, seed, c.step, rank, nb);
        RandomCoverage.count("reduction " + what + " " + f + (t.signature() == null ? ""
                : " on a struct of several primitives" + (t.lb() < 0 ? ", lower bound below 0" : "")));
        int count = rnd.nextInt(4);
        int[] blocks = new int[size]; // reduceScatter's per-rank counts; reduceScatterBlock's all count
        for (int i = 0; i < size; i++) {
            blocks[i] = what.equals("reduceScatter") ? rnd.nextInt(3) : count;
        }
        long all = what.startsWith("reduceScatter") ? Arrays.stream(blocks).sum() : count;
        RandomCall.Arg s = c.arg(t, same(size, all), true);
        RandomCall.Arg r = inPlace ? s : c.arg(t, same(size, what.startsWith("reduceScatter") ? blocks[rank] : count),
                false);
        byte[][] inputs = new byte[size][];
        for (int i = 0; i < size; i++) {
            inputs[i] = s.packed(i, 0, all);
        }
        Request req = null;
        Datatype type = t.type();
        Op op = f.op();
        switch (what) {
            case "reduce" -> {
                if (rank == root) {
                    r.expect(0, count, RandomReference.fold(f, t, inputs, 0, size), 0);
                    r.expectAnyZeroSign(0, count);
                }
                if (inPlace) {
                    req = nb ? comm.iReduce(s.direct(), count, type, op, root) : null;
                    if (!nb) {
                        comm.reduce(s.passed(), count, type, op, root);
                    }
                } else if (nb) {
                    req = comm.iReduce(s.direct(), r.direct(), count, type, op, root);
                } else {
                    comm.reduce(s.passed(), rank == root ? r.passed() : null, count, type, op, root);
                }
            }
            case "allReduce" -> {
                r.expect(0, count, RandomReference.fold(f, t, inputs, 0, size), 0);
                r.expectAnyZeroSign(0, count);
                if (inPlace) {
                    req = nb ? comm.iAllReduce(s.direct(), count, type, op) : null;
                    if (!nb) {
                        comm.allReduce(s.passed(), count, type, op);
                    }
                } else if (nb) {
                    req = comm.iAllReduce(s.direct(), r.direct(), count, type, op);
                } else {
                    comm.allReduce(s.passed(), r.passed(), count, type, op);
                }
            }
            case "reduceScatterBlock", "reduceScatter" -> {
                long first = 0;
                for (int i = 0; i < rank; i++) {
                    first += blocks[i];
                }
                byte[] folded = RandomReference.fold(f, t, inputs, 0, size);
                if (inPlace) {
                    s.expectUndefined(blocks[rank], all - blocks[rank]); // MPI leaves the rest of the buffer undefined
                }
                int w = t.prim().width;
                r.expect(0, blocks[rank], folded, Math.toIntExact(first * t.leaves() * w));
                r.expectAnyZeroSign(0, blocks[rank]);
                boolean block = what.equals("reduceScatterBlock");
                if (nb && block) {
                    req = inPlace ? comm.iReduceScatterBlock(s.direct(), count, type, op)
                            : comm.iReduceScatterBlock(s.direct(), r.direct(), count, type, op);
                } else if (nb) {
                    req = inPlace ? comm.iReduceScatter(s.direct(), blocks, type, op)
                            : comm.iReduceScatter(s.direct(), r.direct(), blocks, type, op);
                } else if (block) {
                    if (inPlace) {
                        comm.reduceScatterBlock(s.passed(), count, type, op);
                    } else {
                        comm.reduceScatterBlock(s.passed(), r.passed(), count, type, op);
                    }
                } else if (inPlace) {
                    comm.reduceScatter(s.passed(), blocks, type, op);
                } else {
                    comm.reduceScatter(s.passed(), r.passed(), blocks, type, op);
                }
            }
            case "scan" -> {
                r.expect(0, count, RandomReference.fold(f, t, inputs, 0, rank + 1), 0);
                r.expectAnyZeroSign(0, count);
                if (nb) {
                    req = inPlace ? comm.iScan(s.direct(), count, type, op)
                            : comm.iScan(s.direct(), r.direct(), count, type, op);
                } else if (inPlace) {
                    comm.scan(s.passed(), count, type, op);
                } else {
                    comm.scan(s.passed(), r.passed(), count, type, op);
                }
            }
            default -> { // exScan: rank 0's result is undefined, except that the in-place form leaves it as it was
                if (rank > 0) {
                    r.expect(0, count, RandomReference.fold(f, t, inputs, 0, rank), 0);
                    r.expectAnyZeroSign(0, count);
                } else if (!inPlace) {
                    r.expectUndefined(0, count);
                }
                if (nb) {
                    req = inPlace ? comm.iExScan(s.direct(), count, type, op)
                            : comm.iExScan(s.direct(), r.direct(), count, type, op);
                } else if (inPlace) {
                    comm.exScan(s.passed(), count, type, op);
                } else {
                    comm.exScan(s.passed(), r.passed(), count, type, op);
                }
            }
        }
        return new Started(c, req);
    }
}
