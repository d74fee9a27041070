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

    /**
     * iGatherv, iScatterv, iAllToAllv and iAllToAllw (decision 0109) all in flight at once, completed in reverse order,
     * at the root and elsewhere: rounds 0 and 1 swap the root's in-place and ordinary forms. Heap arrays, uneven counts
     * (a zero among them), displacements out of rank order; the send arrays are overwritten as soon as the calls
     * return (they were copied when the calls started).
     */
    @Test
    void theVFormsAtTheRootAndElsewhereInFlightTogether() throws Exception {
        for (int round = 0; round < 2; round++) {
            boolean inPlace = round == 1;
            List<Object> results = onRanks((comm, rank) -> {
                int groot = 1;
                int sroot = 2;
                int[] gcounts = {1, 0, 3};
                int[] gdispls = {4, 0, 1};
                int[] mine = new int[gcounts[rank]];
                for (int k = 0; k < mine.length; k++) {
                    mine[k] = 10 * rank + k;
                }
                int[] gathered = new int[6];
                Request g;
                if (rank != groot) {
                    g = comm.iGatherv(IntBuffer.wrap(mine), mine.length, MPI.INT, groot);
                } else if (inPlace) {
                    g = comm.iGatherv(IntBuffer.wrap(gathered), gcounts, gdispls, MPI.INT, groot); // own block: none
                } else {
                    g = comm.iGatherv(IntBuffer.wrap(mine), mine.length, MPI.INT, IntBuffer.wrap(gathered), gcounts,
                            gdispls, MPI.INT, groot);
                }
                int[] scounts = {3, 1, 2};
                int[] sdispls = {3, 0, 1};
                int[] all = {100, 101, 102, 103, 104, 105};
                int[] piece = new int[scounts[rank]];
                Request s;
                if (rank != sroot) {
                    s = comm.iScatterv(IntBuffer.wrap(piece), piece.length, MPI.INT, sroot);
                } else if (inPlace) {
                    s = comm.iScatterv(IntBuffer.wrap(all), scounts, sdispls, MPI.INT, sroot);
                } else {
                    s = comm.iScatterv(IntBuffer.wrap(all), scounts, sdispls, MPI.INT, IntBuffer.wrap(piece),
                            piece.length, MPI.INT, sroot);
                }
                // Rank i sends (i + j) % 3 ints to rank j, packed; receives in reverse rank order.
                int[] vsc = new int[RANKS];
                int[] vsd = new int[RANKS];
                int[] vrc = new int[RANKS];
                int[] vrd = new int[RANKS];
                int sendAll = 0;
                for (int j = 0; j < RANKS; j++) {
                    vsc[j] = (rank + j) % RANKS;
                    vsd[j] = sendAll;
                    sendAll += vsc[j];
                    vrc[j] = (j + rank) % RANKS;
                }
                for (int j = RANKS - 1, at = 0; j >= 0; at += vrc[j], j--) {
                    vrd[j] = at;
                }
                int[] vsend = new int[sendAll];
                for (int j = 0; j < RANKS; j++) {
                    for (int k = 0; k < vsc[j]; k++) {
                        vsend[vsd[j] + k] = 100 * rank + 10 * j + k;
                    }
                }
                int[] vrecv = new int[sendAll + 1];
                Request a = comm.iAllToAllv(IntBuffer.wrap(vsend), vsc, vsd, MPI.INT, IntBuffer.wrap(vrecv), vrc, vrd,
                        MPI.INT);
                // iAllToAllw: the same exchange in bytes of INT, displacements in bytes.
                int[] wsd = new int[RANKS];
                int[] wrd = new int[RANKS];
                for (int j = 0; j < RANKS; j++) {
                    wsd[j] = 4 * vsd[j];
                    wrd[j] = 4 * vrd[j];
                }
                Datatype[] ints = {MPI.INT, MPI.INT, MPI.INT};
                int[] wrecv = new int[sendAll + 1];
                Request w = comm.iAllToAllw(IntBuffer.wrap(vsend.clone()), vsc, wsd, ints, IntBuffer.wrap(wrecv), vrc,
                        wrd, ints);
                java.util.Arrays.fill(mine, -1);
                java.util.Arrays.fill(vsend, -1);
                if (rank != sroot || !inPlace) {
                    java.util.Arrays.fill(all, -1);
                }
                Request[] rs = {g, s, a, w};
                for (int i = rs.length - 1; i >= 0; i--) {
                    rs[i].waitFor();
                    assertTrue(rs[i].isNull());
                }
                return new int[][] {gathered, piece, vrecv, wrecv, all};
            });
            for (int rank = 0; rank < RANKS; rank++) {
                int[][] got = (int[][]) results.get(rank);
                String where = "rank " + rank + (inPlace ? " (roots in place)" : "");
                assertArrayEquals(rank == 1 ? new int[] {0, 20, 21, 22, 0, 0} : new int[6], got[0], where + ": gatherv");
                int[] piece = switch (rank) {
                    case 0 -> new int[] {103, 104, 105};
                    case 1 -> new int[] {100};
                    default -> inPlace ? new int[2] : new int[] {101, 102};
                };
                assertArrayEquals(piece, got[1], where + ": scatterv");
                if (rank == 2 && inPlace) {
                    assertArrayEquals(new int[] {100, 101, 102, 103, 104, 105}, got[4], where + ": the root's data");
                }
                int[] expected = new int[got[2].length];
                for (int i = RANKS - 1, at = 0; i >= 0; i--) {
                    int c = (i + rank) % RANKS;
                    for (int k = 0; k < c; k++) {
                        expected[at + k] = 100 * i + 10 * rank + k;
                    }
                    at += c;
                }
                assertArrayEquals(expected, got[2], where + ": allToAllv");
                assertArrayEquals(expected, got[3], where + ": allToAllw");
            }
        }
    }

    /** A rank that sends another count than the root expects fails every rank's iGatherv, not only the root's. */
    @Test
    void aCountDisagreementInIGathervFailsEveryRank() throws Exception {
        List<Object> results = onRanks((comm, rank) -> {
            int[] counts = {1, 1, 1};
            int send = rank == 2 ? 2 : 1; // rank 2 sends one element too many
            Request r = rank == 0
                    ? comm.iGatherv(IntBuffer.wrap(new int[2]), send, MPI.INT, IntBuffer.wrap(new int[3]), counts,
                    new int[] {0, 1, 2}, MPI.INT, 0)
                    : comm.iGatherv(IntBuffer.wrap(new int[2]), send, MPI.INT, 0);
            try {
                r.waitFor();
                return -1;
            } catch (MPIException e) {
                assertTrue(e.getMessage().contains("count mismatch") || e.getMessage().contains("mismatch"),
                        e.getMessage());
                return e.getErrorClass();
            }
        });
        for (int rank = 0; rank < RANKS; rank++) {
            assertEquals(MPI.ERR_OTHER, results.get(rank), "rank " + rank);
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
