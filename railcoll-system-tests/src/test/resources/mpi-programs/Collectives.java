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
}
