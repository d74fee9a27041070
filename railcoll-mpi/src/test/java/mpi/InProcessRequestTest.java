package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests over railcoll's own non-blocking collectives on 3 real ranks in this JVM ({@link InProcessComms}).
 * Processes and launchers: {@code MpiProgramsSystemTest}.
 */
class InProcessRequestTest {
    private static final int RANKS = 3;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init(); // MPI.check() passes; the communicators below are this test's own
    }

    private static List<Object> onRanks(InProcessComms.RankBody body) throws Exception {
        return InProcessComms.onRanks(RANKS, body);
    }

    @Test
    void overlapHeapBuffersAndArraysOfRequests() throws Exception {
        List<Object> results = onRanks((comm, rank) -> {
            int n = 10_000;
            int[] mine = new int[n];
            for (int i = 0; i < n; i++) {
                mine[i] = rank * n + i;
            }
            int[] sum = new int[n];
            Request r = comm.iAllReduce(IntBuffer.wrap(mine), IntBuffer.wrap(sum), n, MPI.INT, MPI.SUM);
            mine[0] = -1; // taken at the start
            int tests = 0;
            while (!r.test()) {
                tests++;
            }
            int[] gathered = new int[RANKS];
            int[] scanned = new int[1];
            int[] reduced = {rank + 1};
            Request[] rs = {
                    comm.iAllGather(IntBuffer.wrap(new int[] {10 * rank}), 1, MPI.INT, IntBuffer.wrap(gathered), 1,
                            MPI.INT),
                    comm.iScan(IntBuffer.wrap(new int[] {rank + 1}), IntBuffer.wrap(scanned), 1, MPI.INT, MPI.SUM),
                    comm.iReduce(IntBuffer.wrap(reduced), 1, MPI.INT, MPI.PROD, 1),
                    Request.of(comm, "ibarrier", ((RailcollBackend) comm.backendForFinalize()).communicator().ibarrier())};
            int[] order = new int[rs.length];
            int k = 0;
            while (k < rs.length) {
                for (int i : Request.waitSome(rs)) {
                    order[k++] = i;
                }
            }
            return new int[] {sum[0], sum[n - 1], gathered[0], gathered[1], gathered[2], scanned[0], reduced[0],
                    rs[3].isNull() ? 1 : 0, tests >= 0 ? 1 : 0};
        });
        int n = 10_000;
        for (int rank = 0; rank < RANKS; rank++) {
            int expectedReduced = rank == 1 ? 6 : rank + 1; // PROD of 1, 2, 3 at root 1; the others' buffers untouched
            assertArrayEquals(new int[] {3 * n, 3 * n + 3 * (n - 1), 0, 10, 20, (rank + 1) * (rank + 2) / 2,
                    expectedReduced, 1, 1}, (int[]) results.get(rank), "rank " + rank);
        }
    }

    @Test
    void aNonCommutativeUserOpOnAnOddSizedTypeIsFoldedInRankOrder() throws Exception {
        List<Object> results = onRanks((comm, rank) -> {
            Datatype triple = Datatype.createContiguous(3, MPI.INT);
            triple.commit();
            Op upper = new Op(new UserFunction() {
                @Override
                public void call(Object in, Object inOut, int count, Datatype type) {
                    int[] x = (int[]) in;
                    int[] y = (int[]) inOut;
                    int a = x[0] * y[0];
                    int b = x[0] * y[1] + x[1] * y[2];
                    int c = x[2] * y[2];
                    y[0] = a;
                    y[1] = b;
                    y[2] = c;
                }
            }, false);
            int[] t = {rank + 1, rank + 2, rank + 3};
            int[] all = new int[3];
            int[] prefix = new int[3];
            Request[] rs = {comm.iAllReduce(IntBuffer.wrap(t), IntBuffer.wrap(all), 1, triple, upper),
                    comm.iExScan(IntBuffer.wrap(t), IntBuffer.wrap(prefix), 1, triple, upper)};
            Request.waitAll(rs);
            return new int[][] {all, prefix};
        });
        int[] p = {1, 0, 1};
        List<int[]> below = new ArrayList<>();
        for (int i = 0; i < RANKS; i++) {
            below.add(p.clone());
            p = new int[] {p[0] * (i + 1), p[0] * (i + 2) + p[1] * (i + 3), p[2] * (i + 3)};
        }
        for (int rank = 0; rank < RANKS; rank++) {
            int[][] got = (int[][]) results.get(rank);
            assertArrayEquals(p, got[0], "rank " + rank);
            assertArrayEquals(rank == 0 ? new int[3] : below.get(rank), got[1], "rank " + rank); // rank 0's untouched
        }
    }

    @Test
    void aFailedPeerFailsTheRequestThroughTheHandler() throws Exception {
        List<Object> results = onRanks((comm, rank) -> {
            // Every rank past start-up first. Without this barrier the class failed about one run in two: ranks 0 and
            // 1 got their deadline (ERR_OTHER) instead of the closed peer. Cause not found yet (noted in issue 23); a
            // peer that closes while the others are still starting is the suspect, not what this test is about.
            comm.barrier();
            if (rank == 2) {
                return 0; // leaves: its communicator closes, the others' requests fail
            }
            Request r = comm.iAllReduce(IntBuffer.wrap(new int[] {1}), 1, MPI.INT, MPI.SUM);
            try {
                r.waitFor();
                return -1;
            } catch (MPIException e) {
                assertTrue(r.isNull());
                return e.getErrorClass();
            }
        });
        assertEquals(MPI.ERR_PROC_ABORTED, results.get(0));
        assertEquals(MPI.ERR_PROC_ABORTED, results.get(1));
    }
}
