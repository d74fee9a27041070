package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The point-to-point methods of {@link Comm} on a one-rank job (messages to itself): every send mode and its i-form,
 * receives with wildcards, statuses and their counts, probes, PROC_NULL, sendRecvReplace, the attached buffer of
 * buffered sends, truncation and the refusals, each with the error class MPI gives it. Many ranks:
 * {@code MpiProgramsSystemTest}'s PointToPoint and Ring programs.
 */
class PointToPointSelfTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void everySendModeReachesAReceiveWithItsStatus() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int[] in = {1, 2, 3, 4, 5};
        w.send(in, 5, MPI.INT, 0, 1);
        w.rSend(new int[] {6, 7}, 2, MPI.INT, 0, 2);
        int[] out = new int[8];
        Status s = w.recv(out, 8, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        assertEquals(0, s.getSource());
        assertEquals(1, s.getTag());
        assertEquals(5, s.getCount(MPI.INT));
        assertEquals(5, s.getElements(MPI.INT));
        assertEquals(20, s.getCount(MPI.BYTE));
        assertEquals(MPI.UNDEFINED, s.getCount(MPI.DOUBLE)); // 20 bytes are not whole doubles
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 0, 0, 0}, out);
        s = w.recv(out, 8, MPI.INT, 0, 2);
        assertEquals(2, s.getCount(MPI.INT));
        // A strided type: every other int sent, received contiguous.
        Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
        every2.commit();
        w.send(new int[] {10, -1, 11, -1, 12}, 1, every2, 0, 3);
        int[] three = new int[3];
        assertEquals(3, w.recv(three, 3, MPI.INT, 0, 3).getCount(MPI.INT));
        assertArrayEquals(new int[] {10, 11, 12}, three);
        every2.free();
        // Synchronous: a receive posted first, then sSend finishes.
        IntBuffer into = MPI.newIntBuffer(2);
        Request r = w.iRecv(into, 2, MPI.INT, 0, 4);
        assertFalse(r.test());
        w.sSend(new int[] {8, 9}, 2, MPI.INT, 0, 4);
        Status rs = r.waitStatus();
        assertEquals(4, rs.getTag());
        assertEquals(8, into.get(0));
        assertEquals(9, into.get(1));
        assertTrue(r.isNull());
    }

    @Test
    void nonBlockingFormsProbesAndProcNull() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        assertNull(w.iProbe(0, 7));
        IntBuffer a = MPI.newIntBuffer(3).put(0, 1).put(1, 2).put(2, 3);
        Request s1 = w.iSend(a, 3, MPI.INT, 0, 7);
        Request s2 = w.irSend(a, 1, MPI.INT, 0, 8);
        Request.waitAll(new Request[] {s1, s2});
        Status p = w.iProbe(MPI.ANY_SOURCE, 8);
        assertEquals(8, p.getTag());
        assertEquals(1, p.getCount(MPI.INT));
        assertEquals(7, w.probe(0, MPI.ANY_TAG).getTag()); // the earliest message
        ByteBuffer b = MPI.newByteBuffer(12);
        Request r = w.iRecv(b, 12, MPI.BYTE, 0, 7);
        assertEquals(12, r.waitStatus().getCount(MPI.BYTE));
        assertEquals(3, b.order(java.nio.ByteOrder.nativeOrder()).getInt(8));
        int[] one = new int[1];
        w.recv(one, 1, MPI.INT, 0, 8);
        assertEquals(1, one[0]);
        // PROC_NULL: sends vanish, receives finish at once with nothing.
        w.send(one, 1, MPI.INT, MPI.PROC_NULL, 0);
        Status n = w.recv(one, 1, MPI.INT, MPI.PROC_NULL, 0);
        assertEquals(MPI.PROC_NULL, n.getSource());
        assertEquals(MPI.ANY_TAG, n.getTag());
        assertEquals(0, n.getCount(MPI.INT));
        assertEquals(MPI.PROC_NULL, w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.PROC_NULL, 0).waitStatus().getSource());
        assertEquals(MPI.PROC_NULL, w.probe(MPI.PROC_NULL, 3).getSource());
        // A cancelled receive.
        Request never = w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 99);
        never.cancel();
        assertTrue(never.waitStatus().isCancelled());
    }

    @Test
    void sendRecvAndReplace() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        double[] out = new double[2];
        Status s = w.sendRecv(new double[] {1.5, 2.5}, 2, MPI.DOUBLE, 0, 5, out, 2, MPI.DOUBLE, 0, 5);
        assertEquals(2, s.getCount(MPI.DOUBLE));
        assertArrayEquals(new double[] {1.5, 2.5}, out);
        long[] buf = {7, 8, 9};
        s = w.sendRecvReplace(buf, 3, MPI.LONG, 0, 6, 0, 6);
        assertEquals(3, s.getCount(MPI.LONG));
        assertArrayEquals(new long[] {7, 8, 9}, buf);
        // With PROC_NULL on one side.
        s = w.sendRecv(new int[] {1}, 1, MPI.INT, MPI.PROC_NULL, 0, new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
        assertEquals(MPI.PROC_NULL, s.getSource());
    }

    @Test
    void bufferedSendsTakeRoomOfTheAttachedBuffer() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        assertNull(MPI.detachBuffer());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class,
                () -> w.bSend(new int[1], 1, MPI.INT, 0, 0)).getErrorClass());
        byte[] room = new byte[MPI.BSEND_OVERHEAD + 8]; // one message of 2 ints at a time
        MPI.attachBuffer(room);
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, () -> MPI.attachBuffer(new byte[4])).getErrorClass());
        w.bSend(new int[] {1, 2}, 2, MPI.INT, 0, 11);
        Request r = w.ibSend(MPI.newIntBuffer(2).put(0, 3).put(1, 4), 2, MPI.INT, 0, 12);
        assertTrue(r.test());
        // Alone, each send finished at once and gave its room back; 3 ints need more than there is.
        MPIException full = assertThrows(MPIException.class, () -> w.bSend(new int[3], 3, MPI.INT, 0, 13));
        assertEquals(MPI.ERR_BUFFER, full.getErrorClass());
        int[] got = new int[2];
        w.recv(got, 2, MPI.INT, 0, 11);
        assertArrayEquals(new int[] {1, 2}, got);
        w.recv(got, 2, MPI.INT, 0, 12);
        assertArrayEquals(new int[] {3, 4}, got);
        assertSame(room, MPI.detachBuffer());
    }

    @Test
    void truncationAndRefusalsHaveMpisErrorClasses() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.send(new int[] {1, 2, 3}, 3, MPI.INT, 0, 20);
        int[] two = new int[2];
        MPIException t = assertThrows(MPIException.class, () -> w.recv(two, 2, MPI.INT, 0, 20));
        assertEquals(MPI.ERR_TRUNCATE, t.getErrorClass());
        assertArrayEquals(new int[] {1, 2}, two, "the elements that fit were received");
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> w.send(two, 1, MPI.INT, 1, 0)).getErrorClass());
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> w.recv(two, 1, MPI.INT, 3, 0)).getErrorClass());
        assertEquals(MPI.ERR_TAG, assertThrows(MPIException.class, () -> w.send(two, 1, MPI.INT, 0, -5)).getErrorClass());
        assertEquals(MPI.ERR_TAG, assertThrows(MPIException.class, () -> w.recv(two, 1, MPI.INT, 0, -5)).getErrorClass());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class, () -> w.send(two, -1, MPI.INT, 0, 0)).getErrorClass());
        // Alone, a receive nothing can match ends at once instead of waiting forever.
        MPIException never = assertThrows(MPIException.class, () -> w.recv(two, 1, MPI.INT, 0, 21));
        assertTrue(never.getMessage().contains("wait forever"), never.getMessage());
        // That receive failed: it is no longer posted, so a later message of its tag reaches the next receive.
        w.send(new int[] {7}, 1, MPI.INT, 0, 21);
        assertEquals(1, w.recv(two, 1, MPI.INT, 0, 21).getCount(MPI.INT));
        assertEquals(7, two[0]);
    }
}
