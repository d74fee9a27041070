package mpi;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random call test's neighbourhood collectives (decision 0219): {@code neighborAllGather(v)},
 * {@code neighborAllToAll(v)} and their i-forms on a Cartesian communicator of random dimensions and periods or on a
 * distributed graph of random edges (repeats and self-loops included, sources in a random order). The neighbours
 * come from {@link NeighbourModel}, the test's own account of MPI's order, never from the code under test.
 */
final class RandomNeighbourhoods {
    private RandomNeighbourhoods() {
    }

    static void next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step,
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
                int[] p = RandomExchanges.permutation(rnd, in[r].length);
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
        RandomExchanges.Pair u = RandomExchanges.pair(rnd, p, 1);
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
                    int sc = k * u.sendCount();
                    int rc = k * u.recvCount();
                    long[] sCounts = new long[size];
                    long[] rCounts = new long[size];
                    for (int s = 0; s < size; s++) {
                        sCounts[s] = gather ? sc : (long) sc * model.destinations()[s].length;
                        rCounts[s] = (long) rc * model.sources()[s].length;
                    }
                    RandomCall.Arg sa = c.arg(u.send(), sCounts, false);
                    RandomCall.Arg ra = c.arg(u.recv(), rCounts, false);
                    for (int i = 0; i < indeg; i++) {
                        if (from[i] != null) {
                            long first = gather ? 0 : (long) from[i][1] * sc;
                            ra.expect((long) i * rc, rc, sa.packed(from[i][0], first, sc), 0);
                        }
                    }
                    if (gather) {
                        req = nb ? topo.iNeighborAllGather(sa.direct(), sc, u.send().type(), ra.direct(), rc, u.recv().type())
                                : null;
                        if (!nb) {
                            topo.neighborAllGather(sa.passed(), sc, u.send().type(), ra.passed(), rc, u.recv().type());
                        }
                    } else {
                        req = nb ? topo.iNeighborAllToAll(sa.direct(), sc, u.send().type(), ra.direct(), rc, u.recv().type())
                                : null;
                        if (!nb) {
                            topo.neighborAllToAll(sa.passed(), sc, u.send().type(), ra.passed(), rc, u.recv().type());
                        }
                    }
                }
                case "neighborAllGatherv" -> {
                    int sc = gatherCount(units, rank) * u.sendCount();
                    int[] rc = new int[indeg];
                    for (int i = 0; i < indeg; i++) {
                        rc[i] = recvUnits[i] * u.recvCount();
                    }
                    int[] rd = new int[indeg];
                    long rSpan = layout(own, rc, rd);
                    long[] sCounts = new long[size];
                    for (int s = 0; s < size; s++) {
                        sCounts[s] = (long) gatherCount(units, s) * u.sendCount();
                    }
                    long[] rCounts = new long[size];
                    rCounts[rank] = rSpan; // only this rank's layout is drawn here (in its own generator)
                    RandomCall.Arg sa = c.arg(u.send(), sCounts, false);
                    RandomCall.Arg ra = c.arg(u.recv(), rCounts, false);
                    for (int i = 0; i < indeg; i++) {
                        if (from[i] != null) {
                            ra.expect(rd[i], rc[i], sa.packed(from[i][0], 0, (long) gatherCount(units, from[i][0])
                                    * u.sendCount()), 0);
                        }
                    }
                    if (nb) {
                        req = topo.iNeighborAllGatherv(sa.direct(), sc, u.send().type(), ra.direct(), rc, rd, u.recv().type());
                    } else {
                        topo.neighborAllGatherv(sa.passed(), sc, u.send().type(), ra.passed(), rc, rd, u.recv().type());
                    }
                }
                default -> { // neighborAllToAllv
                    int[] sc = new int[outdeg];
                    for (int j = 0; j < outdeg; j++) {
                        sc[j] = units[rank][j] * u.sendCount();
                    }
                    int[] rc = new int[indeg];
                    for (int i = 0; i < indeg; i++) {
                        rc[i] = recvUnits[i] * u.recvCount();
                    }
                    int[][] sd = new int[size][];
                    long[] sCounts = new long[size];
                    for (int s = 0; s < size; s++) { // every sender's layout, so each rank can rebuild its image
                        int[] counts = Arrays.stream(units[s]).map(x -> x * u.sendCount()).toArray();
                        sd[s] = new int[counts.length];
                        sCounts[s] = layout(rnd, counts, sd[s]);
                    }
                    int[] rd = new int[indeg];
                    long[] rCounts = new long[size];
                    rCounts[rank] = layout(own, rc, rd);
                    RandomCall.Arg sa = c.arg(u.send(), sCounts, false);
                    RandomCall.Arg ra = c.arg(u.recv(), rCounts, false);
                    for (int i = 0; i < indeg; i++) {
                        if (from[i] != null) {
                            int s = from[i][0];
                            int j = from[i][1];
                            ra.expect(rd[i], rc[i], sa.packed(s, sd[s][j], (long) units[s][j] * u.sendCount()), 0);
                        }
                    }
                    if (nb) {
                        req = topo.iNeighborAllToAllv(sa.direct(), sc, sd[rank], u.send().type(), ra.direct(), rc, rd,
                                u.recv().type());
                    } else {
                        topo.neighborAllToAllv(sa.passed(), sc, sd[rank], u.send().type(), ra.passed(), rc, rd,
                                u.recv().type());
                    }
                }
            }
            if (req != null) {
                req.waitFor();
            }
            c.check();
        } catch (AssertionError | MPIException | RuntimeException e) {
            throw new AssertionError(e.getMessage() + " (types " + u.send() + " x " + u.sendCount() + " / " + u.recv() + " x "
                    + u.recvCount() + ", sources " + Arrays.toString(model.sources()[rank]) + ", destinations "
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
        int[] order = RandomExchanges.permutation(rnd, counts.length);
        int at = rnd.nextInt(2);
        for (int i : order) {
            displs[i] = at;
            at += counts[i] + rnd.nextInt(2);
        }
        return at;
    }
}
