package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The calls decision 0150 made inline on the reusable call (scan, exScan, allToAll, allGatherv and the non-blocking
 * iAllReduce and iBcast, whose requests reuse finished requests' staging) give the right results when a loop repeats
 * them with changing counts, arrays and direct buffers, on 3 real ranks ({@link InProcessComms}).
 */
class InlineCallsReuseTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void repeatedCallsWithChangingCountsGiveTheRightResults() throws Exception {
        int n = 3;
        List<Object> got = InProcessComms.onRanks(n, (comm, rank) -> {
            List<String> out = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                // allGatherv, uneven counts that change each round: rank r sends r + round + 1 ints
                int[] counts = new int[n];
                int[] displs = new int[n];
                int total = 0;
                for (int r = 0; r < n; r++) {
                    counts[r] = r + round + 1;
                    displs[r] = total;
                    total += counts[r];
                }
                int[] mine = new int[counts[rank]];
                Arrays.fill(mine, 10 * rank + round);
                int[] all = new int[total];
                comm.allGatherv(mine, mine.length, MPI.INT, all, counts, displs, MPI.INT);
                int[] inPlace = new int[total];
                Arrays.fill(inPlace, displs[rank], displs[rank] + counts[rank], 10 * rank + round);
                comm.allGatherv(inPlace, counts, displs, MPI.INT);
                // scan and exScan of an array, allToAll of a direct buffer
                int[] prefix = new int[1];
                comm.scan(new int[] {rank + round}, prefix, 1, MPI.INT, MPI.SUM);
                int[] before = {-1};
                comm.exScan(new int[] {rank + round}, before, 1, MPI.INT, MPI.SUM);
                IntBuffer send = MPI.newIntBuffer(n);
                IntBuffer recv = MPI.newIntBuffer(n);
                for (int r = 0; r < n; r++) {
                    send.put(r, 100 * rank + r + round);
                }
                comm.allToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
                // iAllReduce on an int[]-backed heap buffer (staged) and iBcast on a direct one, waited in turn
                IntBuffer sum = IntBuffer.wrap(new int[1]);
                Request r1 = comm.iAllReduce(IntBuffer.wrap(new int[] {rank + round}), sum, 1, MPI.INT, MPI.SUM);
                IntBuffer b = MPI.newIntBuffer(2);
                if (rank == 1) {
                    b.put(0, 7 + round).put(1, 8 + round);
                }
                Request r2 = comm.iBcast(b, 2, MPI.INT, 1);
                r2.waitFor();
                r1.waitFor();
                out.add(Arrays.toString(all) + Arrays.toString(inPlace) + prefix[0] + "," + before[0] + ","
                        + recv.get(0) + "," + recv.get(1) + "," + recv.get(2) + "," + sum.get(0) + "," + b.get(0) + ","
                        + b.get(1));
            }
            return String.join(";", out);
        });
        for (int rank = 0; rank < n; rank++) {
            List<String> expected = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                List<Integer> all = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    for (int i = 0; i < r + round + 1; i++) {
                        all.add(10 * r + round);
                    }
                }
                int prefix = 0;
                for (int r = 0; r <= rank; r++) {
                    prefix += r + round;
                }
                int exclusive = rank == 0 ? -1 : prefix - (rank + round);
                String gathered = all.toString();
                expected.add(gathered + gathered + prefix + "," + exclusive + "," + (rank + round) + ","
                        + (100 + rank + round) + "," + (200 + rank + round) + "," + (3 + 3 * round) + "," + (7 + round)
                        + "," + (8 + round));
            }
            assertEquals(String.join(";", expected), got.get(rank), "rank " + rank);
        }
    }
}
