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
 * {@code Prequest.free} of a started request (MPI_Request_free of an active request: it is marked for freeing and its
 * round completes alone; MPI 3.1 §3.7.3). railcoll-mpi frees it at once where its round needs no more work from a wait
 * (a send, a receive landing in place in a direct buffer); a receive copied into a heap buffer needs its wait to
 * deliver, so its free is {@code MPI.ERR_REQUEST} and it stays active and completable (decision 0185).
 */
class FreeActivePersistentTest {
    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    /**
     * A synchronous send freed while in flight, then its communicator freed (MPI_Comm_free: pending operations
     * complete normally, MPI 3.1 §6.4.3): the receiver's acknowledgement must not reach a closed context. Found by the
     * random calls (decision 0224): the late acknowledgement failed the sender's next call on another communicator
     * with {@code MPI_ERR_OTHER: ... sent data ... for communication context ..., which this rank has closed}.
     */
    @Test
    void aCommunicatorFreedAfterAStartedSendWasFreedLetsTheSendFinish() throws Exception {
        InProcessComms.onRanks(2, (world, rank) -> {
            for (int round = 0; round < 20; round++) {
                Intracomm comm = (Intracomm) world.dup();
                if (rank == 0) {
                    IntBuffer out = MPI.newIntBuffer(1).put(0, round);
                    Prequest send = comm.sSendInit(out, 1, MPI.INT, 1, 0);
                    send.start();
                    send.free();
                } else {
                    int[] in = new int[1];
                    comm.recv(in, 1, MPI.INT, 0, 0);
                    assertEquals(round, in[0]);
                }
                comm.free();
                world.barrier(); // the sender's next call: a late acknowledgement would fail it
            }
            return null;
        });
    }

    @Test
    void aStartedRequestFreedCompletesAlone() throws Exception {
        InProcessComms.onRanks(2, (comm, rank) -> {
            if (rank == 0) {
                comm.barrier(); // the receiver's requests are started and freed
                IntBuffer out = MPI.newIntBuffer(2).put(0, 7).put(1, 8);
                Prequest send = comm.sendInit(out, 2, MPI.INT, 1, 3);
                send.start();
                send.free(); // finishes alone
                assertTrue(send.isNull());
                comm.send(new int[] {9, 10}, 2, MPI.INT, 1, 3); // after it: the receiver's second receive
                comm.send(new int[] {11, 12}, 2, MPI.INT, 1, 4);
            } else {
                IntBuffer in = MPI.newIntBuffer(2).put(0, -1).put(1, -1);
                Prequest direct = comm.recvInit(in, 2, MPI.INT, 0, 3);
                direct.start();
                direct.free();
                assertTrue(direct.isNull());
                int[] heap = {-1, -1};
                Prequest copied = comm.recvInit(MPI.slice(heap, 0), 2, MPI.INT, 0, 4);
                copied.start();
                MPIException e = assertThrows(MPIException.class, copied::free);
                assertEquals(MPI.ERR_REQUEST, e.getErrorClass());
                assertFalse(copied.isNull(), "a refused free leaves the request active");
                comm.barrier();
                int[] second = new int[2];
                comm.recv(second, 2, MPI.INT, 0, 3);
                // Non-overtaking: the freed receive, posted first, matched the first message (7, 8).
                assertArrayEquals(new int[] {9, 10}, second);
                Status s = copied.waitStatus();
                assertEquals(4, s.getTag());
                assertArrayEquals(new int[] {11, 12}, heap);
                copied.free();
                long until = System.nanoTime() + 30_000_000_000L;
                while (in.get(0) != 7 || in.get(1) != 8) { // it completes alone: nothing reports when
                    if (System.nanoTime() > until) {
                        throw new AssertionError("the freed receive's data never arrived: " + in.get(0) + ", "
                                + in.get(1));
                    }
                    Thread.onSpinWait();
                }
            }
            return null;
        });
    }
    /**
     * A receive freed in flight that a synchronous send matches: the sender's {@code sSend} must finish though the
     * receiver never waits for that receive and is in a barrier meanwhile (MPI's progress rule), and after the barrier
     * that follows it the buffer holds the message and nothing is left for a later receive. Found by the random calls
     * (decision 0228): railcoll answered a synchronous sender only from a point-to-point call of the receiver, so both
     * ranks waited for each other until the deadline ("synchronous send ... not yet matched by a receive: not done
     * after 30.0 s"). On one node (shared memory) and on two (TCP).
     */
    @Test
    void aFreedReceiveLetsItsSynchronousSenderFinishWhileItsRankIsInABarrier() throws Exception {
        for (int[] nodes : new int[][] {{2}, {1, 1}}) {
            InProcessComms.onNodes(nodes, (comm, rank) -> {
                for (int round = 0; round < 3; round++) {
                    if (rank == 0) {
                        comm.barrier(); // the receive is started and freed
                        comm.sSend(new int[] {round, 40 + round}, 2, MPI.INT, 1, 6);
                        comm.barrier();
                    } else {
                        IntBuffer in = MPI.newIntBuffer(2).put(0, -1).put(1, -1);
                        Prequest r = comm.recvInit(in, 2, MPI.INT, 0, 6);
                        r.start();
                        r.free();
                        assertTrue(r.isNull());
                        comm.barrier();
                        comm.barrier(); // after the sSend finished on rank 0
                        assertArrayEquals(new int[] {round, 40 + round}, new int[] {in.get(0), in.get(1)},
                                "the freed receive's buffer after the barrier");
                        assertEquals(null, comm.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG), "a message left unreceived");
                    }
                }
                return null;
            });
        }
    }
}
