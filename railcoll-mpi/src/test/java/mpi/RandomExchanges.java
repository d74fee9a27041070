package mpi;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random call test's exchanges with a type per block or a topology (decision 0219): {@code allToAllw} (blocking
 * and not; a primitive per pair of ranks in byte buffers, or one primitive and the arrays of its storage), and the
 * neighbourhood collectives ({@code neighborAllGather(v)}, {@code neighborAllToAll(v)} and their i-forms) on a
 * Cartesian communicator of random dimensions and periods or on a distributed graph of random edges (repeated edges and
 * self-loops included). The neighbours come from {@link NeighbourModel}, the test's own account of MPI's order, never
 * from the code under test; send and receive types share a signature, not a layout.
 */
final class RandomExchanges {
    private RandomExchanges() {
    }

    static void next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step)
            throws MPIException {
        boolean nb = rnd.nextBoolean();
        if (rnd.nextInt(3) == 0) {
            allToAllw(comm, size, rank, rnd, seed, step, nb);
        } else {
            neighbourhood(comm, size, rank, rnd, seed, step, nb);
        }
    }

    /** Send type, count; receive type, count: one signature (as RandomCalls' pairs). */
    private record Pair(RandomTypes.Model send, int sendCount, RandomTypes.Model recv, int recvCount) {
    }

    /** A pair of types over {@code p} for {@code units} units: the counts in the ratio of their leaves. */
    private static Pair pair(SplittableRandom rnd, RandomTypes.Prim p, int units) throws MPIException {
        RandomTypes.Model s = RandomTypes.random(rnd, p, 2);
        RandomTypes.Model r = RandomTypes.random(rnd, p, 2);
        if (rnd.nextBoolean() || s.leaves() == 0 || r.leaves() == 0) {
            return new Pair(s, units, s, units);
        }
        int g = gcd(s.leaves(), r.leaves());
        return new Pair(s, units * r.leaves() / g, r, units * s.leaves() / g);
    }

    /** A struct of several primitives and another layout of the same signature, {@code units} of each. */
    private static Pair mixedPair(SplittableRandom rnd, int units) throws MPIException {
        RandomTypes.Model s = RandomTypes.mixed(rnd);
        return new Pair(s, units, RandomTypes.relayout(rnd, s), units);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    // ---- allToAllw ----

    private static void allToAllw(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step,
                                  boolean nb) throws MPIException {
        boolean mixed = rnd.nextBoolean(); // a primitive per pair: the buffers are ByteBuffers
        RandomTypes.Prim one = RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)];
        Pair[][] pairs = new Pair[size][size]; // [from][to]
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                RandomTypes.Prim p = mixed ? RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)]
                        : one;
                pairs[i][j] = mixed && rnd.nextInt(4) == 0 ? mixedPair(rnd, rnd.nextInt(3)) : pair(rnd, p, rnd.nextInt(3));
            }
        }
        RandomTypes.Prim storage = mixed ? RandomTypes.Prim.BYTE : RandomTypes.predefined(one).storage();
        // Arrays (and heap slices) hold one storage: a struct's is BYTE; else direct buffers, which hold any type.
        boolean direct = mixed;
        for (Pair[] row : pairs) {
            for (Pair q : row) {
                direct |= q.send.storage() != storage || q.recv.storage() != storage;
            }
        }
        if (direct) {
            storage = RandomTypes.Prim.BYTE;
        }
        // Byte displacements: blocks in a random order, gaps between, each at a multiple of 8 (every alignment).
        int[][] sD = new int[size][size];
        int[][] rD = new int[size][size];
        long[] sSpan = new long[size];
        long[] rSpan = new long[size];
        for (int i = 0; i < size; i++) {
            final int me = i;
            sSpan[i] = place(rnd, size, j -> pairs[me][j].send.span(pairs[me][j].sendCount), sD[i]);
            rSpan[i] = place(rnd, size, j -> pairs[j][me].recv.span(pairs[j][me].recvCount), rD[i]);
        }
        RandomTypes.Model bytes = RandomTypes.predefined(storage);
        int w = storage.width;
        String kind = direct ? " in direct buffers" : "";
        long[] sUnits = Arrays.stream(sSpan).map(b -> (b + w - 1) / w).toArray();
        long[] rUnits = Arrays.stream(rSpan).map(b -> (b + w - 1) / w).toArray();
        RandomCall c = new RandomCall((nb ? "i" : "") + "allToAllw" + (mixed ? " mixed" : " over " + one) + kind, seed, step,
                rank, nb);
        RandomCall.Arg s = c.arg(bytes, sUnits, false);
        RandomCall.Arg r = c.arg(bytes, rUnits, false);
        s.directBuffer = direct;
        r.directBuffer = direct;
        r.passed();
        for (int i = 0; i < size; i++) {
            Pair q = pairs[i][rank];
            byte[] data = RandomReference.pack(s.image(i), s.origin(i) + sD[i][rank], q.send, 0, q.sendCount);
            RandomReference.unpack(r.expected, r.buf.origin + rD[rank][i], q.recv, 0, q.recvCount, data, 0);
        }
        int[] sc = new int[size];
        int[] rc = new int[size];
        Datatype[] st = new Datatype[size];
        Datatype[] rt = new Datatype[size];
        for (int j = 0; j < size; j++) {
            sc[j] = pairs[rank][j].sendCount;
            st[j] = pairs[rank][j].send.type();
            rc[j] = pairs[j][rank].recvCount;
            rt[j] = pairs[j][rank].recv.type();
        }
        try {
            if (nb) {
                comm.iAllToAllw(s.direct(), sc, sD[rank], st, r.direct(), rc, rD[rank], rt).waitFor();
            } else {
                comm.allToAllw(s.passed(), sc, sD[rank], st, r.passed(), rc, rD[rank], rt);
            }
            c.check();
        } catch (AssertionError | MPIException | RuntimeException e) {
            StringBuilder b = new StringBuilder(e.getMessage() + " (blocks: ");
            for (int i = 0; i < size; i++) {
                Pair q = pairs[i][rank];
                b.append("from ").append(i).append(" ").append(q.sendCount).append(" x ").append(q.send).append(" at ")
                        .append(sD[i][rank]).append(" into ").append(q.recvCount).append(" x ").append(q.recv)
                        .append(" at ").append(rD[rank][i]).append("; ");
            }
            throw new AssertionError(b.append(")").toString(), e);
        }
    }

    /** Places n blocks of the given byte spans in a random order with gaps; their displacements, and the whole span. */
    private static long place(SplittableRandom rnd, int n, java.util.function.IntToLongFunction span, int[] displs) {
        int[] order = permutation(rnd, n);
        long at = 8L * rnd.nextInt(2);
        for (int j : order) {
            displs[j] = Math.toIntExact(at);
            at += (span.applyAsLong(j) + 7) / 8 * 8 + 8L * rnd.nextInt(2);
        }
        return at;
    }

    private static int[] permutation(SplittableRandom rnd, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int x = p[i];
            p[i] = p[j];
            p[j] = x;
        }
        return p;
    }

    // ---- neighbourhood collectives ----

    private static void neighbourhood(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step,
                                      boolean nb) throws MPIException {
        boolean cart = rnd.nextBoolean();
        NeighbourModel model;
        Comm topo;
        String shape;
        if (cart) {
            int a = 1 + rnd.nextInt(size);
            while (size % a != 0) {
                a--;
            }
            int[] dims = rnd.nextBoolean() ? new int[] {size} : new int[] {a, size / a};
            boolean[] periods = new boolean[dims.length];
            for (int d = 0; d < dims.length; d++) {
                periods[d] = rnd.nextBoolean();
            }
            model = NeighbourModel.cart(size, dims, periods);
            topo = comm.createCart(dims, periods, false);
            shape = "cart " + Arrays.toString(dims) + " periods " + Arrays.toString(periods);
        } else {
            int[][] out = new int[size][];
            int[] indeg = new int[size];
            for (int s = 0; s < size; s++) {
                out[s] = new int[rnd.nextInt(4)];
                for (int j = 0; j < out[s].length; j++) {
                    out[s][j] = rnd.nextInt(size);
                    indeg[out[s][j]]++;
                }
            }
            int[][] in = new int[size][];
            for (int r = 0; r < size; r++) {
                in[r] = new int[indeg[r]];
            }
            int[] filled = new int[size];
            for (int s = 0; s < size; s++) {
                for (int d : out[s]) {
                    in[d][filled[d]++] = s;
                }
            }
            for (int r = 0; r < size; r++) {
                int[] p = permutation(rnd, in[r].length);
                int[] shuffled = new int[in[r].length];
                for (int i = 0; i < p.length; i++) {
                    shuffled[i] = in[r][p[i]];
                }
                in[r] = shuffled;
            }
            model = NeighbourModel.ordered(in, out);
            topo = comm.createDistGraphAdjacent(in[rank], out[rank], MPI.INFO_NULL, false);
            shape = "distributed graph in " + Arrays.deepToString(in) + " out " + Arrays.deepToString(out);
        }
        int indeg = model.sources()[rank].length;
        int outdeg = model.destinations()[rank].length;
        String[] names = {"neighborAllGather", "neighborAllGatherv", "neighborAllToAll", "neighborAllToAllv"};
        String what = names[rnd.nextInt(names.length)];
        RandomTypes.Prim p = RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)];
        Pair u = pair(rnd, p, 1);
        RandomCall c = new RandomCall((nb ? "i" : "") + what + " on a " + shape, seed, step, rank, nb);
        // Units each rank sends to each of its destinations (v-forms: per slot; all-gather forms: one per rank).
        int[][] units = new int[size][];
        for (int s = 0; s < size; s++) {
            units[s] = new int[model.destinations()[s].length];
            int same = rnd.nextInt(3);
            for (int j = 0; j < units[s].length; j++) {
                units[s][j] = what.endsWith("v") && what.contains("ToAll") ? rnd.nextInt(3) : same;
            }
        }
        // What only this rank draws (its receive layout, counts for PROC_NULL slots) comes from its own generator, so
        // the shared one moves alike on every rank.
        SplittableRandom own = new SplittableRandom(RandomBuffers.mix(seed, step, rank, 13));
        // Units a slot receives: its sender's for that slot; a PROC_NULL slot receives nothing (any count).
        int[] recvUnits = new int[indeg];
        int[][] from = new int[indeg][];
        for (int i = 0; i < indeg; i++) {
            from[i] = model.match(rank, i);
            recvUnits[i] = from[i] == null ? own.nextInt(2) : units[from[i][0]].length == 0 ? 0
                    : what.contains("Gather") ? units[from[i][0]][0] : units[from[i][0]][from[i][1]];
        }
        // A rank with no destinations sends gathered units no one receives; in the gather forms every sender's
        // count is one per rank, which a rank with no destinations draws itself above.
        if (what.contains("Gather")) {
            for (int i = 0; i < indeg; i++) {
                if (from[i] != null && units[from[i][0]].length == 0) {
                    throw new AssertionError("a source without destinations: the model is inconsistent");
                }
            }
        }
        Request req = null;
        try {
            switch (what) {
                case "neighborAllGather", "neighborAllToAll" -> {
                    boolean gather = what.equals("neighborAllGather");
                    int k = uniform(units); // the fixed forms: one count on every rank
                    int sc = k * u.sendCount;
                    int rc = k * u.recvCount;
                    long[] sCounts = new long[size];
                    long[] rCounts = new long[size];
                    for (int s = 0; s < size; s++) {
                        sCounts[s] = gather ? sc : (long) sc * model.destinations()[s].length;
                        rCounts[s] = (long) rc * model.sources()[s].length;
                    }
                    RandomCall.Arg sa = c.arg(u.send, sCounts, false);
                    RandomCall.Arg ra = c.arg(u.recv, rCounts, false);
                    for (int i = 0; i < indeg; i++) {
                        if (from[i] != null) {
                            long first = gather ? 0 : (long) from[i][1] * sc;
                            ra.expect((long) i * rc, rc, sa.packed(from[i][0], first, sc), 0);
                        }
                    }
                    if (gather) {
                        req = nb ? topo.iNeighborAllGather(sa.direct(), sc, u.send.type(), ra.direct(), rc, u.recv.type())
                                : null;
                        if (!nb) {
                            topo.neighborAllGather(sa.passed(), sc, u.send.type(), ra.passed(), rc, u.recv.type());
                        }
                    } else {
                        req = nb ? topo.iNeighborAllToAll(sa.direct(), sc, u.send.type(), ra.direct(), rc, u.recv.type())
                                : null;
                        if (!nb) {
                            topo.neighborAllToAll(sa.passed(), sc, u.send.type(), ra.passed(), rc, u.recv.type());
                        }
                    }
                }
                case "neighborAllGatherv" -> {
                    int sc = gatherCount(units, rank) * u.sendCount;
                    int[] rc = new int[indeg];
                    for (int i = 0; i < indeg; i++) {
                        rc[i] = recvUnits[i] * u.recvCount;
                    }
                    int[] rd = new int[indeg];
                    long rSpan = layout(own, rc, rd);
                    long[] sCounts = new long[size];
                    for (int s = 0; s < size; s++) {
                        sCounts[s] = (long) gatherCount(units, s) * u.sendCount;
                    }
                    long[] rCounts = new long[size];
                    rCounts[rank] = rSpan; // only this rank's layout is drawn here (in its own generator)
                    RandomCall.Arg sa = c.arg(u.send, sCounts, false);
                    RandomCall.Arg ra = c.arg(u.recv, rCounts, false);
                    for (int i = 0; i < indeg; i++) {
                        if (from[i] != null) {
                            ra.expect(rd[i], rc[i], sa.packed(from[i][0], 0, (long) gatherCount(units, from[i][0])
                                    * u.sendCount), 0);
                        }
                    }
                    if (nb) {
                        req = topo.iNeighborAllGatherv(sa.direct(), sc, u.send.type(), ra.direct(), rc, rd, u.recv.type());
                    } else {
                        topo.neighborAllGatherv(sa.passed(), sc, u.send.type(), ra.passed(), rc, rd, u.recv.type());
                    }
                }
                default -> { // neighborAllToAllv
                    int[] sc = new int[outdeg];
                    for (int j = 0; j < outdeg; j++) {
                        sc[j] = units[rank][j] * u.sendCount;
                    }
                    int[] rc = new int[indeg];
                    for (int i = 0; i < indeg; i++) {
                        rc[i] = recvUnits[i] * u.recvCount;
                    }
                    int[][] sd = new int[size][];
                    long[] sCounts = new long[size];
                    for (int s = 0; s < size; s++) { // every sender's layout, so each rank can rebuild its image
                        int[] counts = Arrays.stream(units[s]).map(x -> x * u.sendCount).toArray();
                        sd[s] = new int[counts.length];
                        sCounts[s] = layout(rnd, counts, sd[s]);
                    }
                    int[] rd = new int[indeg];
                    long[] rCounts = new long[size];
                    rCounts[rank] = layout(own, rc, rd);
                    RandomCall.Arg sa = c.arg(u.send, sCounts, false);
                    RandomCall.Arg ra = c.arg(u.recv, rCounts, false);
                    for (int i = 0; i < indeg; i++) {
                        if (from[i] != null) {
                            int s = from[i][0];
                            int j = from[i][1];
                            ra.expect(rd[i], rc[i], sa.packed(s, sd[s][j], (long) units[s][j] * u.sendCount), 0);
                        }
                    }
                    if (nb) {
                        req = topo.iNeighborAllToAllv(sa.direct(), sc, sd[rank], u.send.type(), ra.direct(), rc, rd,
                                u.recv.type());
                    } else {
                        topo.neighborAllToAllv(sa.passed(), sc, sd[rank], u.send.type(), ra.passed(), rc, rd,
                                u.recv.type());
                    }
                }
            }
            if (req != null) {
                req.waitFor();
            }
            c.check();
        } catch (AssertionError | MPIException | RuntimeException e) {
            throw new AssertionError(e.getMessage() + " (types " + u.send + " x " + u.sendCount + " / " + u.recv + " x "
                    + u.recvCount + ", sources " + Arrays.toString(model.sources()[rank]) + ", destinations "
                    + Arrays.toString(model.destinations()[rank]) + ")", e);
        } finally {
            topo.free();
        }
    }

    /** The units rank s sends in the gather forms (one count for all its destinations). */
    private static int gatherCount(int[][] units, int s) {
        return units[s].length > 0 ? units[s][0] : 0;
    }

    /** The fixed forms' one count, the same on every rank: the first rank with destinations decides. */
    private static int uniform(int[][] units) {
        for (int[] u : units) {
            if (u.length > 0) {
                return u[0];
            }
        }
        return 0;
    }

    /** Displacements (in extents) of blocks of {@code counts}, in a random order with gaps; the span in elements. */
    private static long layout(SplittableRandom rnd, int[] counts, int[] displs) {
        int[] order = permutation(rnd, counts.length);
        int at = rnd.nextInt(2);
        for (int i : order) {
            displs[i] = at;
            at += counts[i] + rnd.nextInt(2);
        }
        return at;
    }
}
