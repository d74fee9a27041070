package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Matched probes and persistent point-to-point between 3 real ranks in this JVM ({@link InProcessComms}), over
 * railcoll-core's messages: a message bound by {@code mProbe} is out of reach of a receive posted after it, sizes learnt
 * by probe, truncation, and persistent requests around a ring restarted with new contents. Processes and launchers:
 * {@code MpiProgramsSystemTest}'s PointToPoint program.
 */
class InProcessPointToPointTest {
    private static final int RANKS = 3;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void matchedProbesAcrossRanks() throws Exception {
        List<Object> results = InProcessComms.onRanks(RANKS, (comm, rank) -> {
            if (rank != 0) {
                for (int k = 0; k < 2; k++) { // sizes rank+1 and rank+3, contents naming sender and message
                    int[] v = new int[rank + 1 + 2 * k];
                    java.util.Arrays.fill(v, 10 * rank + k);
                    comm.send(v, v.length, MPI.INT, 0, 5);
                }
                if (rank == 1) {
                    comm.send(new int[] {100}, 1, MPI.INT, 0, 6);
                    comm.send(new int[] {200}, 1, MPI.INT, 0, 6);
                    comm.send(new int[] {1, 2, 3}, 3, MPI.INT, 0, 8);
                } else {
                    comm.send(new int[] {7}, 1, MPI.INT, 0, 7);
                }
                comm.barrier();
                return 0;
            }
            int[] per = new int[RANKS];
            for (int k = 0; k < 4; k++) { // the size from the probe, the very message received
                Message m = new Message();
                Status s = m.mProbe(MPI.ANY_SOURCE, 5, comm);
                int[] got = new int[s.getCount(MPI.INT)];
                Status r = m.mRecv(got, got.length, MPI.INT);
                int from = s.getSource();
                assertEquals(from, r.getSource());
                assertEquals(from + 1 + 2 * per[from], got.length, "message " + per[from] + " from rank " + from);
                for (int x : got) {
                    assertEquals(10 * from + per[from], x);
                }
                per[from]++;
            }
            // Bound to m, message 100 cannot be taken by a receive posted after the probe: that one gets 200.
            Message m = new Message();
            m.mProbe(1, 6, comm);
            IntBuffer other = MPI.newIntBuffer(1);
            Request later = comm.iRecv(other, 1, MPI.INT, 1, 6);
            later.waitFor();
            int[] first = new int[1];
            m.mRecv(first, 1, MPI.INT);
            // imProbe until rank 2's message is there, then imRecv it.
            Status s;
            while ((s = m.imProbe(2, MPI.ANY_TAG, comm)) == null) {
                Thread.onSpinWait();
            }
            IntBuffer seven = MPI.newIntBuffer(1);
            m.imRecv(seven, 1, MPI.INT).waitFor();
            // Too long: ERR_TRUNCATE, the elements that fit received.
            m.mProbe(1, 8, comm);
            int[] two = new int[2];
            int truncated = 0;
            try {
                m.mRecv(two, 2, MPI.INT);
            } catch (MPIException e) {
                truncated = e.getErrorClass();
            }
            comm.barrier();
            return new int[] {per[1], per[2], first[0], other.get(0), s.getTag(), seven.get(0), truncated, two[0],
                    two[1], m.isNull() ? 1 : 0};
        });
        assertArrayEquals(new int[] {2, 2, 100, 200, 7, 7, MPI.ERR_TRUNCATE, 1, 2, 1}, (int[]) results.get(0));
    }

    @Test
    void persistentRequestsAroundARing() throws Exception {
        List<Object> results = InProcessComms.onRanks(RANKS, (comm, rank) -> {
            int next = (rank + 1) % RANKS;
            int prev = (rank + RANKS - 1) % RANKS;
            IntBuffer out = MPI.newIntBuffer(2);
            IntBuffer in = MPI.newIntBuffer(2);
            IntBuffer syncIn = MPI.newIntBuffer(1);
            Prequest[] ring = {comm.recvInit(in, 2, MPI.INT, prev, 1), comm.sendInit(out, 2, MPI.INT, next, 1)};
            Prequest syncRecv = comm.recvInit(syncIn, 1, MPI.INT, MPI.ANY_SOURCE, 2);
            Prequest syncSend = comm.sSendInit(out, 1, MPI.INT, next, 2);
            int sum = 0;
            for (int round = 0; round < 6; round++) {
                out.put(0, 1000 * round + rank).put(1, -round);
                Prequest.startAll(ring);
                Request.waitAll(ring);
                assertEquals(1000 * round + prev, in.get(0), "rank " + rank + " round " + round);
                assertEquals(-round, in.get(1));
                syncRecv.start();
                syncSend.start();
                Status st = Request.waitAllStatus(new Request[] {syncRecv, syncSend})[0];
                assertEquals(prev, st.getSource());
                sum += syncIn.get(0);
            }
            for (Prequest p : new Prequest[] {ring[0], ring[1], syncRecv, syncSend}) {
                p.free();
            }
            return sum;
        });
        for (int rank = 0; rank < RANKS; rank++) {
            int prev = (rank + RANKS - 1) % RANKS;
            assertEquals(1000 * 15 + 6 * prev, results.get(rank), "rank " + rank);
        }
    }
}
