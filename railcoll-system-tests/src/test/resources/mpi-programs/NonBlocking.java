import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;

import mpi.*;

/**
 * Non-blocking collectives as users of Open MPI's mpi.jar write them: the classic overlap of an iAllReduce on a direct
 * buffer with local work, testing it now and then; then every i-form on direct and on heap buffers (which the
 * bindings refuse), completed by waitAll, waitAny, waitSome and testAll loops; one on a split communicator;
 * allToAllw with a datatype per rank, pack and unpack, attributes; the v-forms (iGatherv, iScatterv in place,
 * iAllToAllv, iAllToAllw) in flight together, completed last-started first. Each result is checked against the
 * value computed here sequentially, in rank order, on any number of ranks.
 */
public class NonBlocking {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();

        // ---- the overlap: start the all-reduce, work meanwhile, test it between chunks, then wait ----
        int n = 1 << 16;
        DoubleBuffer field = MPI.newDoubleBuffer(n);
        DoubleBuffer total = MPI.newDoubleBuffer(n);
        for (int i = 0; i < n; i++) {
            field.put(i, rank + i % 7);
        }
        Request r = MPI.COMM_WORLD.iAllReduce(field, total, n, MPI.DOUBLE, MPI.SUM);
        double local = 0;
        int chunks = 0;
        boolean done = false;
        for (int chunk = 0; chunk < 64; chunk++) {   // the work does not depend on the reduction
            for (int i = 0; i < 2000; i++) {
                local += Math.sin(chunk * 2000 + i);
            }
            chunks++;
            if (!done) {
                done = r.test();
            }
        }
        r.waitFor();
        double[] want = new double[4];
        double[] got = new double[4];
        for (int k = 0; k < 4; k++) {
            int i = k * (n / 4) + 3;
            got[k] = total.get(i);
            want[k] = (double) size * (size - 1) / 2 + size * (i % 7);
        }
        check(rank, "overlap", got, want);
        double localWant = 0;
        for (int i = 0; i < 64 * 2000; i++) {
            localWant += Math.sin(i);
        }
        System.out.println("rank " + rank + " overlap work " + chunks + " chunks " + (local == localWant ? "ok" : "MISMATCH"));
        System.out.println("rank " + rank + " overlap request null " + r.isNull());

        // ---- every i-form, on heap buffers over arrays and on direct buffers ----
        int root = size - 1;
        int[] bc = new int[3];
        if (rank == root) {
            bc = new int[] {7, 8, 9};
        }
        int[] gathered = new int[2 * size];
        int[] allGathered = new int[size];
        int[] inPlace = new int[size];
        inPlace[rank] = 100 + rank;
        int[] toAll = new int[size];
        int[] fromAll = new int[size];
        for (int j = 0; j < size; j++) {
            toAll[j] = rank * 10 + j;
        }
        int[] reduced = new int[2];
        IntBuffer reducedInPlace = MPI.newIntBuffer(2).put(0, rank).put(1, 1);
        int[] rsbIn = new int[2 * size];
        for (int j = 0; j < 2 * size; j++) {
            rsbIn[j] = rank + j;
        }
        int[] rsbOut = new int[2];
        int[] scanned = new int[1];
        int[] exscanned = {rank + 2};   // in place: PROD of the ranks below; rank 0 keeps its own
        int[] scatterSend = new int[size];
        for (int j = 0; j < size; j++) {
            scatterSend[j] = 50 + j;
        }
        int[] scattered = new int[1];
        Request[] rs = {
                MPI.COMM_WORLD.iBarrier(),
                MPI.COMM_WORLD.iBcast(IntBuffer.wrap(bc), 3, MPI.INT, root),
                MPI.COMM_WORLD.iGather(IntBuffer.wrap(new int[] {rank, -rank}), 2, MPI.INT, IntBuffer.wrap(gathered), 2,
                        MPI.INT, 0),
                MPI.COMM_WORLD.iAllGather(IntBuffer.wrap(new int[] {rank * rank}), 1, MPI.INT, IntBuffer.wrap(allGathered),
                        1, MPI.INT),
                MPI.COMM_WORLD.iAllGather(IntBuffer.wrap(inPlace), 1, MPI.INT),
                MPI.COMM_WORLD.iAllToAll(IntBuffer.wrap(toAll), 1, MPI.INT, IntBuffer.wrap(fromAll), 1, MPI.INT),
                MPI.COMM_WORLD.iReduce(IntBuffer.wrap(new int[] {rank + 1, 2 * rank}), IntBuffer.wrap(reduced), 2,
                        MPI.INT, MPI.SUM, root),
                MPI.COMM_WORLD.iReduce(reducedInPlace, 2, MPI.INT, MPI.MAX, 0),
                MPI.COMM_WORLD.iReduceScatterBlock(IntBuffer.wrap(rsbIn), IntBuffer.wrap(rsbOut), 2, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iScan(IntBuffer.wrap(new int[] {rank + 1}), IntBuffer.wrap(scanned), 1, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iExScan(IntBuffer.wrap(exscanned), 1, MPI.INT, MPI.PROD),
                MPI.COMM_WORLD.iScatter(IntBuffer.wrap(scatterSend), 1, MPI.INT, IntBuffer.wrap(scattered), 1, MPI.INT,
                        root)};
        Request.waitAll(rs);
        check(rank, "iBcast", bc, new int[] {7, 8, 9});
        if (rank == 0) {
            int[] g = new int[2 * size];
            for (int i = 0; i < size; i++) {
                g[2 * i] = i;
                g[2 * i + 1] = -i;
            }
            check(rank, "iGather", gathered, g);
        }
        int[] squares = new int[size];
        int[] hundreds = new int[size];
        int[] columns = new int[size];
        for (int i = 0; i < size; i++) {
            squares[i] = i * i;
            hundreds[i] = 100 + i;
            columns[i] = i * 10 + rank;
        }
        check(rank, "iAllGather", allGathered, squares);
        check(rank, "iAllGather in place", inPlace, hundreds);
        check(rank, "iAllToAll", fromAll, columns);
        if (rank == root) {
            check(rank, "iReduce", reduced, new int[] {size * (size + 1) / 2, size * (size - 1)});
        }
        int[] max = new int[2];
        reducedInPlace.get(0, max);
        check(rank, "iReduce in place", max, rank == 0 ? new int[] {size - 1, 1} : new int[] {rank, 1});
        check(rank, "iReduceScatterBlock", rsbOut,
                new int[] {size * (size - 1) / 2 + size * 2 * rank, size * (size - 1) / 2 + size * (2 * rank + 1)});
        check(rank, "iScan", scanned, new int[] {(rank + 1) * (rank + 2) / 2});
        int prod = rank + 2;
        if (rank > 0) {
            prod = 1;
            for (int i = 0; i < rank; i++) {
                prod *= i + 2;
            }
        }
        check(rank, "iExScan", exscanned, new int[] {prod});
        check(rank, "iScatter", scattered, new int[] {50 + rank});

        // ---- waitAny and waitSome until all are in; a testAll loop ----
        DoubleBuffer[] sums = new DoubleBuffer[3];
        Request[] three = new Request[3];
        for (int k = 0; k < 3; k++) {
            sums[k] = MPI.newDoubleBuffer(1).put(0, rank * (k + 1));
            three[k] = MPI.COMM_WORLD.iAllReduce(sums[k], 1, MPI.DOUBLE, MPI.SUM);
        }
        int seen = 0;
        while (seen < 3) {
            int i = Request.waitAny(three);
            if (i == MPI.UNDEFINED || !three[i].isNull()) {
                System.out.println("rank " + rank + " waitAny MISMATCH: index " + i);
                break;
            }
            seen++;
        }
        check(rank, "waitAny", new double[] {sums[0].get(0), sums[1].get(0), sums[2].get(0)},
                new double[] {size * (size - 1) / 2.0, size * (size - 1), 1.5 * size * (size - 1)});
        check(rank, "waitAny after", Request.waitAny(three), MPI.UNDEFINED);

        int[] some = new int[size];
        Request[] pair = {MPI.COMM_WORLD.iAllGather(IntBuffer.wrap(new int[] {rank + 1}), 1, MPI.INT,
                IntBuffer.wrap(some), 1, MPI.INT), MPI.COMM_WORLD.iBarrier()};
        int completed = 0;
        int[] idx;
        while ((idx = Request.waitSome(pair)) != null) {
            completed += idx.length;
        }
        int[] ones = new int[size];
        for (int i = 0; i < size; i++) {
            ones[i] = i + 1;
        }
        check(rank, "waitSome", some, ones);
        check(rank, "waitSome count", completed, 2);

        Request[] polled = {MPI.COMM_WORLD.iAllReduce(IntBuffer.wrap(new int[] {1}), IntBuffer.wrap(scanned), 1, MPI.INT,
                MPI.SUM)};
        int polls = 0;
        while (!Request.testAll(polled)) {
            polls++;
        }
        check(rank, "testAll", scanned, new int[] {size});

        // ---- a non-commutative user op on 24-byte elements: folded in rank order when the gather finishes ----
        Datatype triple = Datatype.createContiguous(3, MPI.LONG);
        triple.commit();
        Op upper = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                long[] x = (long[]) in;
                long[] y = (long[]) inOut;
                for (int e = 0; e < count; e++) {
                    int o = 3 * e;
                    long a = x[o] * y[o];
                    long b = x[o] * y[o + 1] + x[o + 1] * y[o + 2];
                    long c = x[o + 2] * y[o + 2];
                    y[o] = a;
                    y[o + 1] = b;
                    y[o + 2] = c;
                }
            }
        }, false);
        long[] t = {rank + 1, rank + 2, rank + 3};
        long[] product = new long[3];
        MPI.COMM_WORLD.iAllReduce(java.nio.LongBuffer.wrap(t), java.nio.LongBuffer.wrap(product), 1, triple, upper)
                .waitFor();
        long[] p = {1, 0, 1};
        for (int i = 0; i < size; i++) {
            p = new long[] {p[0] * (i + 1), p[0] * (i + 2) + p[1] * (i + 3), p[2] * (i + 3)};
        }
        check(rank, "user op", product, p);

        // ---- on a derived communicator: ranks of one parity, numbered in reverse ----
        Intracomm half = MPI.COMM_WORLD.split(rank % 2, -rank);
        IntBuffer parity = MPI.newIntBuffer(1).put(0, rank);
        Request hr = half.iAllReduce(parity, 1, MPI.INT, MPI.SUM);
        hr.waitFor();
        int paritySum = 0;
        for (int i = rank % 2; i < size; i += 2) {
            paritySum += i;
        }
        check(rank, "split iAllReduce", parity.get(0), paritySum);
        half.free();

        // ---- allToAllw: to even ranks one pair of ints, to odd ones two ints, all received as two ints ----
        Datatype intPair = Datatype.createContiguous(2, MPI.INT);
        intPair.commit();
        int[] wsend = new int[2 * size];
        int[] wcount = new int[size];
        int[] wdispl = new int[size];
        Datatype[] wtypes = new Datatype[size];
        int[] rcount = new int[size];
        int[] rdispl = new int[size];
        Datatype[] rtypes = new Datatype[size];
        int[] wwant = new int[2 * size];
        for (int j = 0; j < size; j++) {
            wsend[2 * j] = rank * 100 + 2 * j;
            wsend[2 * j + 1] = rank * 100 + 2 * j + 1;
            wcount[j] = j % 2 == 0 ? 1 : 2;
            wtypes[j] = j % 2 == 0 ? intPair : MPI.INT;
            wdispl[j] = 8 * j;   // bytes
            rcount[j] = 2;
            rtypes[j] = MPI.INT;
            rdispl[j] = 8 * j;
            wwant[2 * j] = j * 100 + 2 * rank;
            wwant[2 * j + 1] = j * 100 + 2 * rank + 1;
        }
        int[] wrecv = new int[2 * size];
        MPI.COMM_WORLD.allToAllw(wsend, wcount, wdispl, wtypes, wrecv, rcount, rdispl, rtypes);
        check(rank, "allToAllw", wrecv, wwant);

        // ---- pack on one rank, broadcast the bytes, unpack everywhere ----
        int packBytes = MPI.COMM_WORLD.packSize(2, MPI.INT) + MPI.COMM_WORLD.packSize(1, MPI.DOUBLE);
        byte[] packed = new byte[packBytes];
        if (rank == root) {
            int at = MPI.COMM_WORLD.pack(new int[] {41, 42}, 2, MPI.INT, packed, 0);
            MPI.COMM_WORLD.pack(new double[] {2.5}, 1, MPI.DOUBLE, packed, at);
        }
        MPI.COMM_WORLD.bcast(packed, packBytes, MPI.PACKED, root);
        int[] two = new int[2];
        double[] one = new double[1];
        int at = MPI.COMM_WORLD.unpack(packed, 0, two, 2, MPI.INT);
        MPI.COMM_WORLD.unpack(packed, at, one, 1, MPI.DOUBLE);
        check(rank, "pack", new Object[] {two, one}, new Object[] {new int[] {41, 42}, new double[] {2.5}});

        // ---- attributes: a keyval, a value copied by dup, the predefined ones ----
        int key = Comm.createKeyval();
        MPI.COMM_WORLD.setAttr(key, "grid " + rank);
        Intracomm copy = MPI.COMM_WORLD.dup();
        check(rank, "attributes", new Object[] {copy.getAttr(key), MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE),
                MPI.COMM_WORLD.getAttr(MPI.TAG_UB) instanceof Integer tagUb && tagUb >= 32767},
                new Object[] {"grid " + rank, size, true});
        copy.free();
        MPI.COMM_WORLD.deleteAttr(key);
        Comm.freeKeyval(key);

        // ---- the v-forms, all in flight together: the non-root forms, the root's in place, uneven counts ----
        int gvRoot = size - 1;
        int[] gvCounts = new int[size];
        int[] gvDispls = new int[size];
        int gvAll = 0;
        for (int i = size - 1; i >= 0; i--) {   // blocks land in reverse rank order
            gvCounts[i] = i % 3;
            gvDispls[i] = gvAll;
            gvAll += gvCounts[i];
        }
        int[] gvMine = new int[gvCounts[rank]];
        for (int k = 0; k < gvMine.length; k++) {
            gvMine[k] = 1000 * rank + k;
        }
        int[] gvGathered = new int[gvAll];
        int[] svData = new int[gvAll];   // the scatterv root's blocks, at the same places
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < gvCounts[i]; k++) {
                svData[gvDispls[i] + k] = 2000 + 10 * i + k;
            }
        }
        int[] svPiece = new int[gvCounts[rank]];
        int[] avSendCounts = new int[size];
        int[] avSendDispls = new int[size];
        int[] avRecvCounts = new int[size];
        int[] avRecvDispls = new int[size];
        int avOut = 0;
        int avIn = 0;
        for (int j = 0; j < size; j++) {
            avSendCounts[j] = (rank + j) % 3;
            avSendDispls[j] = avOut;
            avOut += avSendCounts[j];
            avRecvCounts[j] = (j + rank) % 3;
            avRecvDispls[j] = avIn;
            avIn += avRecvCounts[j];
        }
        int[] avSend = new int[avOut];
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < avSendCounts[j]; k++) {
                avSend[avSendDispls[j] + k] = 100 * rank + 10 * j + k;
            }
        }
        IntBuffer avRecv = MPI.newIntBuffer(avIn);   // direct, used in place
        int[] awRecv = new int[avIn];
        int[] awSendBytes = new int[size];
        int[] awRecvBytes = new int[size];
        Datatype[] ints = new Datatype[size];
        for (int j = 0; j < size; j++) {
            awSendBytes[j] = 4 * avSendDispls[j];
            awRecvBytes[j] = 4 * avRecvDispls[j];
            ints[j] = MPI.INT;
        }
        Request[] vs = {
                rank == gvRoot
                        ? MPI.COMM_WORLD.iGatherv(IntBuffer.wrap(gvMine), gvMine.length, MPI.INT, IntBuffer.wrap(gvGathered),
                        gvCounts, gvDispls, MPI.INT, gvRoot)
                        : MPI.COMM_WORLD.iGatherv(IntBuffer.wrap(gvMine), gvMine.length, MPI.INT, gvRoot),
                rank == 0
                        ? MPI.COMM_WORLD.iScatterv(IntBuffer.wrap(svData), gvCounts, gvDispls, MPI.INT, 0)
                        : MPI.COMM_WORLD.iScatterv(IntBuffer.wrap(svPiece), svPiece.length, MPI.INT, 0),
                MPI.COMM_WORLD.iAllToAllv(IntBuffer.wrap(avSend), avSendCounts, avSendDispls, MPI.INT, avRecv, avRecvCounts,
                        avRecvDispls, MPI.INT),
                MPI.COMM_WORLD.iAllToAllw(IntBuffer.wrap(avSend.clone()), avSendCounts, awSendBytes, ints,
                        IntBuffer.wrap(awRecv), avRecvCounts, awRecvBytes, ints)};
        Arrays.fill(avSend, -1);   // copied when the calls started
        for (int i = vs.length - 1; i >= 0; i--) {   // completed last-started first
            vs[i].waitFor();
        }
        if (rank == gvRoot) {
            int[] gvWant = new int[gvAll];
            for (int i = 0; i < size; i++) {
                for (int k = 0; k < gvCounts[i]; k++) {
                    gvWant[gvDispls[i] + k] = 1000 * i + k;
                }
            }
            check(rank, "iGatherv", gvGathered, gvWant);
        }
        if (rank == 0) {
            int[] unchanged = new int[gvAll];
            for (int i = 0; i < size; i++) {
                for (int k = 0; k < gvCounts[i]; k++) {
                    unchanged[gvDispls[i] + k] = 2000 + 10 * i + k;
                }
            }
            check(rank, "iScatterv", svData, unchanged);   // in place at the root: its blocks stay
        } else {
            int[] svWant = new int[gvCounts[rank]];
            for (int k = 0; k < svWant.length; k++) {
                svWant[k] = 2000 + 10 * rank + k;
            }
            check(rank, "iScatterv", svPiece, svWant);
        }
        int[] avWant = new int[avIn];
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < avRecvCounts[i]; k++) {
                avWant[avRecvDispls[i] + k] = 100 * i + 10 * rank + k;
            }
        }
        int[] avGot = new int[avIn];
        avRecv.get(0, avGot);
        check(rank, "iAllToAllv", avGot, avWant);
        check(rank, "iAllToAllw", awRecv, avWant);

        // ---- errors after ERRORS_RETURN: a non-root form called at its own root ----
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        try {
            MPI.COMM_WORLD.iGatherv(IntBuffer.wrap(new int[1]), 1, MPI.INT, rank);
            System.out.println("rank " + rank + " wrong root form MISMATCH: no error");
        } catch (MPIException e) {
            check(rank, "wrong root form", e.getErrorClass(), MPI.ERR_ROOT);
        }
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);

        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    /** One line per check: the values and "ok", or what was expected instead. */
    static void check(int rank, String what, Object actual, Object expected) {
        String got = Arrays.deepToString(new Object[] {actual});
        String want = Arrays.deepToString(new Object[] {expected});
        System.out.println("rank " + rank + " " + what + " " + got + (got.equals(want) ? " ok" : " MISMATCH, expected " + want));
    }
}
