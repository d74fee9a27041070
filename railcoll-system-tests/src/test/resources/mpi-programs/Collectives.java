import java.nio.DoubleBuffer;
import java.util.Arrays;

import mpi.*;

/**
 * Broadcast, reductions, gathers on arrays with counts and on a direct buffer, as a user of Open MPI's mpi.jar writes
 * them. Runs on any number of ranks: roots are chosen modulo the size, arrays sized by it, and every result is
 * checked against values computed here ("rank r name [values] ok", or MISMATCH).
 */
public class Collectives {
    public static void main(String[] args) throws Exception {
        DoubleBuffer grid = MPI.newDoubleBuffer(4); // made before Init, as the bindings allow
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();

        int last = size - 1;
        int rankOne = 1 % size; // rank 1, or rank 0 alone
        int ranksSum = size * (size - 1) / 2;

        int[] params = new int[5];
        if (rank == rankOne) {
            params[0] = 7; params[1] = 8; params[2] = 9; params[3] = 10; params[4] = 11;
        }
        MPI.COMM_WORLD.bcast(params, 3, MPI.INT, rankOne);   // only the first 3 move
        check(rank, "bcast", params, rank == rankOne ? new int[] {7, 8, 9, 10, 11} : new int[] {7, 8, 9, 0, 0});

        int[] mine = {rank, rank * 10, 1000};
        int[] sum = new int[3];
        MPI.COMM_WORLD.allReduce(mine, sum, 2, MPI.INT, MPI.SUM);
        check(rank, "int sum", sum, new int[] {ranksSum, 10 * ranksSum, 0});

        double[] x = {rank + 0.5, -rank};
        double[] max = new double[2];
        MPI.COMM_WORLD.allReduce(x, max, 2, MPI.DOUBLE, MPI.MAX);
        check(rank, "double max", max, new double[] {last + 0.5, 0.0});

        // pi by the midpoint rule, each rank its share of the intervals
        int n = 10000;
        double h = 1.0 / n;
        double[] part = {0};
        for (int i = rank; i < n; i += size) {
            double t = h * (i + 0.5);
            part[0] += 4.0 / (1.0 + t * t);
        }
        part[0] *= h;
        MPI.COMM_WORLD.allReduce(part, 1, MPI.DOUBLE, MPI.SUM);   // in place
        System.out.println(String.format("rank %d pi %.8f", rank, part[0]));

        for (int i = 0; i < 4; i++) {
            grid.put(i, rank * 100 + i);
        }
        MPI.COMM_WORLD.allReduce(grid, 4, MPI.DOUBLE, MPI.SUM);
        double[] g = new double[4];
        grid.get(0, g);
        double[] wantGrid = new double[4];
        for (int i = 0; i < 4; i++) {
            wantGrid[i] = 100.0 * ranksSum + (double) size * i;
        }
        check(rank, "buffer sum", g, wantGrid);

        int[] gathered = new int[2 * size];
        MPI.COMM_WORLD.gather(new int[] {rank, -rank}, 2, MPI.INT, gathered, 2, MPI.INT, 0);
        if (rank == 0) {
            int[] wantGathered = new int[2 * size];
            for (int r = 0; r < size; r++) {
                wantGathered[2 * r] = r;
                wantGathered[2 * r + 1] = -r;
            }
            check(rank, "gather", gathered, wantGathered);
        }

        long[] everyone = new long[size];
        everyone[rank] = 1L << (rank + 32);
        MPI.COMM_WORLD.allGather(everyone, 1, MPI.LONG);   // in place
        long[] wantEveryone = new long[size];
        for (int r = 0; r < size; r++) {
            wantEveryone[r] = 1L << (r + 32);
        }
        check(rank, "allGather", everyone, wantEveryone);

        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int i = 0, at = 0; i < size; at += i + 1, i++) {
            counts[i] = i + 1;
            displs[i] = at;
        }
        int[] mineV = new int[rank + 1];
        for (int j = 0; j <= rank; j++) {
            mineV[j] = rank * 10 + j;
        }
        int[] allV = new int[displs[size - 1] + counts[size - 1]];
        MPI.COMM_WORLD.allGatherv(mineV, rank + 1, MPI.INT, allV, counts, displs, MPI.INT);
        int[] wantV = new int[allV.length];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j <= i; j++) {
                wantV[displs[i] + j] = i * 10 + j;
            }
        }
        check(rank, "allGatherv", allV, wantV);
        // in place, into a direct buffer: this rank's block already at its displacement
        java.nio.IntBuffer allVd = MPI.newIntBuffer(allV.length);
        for (int j = 0; j <= rank; j++) {
            allVd.put(displs[rank] + j, rank * 10 + j);
        }
        MPI.COMM_WORLD.allGatherv(allVd, counts, displs, MPI.INT);
        int[] allVdOut = new int[allV.length];
        allVd.get(0, allVdOut);
        check(rank, "allGatherv in place", allVdOut, wantV);

        // gatherv to the last rank, in place there: rank i's i+1 ints at element size * i (gaps of -1 between).
        int[] gdispls = new int[size];
        for (int i = 0; i < size; i++) {
            gdispls[i] = size * i;
        }
        int[] mineG = new int[rank + 1];
        for (int j = 0; j <= rank; j++) {
            mineG[j] = 100 * rank + j;
        }
        int groot = size - 1;
        if (rank == groot) {
            int[] gv = new int[size * size];
            Arrays.fill(gv, -1);
            System.arraycopy(mineG, 0, gv, gdispls[rank], rank + 1);
            MPI.COMM_WORLD.gatherv(gv, counts, gdispls, MPI.INT, groot);
            int[] wantGv = new int[size * size];
            Arrays.fill(wantGv, -1);
            for (int i = 0; i < size; i++) {
                for (int j = 0; j <= i; j++) {
                    wantGv[gdispls[i] + j] = 100 * i + j;
                }
            }
            check(rank, "gatherv", gv, wantGv);
        } else {
            MPI.COMM_WORLD.gatherv(mineG, rank + 1, MPI.INT, groot);
        }

        // allToAllv: rank r sends r+1 ints to every rank; rank i's land at the sum of the counts before i.
        int[] scounts = new int[size];
        int[] sdispls = new int[size];
        int[] toSend = new int[(rank + 1) * size];
        for (int j = 0; j < size; j++) {
            scounts[j] = rank + 1;
            sdispls[j] = j * (rank + 1);
            Arrays.fill(toSend, sdispls[j], sdispls[j] + rank + 1, 10 * rank + j);
        }
        int[] got = new int[displs[size - 1] + counts[size - 1]];
        MPI.COMM_WORLD.allToAllv(toSend, scounts, sdispls, MPI.INT, got, counts, displs, MPI.INT);
        int[] wantGot = new int[got.length];
        for (int i = 0; i < size; i++) {
            Arrays.fill(wantGot, displs[i], displs[i] + counts[i], 10 * i + rank);
        }
        check(rank, "allToAllv", got, wantGot);

        short[] out = new short[size];
        short[] in = new short[size];
        for (int j = 0; j < size; j++) {
            out[j] = (short) (rank * 10 + j);
        }
        MPI.COMM_WORLD.allToAll(out, 1, MPI.SHORT, in, 1, MPI.SHORT);
        short[] wantIn = new short[size];
        for (int i = 0; i < size; i++) {
            wantIn[i] = (short) (i * 10 + rank);
        }
        check(rank, "allToAll", in, wantIn);

        // reduce to the last rank (a root other than 0 where there are two): sums of (r+1, r*r); the others pass no
        // receive buffer
        int[] red = new int[2];
        MPI.COMM_WORLD.reduce(new int[] {rank + 1, rank * rank}, rank == last ? red : null, 2, MPI.INT, MPI.SUM, last);
        if (rank == last) {
            int[] want = new int[2];
            for (int r = 0; r < size; r++) {
                want[0] += r + 1;
                want[1] += r * r;
            }
            check(rank, "reduce", red, want);
        }

        // reduce in place at rank 1: MAX of doubles; elsewhere a direct buffer that must come back unchanged
        DoubleBuffer maxIn = MPI.newDoubleBuffer(2).put(0, rank * 1.5).put(1, -rank);
        MPI.COMM_WORLD.reduce(maxIn, 2, MPI.DOUBLE, MPI.MAX, rankOne);
        double[] maxOut = {maxIn.get(0), maxIn.get(1)};
        check(rank, "reduce in place", maxOut, rank == rankOne ? new double[] {last * 1.5, 0} : new double[] {rank * 1.5, -rank});

        // scan and exScan (in place, PROD of r+2; rank 0 keeps its value)
        int[] pre = new int[2];
        MPI.COMM_WORLD.scan(new int[] {rank + 1, 10 * rank}, pre, 2, MPI.INT, MPI.SUM);
        int[] wantPre = new int[2];
        for (int r = 0; r <= rank; r++) {
            wantPre[0] += r + 1;
            wantPre[1] += 10 * r;
        }
        check(rank, "scan", pre, wantPre);
        long[] ex = {rank + 2};
        MPI.COMM_WORLD.exScan(ex, 1, MPI.LONG, MPI.PROD);
        long wantEx = rank == 0 ? 2 : 1;
        for (int r = 0; r < rank; r++) {
            wantEx *= r + 2;
        }
        check(rank, "exScan", ex, new long[] {wantEx});

        // reduceScatter with uneven counts (rank i gets i+1 elements): element k of rank r's vector is 100r + k
        int total = displs[size - 1] + counts[size - 1];
        int[] vec = new int[total];
        for (int k = 0; k < total; k++) {
            vec[k] = 100 * rank + k;
        }
        int[] mineRs = new int[rank + 1];
        MPI.COMM_WORLD.reduceScatter(vec, mineRs, counts, MPI.INT, MPI.SUM);
        int[] wantPart = new int[rank + 1];
        for (int j = 0; j <= rank; j++) {
            for (int r = 0; r < size; r++) {
                wantPart[j] += 100 * r + displs[rank] + j;
            }
        }
        check(rank, "reduceScatter", mineRs, wantPart);
        // reduceScatterBlock in place: 2 doubles a rank, (r + j) for element j
        double[] blocks = new double[2 * size];
        for (int j = 0; j < blocks.length; j++) {
            blocks[j] = rank + j;
        }
        MPI.COMM_WORLD.reduceScatterBlock(blocks, 2, MPI.DOUBLE, MPI.SUM);
        double[] wantBlock = new double[2];
        for (int r = 0; r < size; r++) {
            wantBlock[0] += r + 2 * rank;
            wantBlock[1] += r + 2 * rank + 1;
        }
        check(rank, "reduceScatterBlock", Arrays.copyOf(blocks, 2), wantBlock);

        // scatter from rank 1: rank i gets (10i, 10i+1); then in place from rank 0 (its own block stays)
        int[] toScatter = null;
        if (rank == rankOne) {
            toScatter = new int[2 * size];
            for (int i = 0; i < 2 * size; i++) {
                toScatter[i] = 10 * (i / 2) + i % 2;
            }
        }
        int[] sc = new int[2];
        MPI.COMM_WORLD.scatter(toScatter, 2, MPI.INT, sc, 2, MPI.INT, rankOne);
        check(rank, "scatter", sc, new int[] {10 * rank, 10 * rank + 1});
        long[] scIn = rank == 0 ? new long[size] : new long[] {-1};
        if (rank == 0) {
            for (int i = 0; i < size; i++) {
                scIn[i] = 7L * i + 1;
            }
        }
        MPI.COMM_WORLD.scatter(scIn, 1, MPI.LONG, 0);
        check(rank, "scatter in place", new long[] {scIn[0]}, new long[] {7L * rank + 1});

        // scatterv from the last rank, in place there: rank i gets i+1 ints from element size * i (100i + j)
        int[] sv = new int[rank + 1];
        if (rank == last) {
            int[] all = new int[size * size];
            Arrays.fill(all, -1);
            for (int i = 0; i < size; i++) {
                for (int j = 0; j <= i; j++) {
                    all[gdispls[i] + j] = 100 * i + j;
                }
            }
            MPI.COMM_WORLD.scatterv(all, counts, gdispls, MPI.INT, last);
            System.arraycopy(all, gdispls[rank], sv, 0, rank + 1);
        } else {
            MPI.COMM_WORLD.scatterv(sv, rank + 1, MPI.INT, last);
        }
        int[] wantSv = new int[rank + 1];
        for (int j = 0; j <= rank; j++) {
            wantSv[j] = 100 * rank + j;
        }
        check(rank, "scatterv", sv, wantSv);
        // scatterv's full form from rank 0, received into a direct buffer (the sender's counts only matter on rank 0)
        java.nio.IntBuffer svd = MPI.newIntBuffer(rank + 1);
        MPI.COMM_WORLD.scatterv(rank == 0 ? allV : null, rank == 0 ? counts : null, rank == 0 ? displs : null, MPI.INT,
                svd, rank + 1, MPI.INT, 0);
        int[] svdOut = new int[rank + 1];
        svd.get(0, svdOut);
        int[] wantSvd = new int[rank + 1];
        for (int j = 0; j <= rank; j++) {
            wantSvd[j] = rank * 10 + j;
        }
        check(rank, "scatterv direct", svdOut, wantSvd);

        // Two threads reducing at once: alike calls, so every rank may run them in any order.
        int[] totals = new int[2];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            final int me = t;
            threads[t] = new Thread(() -> {
                try {
                    for (int i = 0; i < 25; i++) {
                        int[] one = {1};
                        MPI.COMM_WORLD.allReduce(one, 1, MPI.INT, MPI.SUM);
                        totals[me] += one[0];
                    }
                } catch (MPIException e) {
                    throw new RuntimeException(e);
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        check(rank, "threads", new int[] {provided, totals[0], totals[1]}, new int[] {MPI.THREAD_MULTIPLE, 25 * size, 25 * size});

        derivedCommunicators(rank, size);

        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    /**
     * Communicators derived from COMM_WORLD (odd and even ranks, a dup, a dup of a split, the ranks of this node, one
     * made from a group), collectives on each checked against values computed here from the rank lists, then freed.
     */
    static void derivedCommunicators(int rank, int size) throws MPIException {
        // Odd and even ranks, numbered in reverse (key -rank).
        Intracomm parity = MPI.COMM_WORLD.split(rank % 2, -rank);
        int[] members = java.util.stream.IntStream.range(0, size).map(i -> size - 1 - i).filter(r -> r % 2 == rank % 2)
                .toArray();
        int me = indexOf(members, rank);
        check(rank, "split", new int[] {parity.getSize(), parity.getRank()}, new int[] {members.length, me});
        int[] who = new int[members.length];
        parity.allGather(new int[] {rank}, 1, MPI.INT, who, 1, MPI.INT);
        check(rank, "split allGather", who, members);
        long[] sums = {rank, 1};
        parity.allReduce(sums, 2, MPI.LONG, MPI.SUM);
        check(rank, "split allReduce", sums, new long[] {Arrays.stream(members).sum(), members.length});
        int[] fromFirst = {parity.getRank() == 0 ? 100 + rank : -1};
        parity.bcast(fromFirst, 1, MPI.INT, 0);
        check(rank, "split bcast", fromFirst, new int[] {100 + members[0]});
        long[] prefix = {rank + 1};
        parity.scan(prefix, 1, MPI.LONG, MPI.SUM);
        check(rank, "split scan", prefix, new long[] {Arrays.stream(members, 0, me + 1).map(r -> r + 1).sum()});
        // The same ranks in reverse order are SIMILAR; one rank alone, in the same order, CONGRUENT.
        check(rank, "split compare", new int[] {Comm.compare(parity, MPI.COMM_WORLD)},
                new int[] {members.length < size ? MPI.UNEQUAL : size == 1 ? MPI.CONGRUENT : MPI.SIMILAR});

        // A dup of the split: the same ranks, its own context; and a rank that takes no part (colour UNDEFINED).
        Intracomm twin = parity.dup();
        int[] twinWho = new int[members.length];
        twin.gather(new int[] {rank * rank}, 1, MPI.INT, twinWho, 1, MPI.INT, 0);
        int[] wantTwin = twin.getRank() == 0 ? Arrays.stream(members).map(r -> r * r).toArray() : new int[members.length];
        check(rank, "dup of split", new Object[] {Comm.compare(parity, twin), twinWho},
                new Object[] {MPI.CONGRUENT, wantTwin});
        Intracomm some = MPI.COMM_WORLD.split(rank == 1 ? MPI.UNDEFINED : 0, rank);
        int[] someSize = {-1};
        if (!some.isNull()) {
            someSize[0] = some.getSize();
            some.allReduce(someSize, 1, MPI.INT, MPI.MAX);
        }
        check(rank, "undefined", new Object[] {some.isNull(), someSize[0]},
                new Object[] {rank == 1, rank == 1 ? -1 : size > 1 ? size - 1 : size});

        // A dup of the world: congruent, its collectives its own.
        Intracomm dup = MPI.COMM_WORLD.dup();
        long[] squares = new long[1];
        dup.reduce(new long[] {(long) rank * rank}, squares, 1, MPI.LONG, MPI.SUM, size - 1);
        long wantSquares = rank == size - 1 ? (long) (size - 1) * size * (2 * size - 1) / 6 : 0;
        check(rank, "dup", new long[] {Comm.compare(MPI.COMM_WORLD, dup), dup.getRank(), squares[0]},
                new long[] {MPI.CONGRUENT, rank, wantSquares});

        // The ranks sharing this node, numbered in reverse (key size - rank): which they are comes from the group.
        Intracomm node = MPI.COMM_WORLD.splitType(Comm.TYPE_SHARED, size - rank, MPI.INFO_NULL);
        Group nodeGroup = node.getGroup();
        Group worldGroup = MPI.COMM_WORLD.getGroup();
        int[] onNode = Group.translateRanks(nodeGroup, java.util.stream.IntStream.range(0, node.getSize()).toArray(),
                worldGroup);
        int[] descending = Arrays.stream(onNode).boxed().sorted((a, b) -> b - a).mapToInt(Integer::intValue).toArray();
        check(rank, "splitType", new int[][] {onNode, {node.getRank()}},
                new int[][] {descending, {indexOf(descending, rank)}});
        int[] nodeWho = new int[node.getSize()];
        node.allGather(new int[] {rank}, 1, MPI.INT, nodeWho, 1, MPI.INT);
        double[] nodeSum = {rank};
        node.allReduce(nodeSum, 1, MPI.DOUBLE, MPI.SUM);
        check(rank, "splitType collectives", new Object[] {nodeWho, nodeSum[0]},
                new Object[] {onNode, (double) Arrays.stream(onNode).sum()});
        System.out.println("rank " + rank + " node size " + node.getSize());

        // Ranks 1 and 0, in that order, from a group (rank 0 alone on one rank); the others get a null communicator.
        int[] pairRanks = size > 1 ? new int[] {1, 0} : new int[] {0};
        Group pair = worldGroup.incl(pairRanks);
        Intracomm made = MPI.COMM_WORLD.create(pair);
        int[] madeWho = {};
        if (!made.isNull()) {
            madeWho = new int[made.getSize()];
            made.allGather(new int[] {rank}, 1, MPI.INT, madeWho, 1, MPI.INT);
        }
        check(rank, "create", new Object[] {pair.getRank(), made.isNull(), madeWho},
                new Object[] {rank <= 1 ? indexOf(pairRanks, rank) : MPI.UNDEFINED, rank > 1,
                        rank <= 1 ? pairRanks : new int[0]});

        for (Intracomm c : new Intracomm[] {parity, twin, dup, node}) {
            c.free();
        }
        if (!some.isNull()) {
            some.free();
        }
        if (!made.isNull()) {
            made.free();
        }
        for (Group g : new Group[] {nodeGroup, worldGroup, pair}) {
            g.free();
        }
        check(rank, "free", new boolean[] {parity.isNull(), twin.isNull(), dup.isNull(), node.isNull(), some.isNull(),
                made.isNull(), worldGroup.isNull()}, new boolean[] {true, true, true, true, true, true, true});
    }

    static int indexOf(int[] a, int x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** One line per check: the values and "ok", or what was expected instead. */
    static void check(int rank, String what, Object actual, Object expected) {
        String got = Arrays.deepToString(new Object[] {actual});
        String want = Arrays.deepToString(new Object[] {expected});
        System.out.println("rank " + rank + " " + what + " " + got + (got.equals(want) ? " ok" : " MISMATCH, expected " + want));
    }
}
