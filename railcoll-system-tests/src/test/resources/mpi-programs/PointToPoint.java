import java.nio.IntBuffer;
import java.util.Arrays;

import mpi.*;

/**
 * Every point-to-point method of the bindings, matched probes and persistent requests included, on any number of
 * ranks, as their users write them; each check prints "rank r name [values] ok" (or MISMATCH).
 */
public class PointToPoint {
    static int rank;

    static void check(String name, String values, boolean ok) {
        System.out.println("rank " + rank + " " + name + " [" + values + "] " + (ok ? "ok" : "MISMATCH"));
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;

        int[] got = new int[2];
        Status s = w.sendRecv(new int[] {rank, 100 + rank}, 2, MPI.INT, next, 1, got, 2, MPI.INT, prev, 1);
        check("sendRecv", Arrays.toString(got), got[0] == prev && got[1] == 100 + prev && s.getSource() == prev
                && s.getTag() == 1 && s.getCount(MPI.INT) == 2);

        long[] mine = {rank, -rank};
        s = w.sendRecvReplace(mine, 2, MPI.LONG, next, 2, MPI.ANY_SOURCE, 2);
        check("sendRecvReplace", Arrays.toString(mine), mine[0] == prev && mine[1] == -prev && s.getSource() == prev);

        // Everyone to rank 0; rank 0 takes them from any source (with the tag of this case only: a faster rank may
        // already have sent rank 0 the next case's message).
        if (rank != 0) {
            w.send(new int[] {rank * 7}, 1, MPI.INT, 0, 20);
            check("any source", "sent", true);
        } else {
            boolean ok = true;
            boolean[] seen = new boolean[size];
            for (int k = 1; k < size; k++) {
                int[] v = new int[1];
                Status a = w.recv(v, 1, MPI.INT, MPI.ANY_SOURCE, 20);
                ok &= a.getTag() == 20 && v[0] == 7 * a.getSource() && !seen[a.getSource()];
                seen[a.getSource()] = true;
            }
            check("any source", (size - 1) + " received", ok);
        }

        // Non-blocking on direct buffers, completed together.
        IntBuffer in = MPI.newIntBuffer(3);
        IntBuffer out = MPI.newIntBuffer(3).put(0, rank).put(1, rank + 1).put(2, rank + 2);
        Request r = w.iRecv(in, 3, MPI.INT, prev, 3);
        Request q = w.iSend(out, 3, MPI.INT, next, 3);
        Request.waitAll(new Request[] {r, q});
        check("iSend iRecv", in.get(0) + ", " + in.get(2), in.get(0) == prev && in.get(2) == prev + 2);

        // Synchronous, ready and buffered sends, each with the receive posted first.
        int[] v = new int[1];
        r = w.iRecv(in, 1, MPI.INT, prev, 4);
        w.sSend(new int[] {40 + rank}, 1, MPI.INT, next, 4);
        s = r.waitStatus();
        check("sSend", Integer.toString(in.get(0)), in.get(0) == 40 + prev && s.getSource() == prev);
        r = w.iRecv(in, 1, MPI.INT, prev, 5);
        w.barrier(); // every receive is posted: a ready send is correct now
        w.rSend(new int[] {50 + rank}, 1, MPI.INT, next, 5);
        r.waitFor();
        check("rSend", Integer.toString(in.get(0)), in.get(0) == 50 + prev);
        byte[] attached = new byte[4 * (MPI.BSEND_OVERHEAD + 4)];
        MPI.attachBuffer(attached);
        w.bSend(new int[] {60 + rank}, 1, MPI.INT, next, 6);
        Request b = w.ibSend(out, 1, MPI.INT, next, 6);
        b.waitFor();
        w.recv(v, 1, MPI.INT, prev, 6);
        boolean bOk = v[0] == 60 + prev;
        w.recv(v, 1, MPI.INT, prev, 6);
        check("bSend", Integer.toString(v[0]), bOk && v[0] == prev && MPI.detachBuffer() == attached);
        r = w.isSend(out, 1, MPI.INT, next, 7);
        w.recv(v, 1, MPI.INT, prev, 7);
        r.waitFor();
        r = w.irSend(out, 1, MPI.INT, next, 7);
        w.recv(v, 1, MPI.INT, prev, 7);
        r.waitFor();
        check("isSend irSend", Integer.toString(v[0]), v[0] == prev);

        // Probe for the size, then receive it; iProbe until it is there.
        double[] d = new double[rank + 1];
        Arrays.fill(d, rank + 0.5);
        w.send(d, d.length, MPI.DOUBLE, next, 8);
        Status p = w.probe(prev, 8);
        double[] dd = new double[p.getCount(MPI.DOUBLE)];
        w.recv(dd, dd.length, MPI.DOUBLE, p.getSource(), p.getTag());
        check("probe", p.getCount(MPI.DOUBLE) + " " + dd[0], dd.length == prev + 1 && dd[dd.length - 1] == prev + 0.5);
        w.send(new int[] {9}, 1, MPI.INT, next, 9);
        Status ip;
        while ((ip = w.iProbe(MPI.ANY_SOURCE, 9)) == null) {
            Thread.onSpinWait();
        }
        w.recv(v, 1, MPI.INT, ip.getSource(), 9);
        check("iProbe", ip.getSource() + " " + ip.getCount(MPI.INT), ip.getSource() == prev && v[0] == 9);

        // A shift without wrap-around: the ends talk to PROC_NULL.
        int up = rank + 1 < size ? rank + 1 : MPI.PROC_NULL;
        int down = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        v[0] = -1;
        s = w.sendRecv(new int[] {rank}, 1, MPI.INT, up, 10, v, 1, MPI.INT, down, 10);
        check("PROC_NULL", Integer.toString(v[0]), rank == 0 ? s.getSource() == MPI.PROC_NULL && v[0] == -1
                && s.getCount(MPI.INT) == 0 : v[0] == rank - 1 && s.getSource() == rank - 1);

        // A strided type sent, received contiguous; then messages of one tag arrive in the order sent.
        Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
        every2.commit();
        w.send(new int[] {rank, -1, rank + 1, -1, rank + 2}, 1, every2, next, 11);
        int[] three = new int[3];
        w.recv(three, 3, MPI.INT, prev, 11);
        check("strided", Arrays.toString(three), three[0] == prev && three[2] == prev + 2);
        for (int k = 0; k < 5; k++) {
            w.send(new int[] {k}, 1, MPI.INT, next, 12);
        }
        boolean ordered = true;
        for (int k = 0; k < 5; k++) {
            w.recv(v, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            ordered &= v[0] == k;
        }
        check("non-overtaking", "5", ordered);

        // Matched probe: the size from the probe, that very message received; a receive posted after the probe
        // cannot take it, and gets the next message.
        int[] sized = new int[rank + 1];
        Arrays.fill(sized, rank);
        w.send(sized, sized.length, MPI.INT, next, 14);
        w.send(new int[] {-rank - 1}, 1, MPI.INT, next, 14);
        Message m = new Message();
        Status ms = m.mProbe(prev, 14, w);
        int[] first = new int[ms.getCount(MPI.INT)];
        Request later = w.iRecv(in, 1, MPI.INT, prev, 14);
        later.waitFor();
        m.mRecv(first, first.length, MPI.INT);
        check("mProbe", first.length + " " + in.get(0), first.length == prev + 1 && first[prev] == prev
                && in.get(0) == -prev - 1 && m.isNull());
        w.send(new int[] {150 + rank}, 1, MPI.INT, next, 15);
        while ((ms = m.imProbe(MPI.ANY_SOURCE, 15, w)) == null) {
            Thread.onSpinWait();
        }
        m.imRecv(in, 1, MPI.INT).waitFor();
        Message none = new Message();
        none.mProbe(MPI.PROC_NULL, 15, w);
        boolean noProc = none.isNoProc();
        Status ns = none.mRecv(v, 1, MPI.INT);
        check("imProbe imRecv", ms.getSource() + " " + in.get(0), ms.getSource() == prev && in.get(0) == 150 + prev
                && noProc && ns.getSource() == MPI.PROC_NULL && none.isNull());

        // Persistent requests: a ring restarted with new contents each round, then every send mode, each twice.
        IntBuffer pOut = MPI.newIntBuffer(1);
        IntBuffer pIn = MPI.newIntBuffer(1);
        Prequest[] ring = {w.recvInit(pIn, 1, MPI.INT, prev, 16), w.sendInit(pOut, 1, MPI.INT, next, 16)};
        Prequest syncRecv = w.recvInit(pIn, 1, MPI.INT, prev, 17);
        Prequest[] modes = {w.sSendInit(pOut, 1, MPI.INT, next, 17), w.rSendInit(pOut, 1, MPI.INT, next, 18),
                w.bSendInit(pOut, 1, MPI.INT, next, 19)};
        MPI.attachBuffer(attached);
        boolean pOk = true;
        for (int k = 0; k < 4; k++) {
            pOut.put(0, 100 * k + rank);
            Prequest.startAll(ring);
            Request.waitAll(ring);
            pOk &= pIn.get(0) == 100 * k + prev;
        }
        for (int k = 0; k < 2; k++) {
            pOut.put(0, 1000 * k + rank);
            syncRecv.start();
            modes[0].start();
            Request.waitAll(new Request[] {syncRecv, modes[0]});
            pOk &= pIn.get(0) == 1000 * k + prev;
            for (int j = 1; j < modes.length; j++) {
                modes[j].start();
                w.recv(v, 1, MPI.INT, prev, 17 + j);
                modes[j].waitFor();
                pOk &= v[0] == 1000 * k + prev;
            }
        }
        MPI.detachBuffer();
        for (Prequest p2 : new Prequest[] {ring[0], ring[1], syncRecv, modes[0], modes[1], modes[2]}) {
            p2.free();
            pOk &= p2.isNull();
        }
        check("persistent", Integer.toString(pIn.get(0)), pOk);

        // Too long for the buffer: ERR_TRUNCATE under ERRORS_RETURN, and the communicator still works.
        w.setErrhandler(MPI.ERRORS_RETURN);
        w.send(new int[] {1, 2, 3}, 3, MPI.INT, next, 13);
        int errorClass = 0;
        try {
            w.recv(got, 2, MPI.INT, prev, 13);
        } catch (MPIException e) {
            errorClass = e.getErrorClass();
        }
        w.barrier();
        check("truncate", Integer.toString(errorClass), errorClass == MPI.ERR_TRUNCATE && got[0] == 1);
        MPI.Finalize();
    }
}
