import java.nio.DoubleBuffer;
import java.util.Arrays;

import mpi.*;

/** Broadcast, reductions, gathers on arrays with counts and on a direct buffer, as a user of Open MPI's mpi.jar writes them. */
public class Collectives {
    public static void main(String[] args) throws Exception {
        DoubleBuffer grid = MPI.newDoubleBuffer(4); // made before Init, as the bindings allow
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();

        int[] params = new int[5];
        if (rank == 1) {
            params[0] = 7; params[1] = 8; params[2] = 9; params[3] = 10; params[4] = 11;
        }
        MPI.COMM_WORLD.bcast(params, 3, MPI.INT, 1);   // only the first 3 move
        System.out.println("rank " + rank + " bcast " + Arrays.toString(params));

        int[] mine = {rank, rank * 10, 1000};
        int[] sum = new int[3];
        MPI.COMM_WORLD.allReduce(mine, sum, 2, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " int sum " + Arrays.toString(sum));

        double[] x = {rank + 0.5, -rank};
        double[] max = new double[2];
        MPI.COMM_WORLD.allReduce(x, max, 2, MPI.DOUBLE, MPI.MAX);
        System.out.println("rank " + rank + " double max " + Arrays.toString(max));

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
        System.out.println("rank " + rank + " buffer sum " + Arrays.toString(g));

        int[] gathered = new int[2 * size];
        MPI.COMM_WORLD.gather(new int[] {rank, -rank}, 2, MPI.INT, gathered, 2, MPI.INT, 0);
        if (rank == 0) {
            System.out.println("rank 0 gather " + Arrays.toString(gathered));
        }

        long[] everyone = new long[size];
        everyone[rank] = 1L << (rank + 32);
        MPI.COMM_WORLD.allGather(everyone, 1, MPI.LONG);   // in place
        System.out.println("rank " + rank + " allGather " + Arrays.toString(everyone));

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
        System.out.println("rank " + rank + " allGatherv " + Arrays.toString(allV));

        // gatherv to rank 2, in place there: rank i's i+1 ints at element 3i.
        int[] gdispls = new int[size];
        for (int i = 0; i < size; i++) {
            gdispls[i] = 3 * i;
        }
        int[] mineG = new int[rank + 1];
        for (int j = 0; j <= rank; j++) {
            mineG[j] = 100 * rank + j;
        }
        int groot = size - 1;
        if (rank == groot) {
            int[] gv = new int[3 * size];
            Arrays.fill(gv, -1);
            System.arraycopy(mineG, 0, gv, gdispls[rank], rank + 1);
            MPI.COMM_WORLD.gatherv(gv, counts, gdispls, MPI.INT, groot);
            System.out.println("rank " + rank + " gatherv " + Arrays.toString(gv));
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
        System.out.println("rank " + rank + " allToAllv " + Arrays.toString(got));

        short[] out = new short[size];
        short[] in = new short[size];
        for (int j = 0; j < size; j++) {
            out[j] = (short) (rank * 10 + j);
        }
        MPI.COMM_WORLD.allToAll(out, 1, MPI.SHORT, in, 1, MPI.SHORT);
        System.out.println("rank " + rank + " allToAll " + Arrays.toString(in));

        // reduce to the last rank (a root other than 0): sums of (r+1, r*r); the others pass no receive buffer
        int last = size - 1;
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
        MPI.COMM_WORLD.reduce(maxIn, 2, MPI.DOUBLE, MPI.MAX, 1);
        double[] maxOut = {maxIn.get(0), maxIn.get(1)};
        check(rank, "reduce in place", maxOut, rank == 1 ? new double[] {last * 1.5, 0} : new double[] {rank * 1.5, -rank});

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
        if (rank == 1) {
            toScatter = new int[2 * size];
            for (int i = 0; i < 2 * size; i++) {
                toScatter[i] = 10 * (i / 2) + i % 2;
            }
        }
        int[] sc = new int[2];
        MPI.COMM_WORLD.scatter(toScatter, 2, MPI.INT, sc, 2, MPI.INT, 1);
        check(rank, "scatter", sc, new int[] {10 * rank, 10 * rank + 1});
        long[] scIn = rank == 0 ? new long[size] : new long[] {-1};
        if (rank == 0) {
            for (int i = 0; i < size; i++) {
                scIn[i] = 7L * i + 1;
            }
        }
        MPI.COMM_WORLD.scatter(scIn, 1, MPI.LONG, 0);
        check(rank, "scatter in place", new long[] {scIn[0]}, new long[] {7L * rank + 1});

        // scatterv from the last rank, in place there: rank i gets i+1 ints from element 3i (100i + j)
        int[] sv = new int[rank + 1];
        if (rank == last) {
            int[] all = new int[3 * size];
            Arrays.fill(all, -1);
            for (int i = 0; i < size; i++) {
                for (int j = 0; j <= i; j++) {
                    all[3 * i + j] = 100 * i + j;
                }
            }
            MPI.COMM_WORLD.scatterv(all, counts, gdispls, MPI.INT, last);
            System.arraycopy(all, 3 * rank, sv, 0, rank + 1);
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
        System.out.println("rank " + rank + " provided " + provided + " threads " + totals[0] + " " + totals[1]);

        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    /** One line per check: the values and "ok", or what was expected instead. */
    static void check(int rank, String what, Object actual, Object expected) {
        String got = Arrays.deepToString(new Object[] {actual});
        String want = Arrays.deepToString(new Object[] {expected});
        System.out.println("rank " + rank + " " + what + " " + got + (got.equals(want) ? " ok" : " MISMATCH, expected " + want));
    }
}
