package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MPI_Cancel on two real ranks (decision 0224). Point-to-point: a cancel is a request, not a promise (MPI 3.1 §3.8.4):
 * either the operation is cancelled (its status says so, a receive received nothing) or it completes normally, and
 * the cancel itself is no error. A receive no message matched is cancelled; a receive a message matched already, and
 * a send, complete normally (Open MPI's ob1 cancels no send either). Collectives: MPI makes cancel of a non-blocking
 * collective erroneous and Open MPI's libnbc answers {@code MPI_ERR_REQUEST}; so does railcoll-mpi, and the
 * collective still completes.
 */
class CancelOnRanksTest {
    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void aCancelledSendOrMatchedReceiveCompletesNormally() throws Exception {
        InProcessComms.onRanks(2, (comm, rank) -> {
            if (rank == 0) {
                IntBuffer out = MPI.newIntBuffer(3).put(0, 11).put(1, 12).put(2, 13);
                Request send = comm.iSend(out, 3, MPI.INT, 1, 5);
                send.cancel(); // no error: a send may complete normally instead
                Status s = send.waitStatus();
                assertFalse(s.isCancelled(), "railcoll cancels no send, so the send completed");
                comm.send(new int[] {99}, 1, MPI.INT, 1, 6);
                Prequest p = comm.sendInit(out, 3, MPI.INT, 1, 7);
                p.start();
                p.cancel();
                assertFalse(p.waitStatus().isCancelled());
                p.free();
            } else {
                IntBuffer in = MPI.newIntBuffer(3);
                Request recv = comm.iRecv(in, 3, MPI.INT, 0, 5);
                // Non-overtaking: once tag 6 (sent after tag 5) is here, tag 5 has matched the posted receive.
                int[] later = new int[1];
                comm.recv(later, 1, MPI.INT, 0, 6);
                recv.cancel(); // too late to cancel: no error, the receive completes normally
                Status s = recv.waitStatus();
                assertFalse(s.isCancelled());
                assertEquals(0, s.getSource());
                assertEquals(5, s.getTag());
                assertEquals(3, s.getCount(MPI.INT));
                int[] got = new int[3];
                in.get(0, got);
                assertArrayEquals(new int[] {11, 12, 13}, got);
                int[] persistent = new int[3];
                comm.recv(persistent, 3, MPI.INT, 0, 7);
                assertArrayEquals(new int[] {11, 12, 13}, persistent);
            }
            return null;
        });
    }

    @Test
    void aReceiveNoMessageMatchedIsCancelledAndACollectiveIsNot() throws Exception {
        InProcessComms.onRanks(2, (comm, rank) -> {
            IntBuffer in = MPI.newIntBuffer(2).put(0, -1).put(1, -1);
            Request never = comm.iRecv(in, 2, MPI.INT, 1 - rank, 40);
            never.cancel();
            Status s = never.waitStatus();
            assertTrue(s.isCancelled());
            assertTrue(never.isNull());
            assertEquals(-1, in.get(0));
            Request barrier = comm.iBarrier();
            MPIException e = assertThrows(MPIException.class, barrier::cancel);
            assertEquals(MPI.ERR_REQUEST, e.getErrorClass());
            assertFalse(barrier.isNull(), "a refused cancel leaves the request as it was");
            assertFalse(barrier.waitStatus().isCancelled());
            return null;
        });
    }
}
