package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Message} (matched probes) and the persistent point-to-point requests ({@code sendInit}, {@code bSendInit},
 * {@code sSendInit}, {@code rSendInit}, {@code recvInit}) on a one-rank job, messages to itself: a matched message
 * is out of every other receive's and probe's reach, PROC_NULL's no-proc message, truncation, the refusals; persistent
 * requests restarted many times with new buffer contents, startAll, cancel and free. Many ranks:
 * {@code InProcessPointToPointTest} and {@code MpiProgramsSystemTest}'s PointToPoint program.
 */
class MatchedAndPersistentSelfTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void aNewMessageIsNullAndItsReceiveIsRefused() throws MPIException {
        Message m = new Message();
        assertTrue(m.isNull());
        assertFalse(m.isNoProc());
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, () -> m.mRecv(new int[1], 1, MPI.INT))
                .getErrorClass());
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class,
                () -> m.imRecv(MPI.newIntBuffer(1), 1, MPI.INT)).getErrorClass());
        assertNull(m.imProbe(0, 77, MPI.COMM_SELF)); // nothing sent: nothing bound
        assertTrue(m.isNull());
    }

    @Test
    void aMatchedMessageIsTakenOutOfMatching() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.send(new int[] {1, 2, 3}, 3, MPI.INT, 0, 5);
        w.send(new int[] {4}, 1, MPI.INT, 0, 5);
        Message m = new Message();
        Status s = m.mProbe(MPI.ANY_SOURCE, 5, w);
        assertFalse(m.isNull());
        assertEquals(0, s.getSource());
        assertEquals(5, s.getTag());
        assertEquals(3, s.getCount(MPI.INT));
        // The first message is bound to m: a probe and a receive with the same source and tag see the second.
        assertEquals(1, w.probe(0, 5).getCount(MPI.INT));
        int[] other = new int[3];
        assertEquals(1, w.recv(other, 3, MPI.INT, 0, MPI.ANY_TAG).getCount(MPI.INT));
        assertEquals(4, other[0]);
        assertNull(w.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
        // Probing again while a message is bound would lose it: refused, and m still holds it.
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, () -> m.mProbe(0, 5, w)).getErrorClass());
        int[] got = new int[3];
        s = m.mRecv(got, 3, MPI.INT);
        assertArrayEquals(new int[] {1, 2, 3}, got);
        assertEquals(3, s.getCount(MPI.INT));
        assertEquals(5, s.getTag());
        assertTrue(m.isNull());
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, () -> m.mRecv(got, 3, MPI.INT)).getErrorClass());
    }

    @Test
    void imProbeAndImRecvOnDirectAndHeapBuffersAndDerivedTypes() throws MPIException {
        Comm self = MPI.COMM_SELF;
        Message m = new Message();
        assertNull(m.imProbe(0, 6, self));
        self.send(new double[] {1.5, 2.5}, 2, MPI.DOUBLE, 0, 6);
        Status s = m.imProbe(0, MPI.ANY_TAG, self);
        assertEquals(2, s.getCount(MPI.DOUBLE));
        java.nio.DoubleBuffer into = MPI.newDoubleBuffer(2);
        Request r = m.imRecv(into, 2, MPI.DOUBLE);
        assertTrue(m.isNull()); // the handle is null once the receive started
        Status done = r.waitStatus();
        assertEquals(2, done.getCount(MPI.DOUBLE));
        assertEquals(2.5, into.get(1));
        // A heap int buffer and a strided receive type: every other element filled, the gaps kept.
        self.send(new int[] {7, 8, 9}, 3, MPI.INT, 0, 7);
        Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
        every2.commit();
        int[] strided = {-1, -1, -1, -1, -1};
        m.mProbe(0, 7, self);
        r = m.imRecv(IntBuffer.wrap(strided), 1, every2);
        r.waitFor();
        assertArrayEquals(new int[] {7, -1, 8, -1, 9}, strided);
        every2.free();
    }

    @Test
    void procNullGivesTheNoProcMessage() throws MPIException {
        Message m = new Message();
        Status s = m.mProbe(MPI.PROC_NULL, 3, MPI.COMM_WORLD);
        assertEquals(MPI.PROC_NULL, s.getSource());
        assertEquals(MPI.ANY_TAG, s.getTag());
        assertTrue(m.isNoProc());
        assertFalse(m.isNull());
        int[] buf = {42};
        s = m.mRecv(buf, 1, MPI.INT);
        assertEquals(MPI.PROC_NULL, s.getSource());
        assertEquals(0, s.getCount(MPI.INT));
        assertEquals(42, buf[0]);
        assertTrue(m.isNull());
        assertFalse(m.isNoProc());
        assertEquals(MPI.PROC_NULL, m.imProbe(MPI.PROC_NULL, MPI.ANY_TAG, MPI.COMM_WORLD).getSource());
        assertTrue(m.isNoProc());
        Status is = m.imRecv(MPI.newIntBuffer(1), 1, MPI.INT).waitStatus();
        assertEquals(MPI.PROC_NULL, is.getSource());
        assertTrue(m.isNull());
    }

    @Test
    void truncationAndRefusals() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Message m = new Message();
        w.send(new int[] {1, 2, 3}, 3, MPI.INT, 0, 8);
        m.mProbe(0, 8, w);
        int[] two = new int[2];
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class, () -> m.mRecv(two, 2, MPI.INT)).getErrorClass());
        assertArrayEquals(new int[] {1, 2}, two); // the elements that fit
        assertTrue(m.isNull()); // the message is consumed by its receive, truncated or not
        assertNull(w.iProbe(0, 8));
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> m.mProbe(1, 0, w)).getErrorClass());
        assertEquals(MPI.ERR_TAG, assertThrows(MPIException.class, () -> m.imProbe(0, -7, w)).getErrorClass());
        // One rank: a matched probe nothing can answer fails at once instead of waiting forever.
        assertEquals(MPI.ERR_OTHER, assertThrows(MPIException.class, () -> m.mProbe(0, 123, w)).getErrorClass());
        assertTrue(m.isNull());
        // A bad receive buffer leaves the message bound, to be received properly.
        w.send(new int[] {5}, 1, MPI.INT, 0, 9);
        m.mProbe(0, 9, w);
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, () -> m.mRecv(new double[1], 1, MPI.INT))
                .getErrorClass());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class, () -> m.mRecv(new int[1], -1, MPI.INT))
                .getErrorClass());
        int[] one = new int[1];
        m.mRecv(one, 1, MPI.INT);
        assertEquals(5, one[0]);
    }

    @Test
    void persistentRequestsReadTheirBuffersAtEachStart() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        IntBuffer out = MPI.newIntBuffer(2);
        IntBuffer in = MPI.newIntBuffer(2);
        Prequest recv = w.recvInit(in, 2, MPI.INT, 0, 11);
        Prequest send = w.sendInit(out, 2, MPI.INT, 0, 11);
        assertFalse(recv.isNull());
        for (int round = 0; round < 5; round++) {
            out.put(0, 10 * round).put(1, 10 * round + 1); // changed between starts: each start sends what is there
            recv.start();
            send.start();
            Status[] st = Request.waitAllStatus(new Request[] {recv, send});
            assertEquals(10 * round, in.get(0), "round " + round);
            assertEquals(10 * round + 1, in.get(1), "round " + round);
            assertEquals(2, st[0].getCount(MPI.INT));
            assertEquals(11, st[0].getTag());
            assertFalse(recv.isNull()); // inactive, not null
        }
        // startAll, the other send modes, a heap array with a derived type read at each start.
        byte[] attached = new byte[4 * (MPI.BSEND_OVERHEAD + 8)];
        MPI.attachBuffer(attached);
        int[] heap = {1, -1, 2};
        Datatype ends = Datatype.createVector(2, 1, 2, MPI.INT);
        ends.commit();
        Prequest b = w.bSendInit(IntBuffer.wrap(heap), 1, ends, 0, 12);
        Prequest r = w.rSendInit(out, 1, MPI.INT, 0, 13);
        Prequest[] all = {b, r, w.recvInit(in, 2, MPI.INT, 0, 12)};
        for (int round = 0; round < 3; round++) {
            heap[0] = round;
            heap[2] = round + 100;
            out.put(0, -round);
            Prequest.startAll(all);
            Request.waitAll(all);
            assertEquals(round, in.get(0));
            assertEquals(round + 100, in.get(1));
            int[] ready = new int[1];
            w.recv(ready, 1, MPI.INT, 0, 13);
            assertEquals(-round, ready[0]);
        }
        assertEquals(attached, MPI.detachBuffer());
        // Synchronous: finished only once the receive matched it.
        Prequest ss = w.sSendInit(out, 1, MPI.INT, 0, 14);
        for (int round = 0; round < 3; round++) {
            Request rr = w.iRecv(in, 1, MPI.INT, 0, 14);
            out.put(0, 500 + round);
            ss.start();
            Request.waitAll(new Request[] {ss, rr});
            assertEquals(500 + round, in.get(0));
        }
        for (Prequest p : new Prequest[] {recv, send, b, r, all[2], ss}) {
            p.free();
            assertTrue(p.isNull());
        }
        ends.free();
    }

    @Test
    void persistentRequestsCancelFreeAndRefusals() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        IntBuffer in = MPI.newIntBuffer(1);
        Prequest recv = w.recvInit(in, 1, MPI.INT, 0, 21);
        recv.start();
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, recv::start).getErrorClass()); // active
        assertFalse(recv.test());
        recv.cancel();
        Status s = recv.waitStatus();
        assertTrue(s.isCancelled());
        // Restartable after the cancelled round.
        recv.start();
        w.send(new int[] {9}, 1, MPI.INT, 0, 21);
        assertEquals(1, recv.waitStatus().getCount(MPI.INT));
        assertEquals(9, in.get(0));
        recv.free();
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, recv::start).getErrorClass()); // freed
        recv.free(); // freeing a null request does nothing
        // Freed in flight (MPI_Request_free): null at once, the round finishes alone into the direct buffer.
        IntBuffer alone = MPI.newIntBuffer(1);
        Prequest leftAlone = w.recvInit(alone, 1, MPI.INT, 0, 23);
        leftAlone.start();
        leftAlone.free();
        assertTrue(leftAlone.isNull());
        w.send(new int[] {31}, 1, MPI.INT, 0, 23);
        assertEquals(31, alone.get(0));
        // A receive copied into a heap buffer cannot be left alone (its wait delivers it): refused, still active.
        int[] heapIn = new int[1];
        Prequest copied = w.recvInit(IntBuffer.wrap(heapIn), 1, MPI.INT, 0, 24);
        copied.start();
        MPIException inFlight = assertThrows(MPIException.class, copied::free);
        assertEquals(MPI.ERR_REQUEST, inFlight.getErrorClass());
        assertTrue(inFlight.getMessage().contains("recvInit"), inFlight.getMessage());
        w.send(new int[] {32}, 1, MPI.INT, 0, 24);
        copied.waitFor();
        assertEquals(32, heapIn[0]);
        copied.free();
        // Arguments are checked at set-up; PROC_NULL requests finish at once at every start.
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> w.sendInit(in, 1, MPI.INT, 3, 0))
                .getErrorClass());
        assertEquals(MPI.ERR_TAG, assertThrows(MPIException.class, () -> w.recvInit(in, 1, MPI.INT, 0, -5))
                .getErrorClass());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class, () -> w.sSendInit(in, -1, MPI.INT, 0, 0))
                .getErrorClass());
        assertThrows(IndexOutOfBoundsException.class, () -> w.rSendInit(in, 2, MPI.INT, 0, 0));
        Prequest none = w.recvInit(in, 1, MPI.INT, MPI.PROC_NULL, 0);
        Prequest nowhere = w.bSendInit(in, 1, MPI.INT, MPI.PROC_NULL, 0); // no attached buffer needed
        for (int round = 0; round < 2; round++) {
            Prequest.startAll(new Prequest[] {none, nowhere});
            assertEquals(MPI.PROC_NULL, none.waitStatus().getSource());
            nowhere.waitFor();
        }
        // A start that fails (nothing attached for a buffered send) leaves the request inactive.
        Prequest buffered = w.bSendInit(in, 1, MPI.INT, 0, 22);
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, buffered::start).getErrorClass());
        assertTrue(buffered.test());
        buffered.free();
    }
}
