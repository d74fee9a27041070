package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Persistent requests on real ranks (decision 0185), 2, 3 and 5 of them ({@link InProcessComms}; placements with
 * node-mates over shared memory and other nodes over loopback TCP): a ring of {@code recvInit}/{@code sendInit}
 * restarted 100 times with new contents each round, on a direct buffer and a {@code byte[]}-backed one (railcoll's
 * persistent requests on the program's memory, nothing copied), on a heap {@code IntBuffer} and through a strided
 * type (the copy rules), with a large message every tenth round;
 * completed by every kind of wait and test in turn; non-persistent iSend/iRecv traffic and collectives between and
 * during the rounds; an any-source persistent receive taking one message from every other rank per round; startAll
 * over many requests (several per peer and tag, zero-byte ones included); the synchronous and ready modes; the
 * refusals (start of an active request, a request twice in startAll) and free of an active send. Every byte received
 * and every status (source, tag, count) is checked against what its sender computes for that round.
 */
class PersistentRequestConformanceTest {
    private static final int ROUNDS = 100;
    private static final int INTS = 37;
    private static final int LARGE_BYTES = 70_001;
    private static final int MANY_PER_PEER = 6;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @ParameterizedTest(name = "nodes {0}")
    @ValueSource(strings = {"1,1", "2,1", "2,3"})
    void persistentRequestsConformOnRealRanks(String placement) throws Exception {
        int[] nodes = Arrays.stream(placement.split(",")).mapToInt(Integer::parseInt).toArray();
        int n = Arrays.stream(nodes).sum();
        List<Object> got = InProcessComms.onNodes(nodes, (comm, rank) -> {
            List<String> failures = new ArrayList<>();
            ring(comm, rank, n, failures);
            anySource(comm, rank, n, failures);
            startAllOverMany(comm, rank, n, failures);
            modesAndRefusals(comm, rank, n, failures);
            return failures;
        });
        for (int r = 0; r < n; r++) {
            assertEquals(List.of(), got.get(r), "rank " + r + " of " + n);
        }
    }

    /** The int at {@code i} that rank {@code from} sends in round {@code round} on stream {@code stream}. */
    private static int value(int stream, int from, int round, int i) {
        return stream * 1_000_003 + from * 100_019 + round * 1_009 + i * 7 + (round ^ i);
    }

    private static byte byteValue(int stream, int from, int round, int i) {
        return (byte) (value(stream, from, round, i) * 31 >>> 3);
    }

    private static void ring(Intracomm comm, int rank, int n, List<String> failures) throws MPIException {
        int next = (rank + 1) % n;
        int prev = (rank + n - 1) % n;
        // Direct buffers: railcoll's persistent requests on the program's memory.
        IntBuffer out = MPI.newIntBuffer(INTS);
        IntBuffer in = MPI.newIntBuffer(INTS);
        Prequest recv = comm.recvInit(in, INTS, MPI.INT, prev, 1);
        Prequest send = comm.sendInit(out, INTS, MPI.INT, next, 1);
        // A heap buffer: copied at each start and delivered by the wait.
        int[] heapOut = new int[INTS];
        int[] heapIn = new int[INTS];
        Prequest heapRecv = comm.recvInit(IntBuffer.wrap(heapIn), INTS, MPI.INT, prev, 2);
        Prequest heapSend = comm.sendInit(IntBuffer.wrap(heapOut), INTS, MPI.INT, next, 2);
        // A strided type on direct buffers: every other int moves, the gaps keep their contents.
        Datatype everyOther = Datatype.createVector(INTS / 2, 1, 2, MPI.INT);
        everyOther.commit();
        IntBuffer stridedOut = MPI.newIntBuffer(INTS);
        IntBuffer stridedIn = MPI.newIntBuffer(INTS);
        for (int i = 0; i < INTS; i++) {
            stridedIn.put(i, -1);
        }
        Prequest stridedRecv = comm.recvInit(stridedIn, 1, everyOther, prev, 3);
        Prequest stridedSend = comm.sendInit(stridedOut, 1, everyOther, next, 3);
        // A large message every tenth round (fragments, shared memory's pulls).
        ByteBuffer largeOut = MPI.newByteBuffer(LARGE_BYTES);
        ByteBuffer largeIn = MPI.newByteBuffer(LARGE_BYTES);
        Prequest largeRecv = comm.recvInit(largeIn, LARGE_BYTES, MPI.BYTE, prev, 4);
        Prequest largeSend = comm.sendInit(largeOut, LARGE_BYTES, MPI.BYTE, next, 4);
        // A byte[]-backed heap buffer: railcoll's persistent requests on the array itself (nothing copied here).
        byte[] bytesOut = new byte[INTS];
        byte[] bytesIn = new byte[INTS];
        Prequest bytesRecv = comm.recvInit(ByteBuffer.wrap(bytesIn), INTS, MPI.BYTE, prev, 9);
        Prequest bytesSend = comm.sendInit(ByteBuffer.wrap(bytesOut), INTS, MPI.BYTE, next, 9);
        Prequest[] small = {recv, send, heapRecv, heapSend, stridedRecv, stridedSend, bytesRecv, bytesSend};
        IntBuffer plainOut = MPI.newIntBuffer(3);
        IntBuffer plainIn = MPI.newIntBuffer(3);
        int[] sum = new int[1];
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < INTS; i++) {
                out.put(i, value(1, rank, round, i));
                heapOut[i] = value(2, rank, round, i);
                stridedOut.put(i, value(3, rank, round, i));
                bytesOut[i] = byteValue(9, rank, round, i);
            }
            boolean large = round % 10 == 0;
            if (large) {
                for (int i = 0; i < LARGE_BYTES; i++) {
                    largeOut.put(i, byteValue(4, rank, round, i));
                }
                largeRecv.start();
                largeSend.start();
            }
            // Started in turn one by one and together; the receives after the sends in odd rounds.
            if (round % 3 == 0) {
                Prequest.startAll(small);
            } else if (round % 2 == 0) {
                for (Prequest p : small) {
                    p.start();
                }
            } else {
                for (int k = small.length - 1; k >= 0; k--) {
                    small[k].start();
                }
            }
            for (int i = 0; i < INTS; i++) {
                heapOut[i] = -7; // a heap send's elements were copied at its start
            }
            // Non-persistent traffic the other way round while the persistent rounds are in flight.
            for (int i = 0; i < 3; i++) {
                plainOut.put(i, value(5, rank, round, i));
            }
            Request plainRecv = comm.iRecv(plainIn, 3, MPI.INT, next, 1); // tag 1 too: after the persistent round in matching order (the same peer when there are 2 ranks)
            Request plainSend = comm.iSend(plainOut, 3, MPI.INT, prev, 1);
            Status[] statuses = complete(small, round, failures, rank);
            plainRecv.waitFor();
            plainSend.waitFor();
            if (large) {
                checkStatus(failures, "large round " + round, largeRecv.waitStatus(), prev, 4, LARGE_BYTES, MPI.BYTE);
                largeSend.waitFor();
                for (int i = 0; i < LARGE_BYTES; i++) {
                    if (largeIn.get(i) != byteValue(4, prev, round, i)) {
                        failures.add("rank " + rank + " round " + round + ": large byte " + i + " is "
                                + largeIn.get(i) + ", expected " + byteValue(4, prev, round, i));
                        break;
                    }
                }
            }
            for (int i = 0; i < INTS; i++) {
                expect(failures, rank, round, "direct int " + i, in.get(i), value(1, prev, round, i));
                expect(failures, rank, round, "heap int " + i, heapIn[i], value(2, prev, round, i));
                int strided = i % 2 == 0 && i / 2 < INTS / 2 ? value(3, prev, round, i) : -1;
                expect(failures, rank, round, "strided int " + i, stridedIn.get(i), strided);
                expect(failures, rank, round, "byte[] byte " + i, bytesIn[i], byteValue(9, prev, round, i));
            }
            for (int i = 0; i < 3; i++) {
                expect(failures, rank, round, "plain int " + i, plainIn.get(i), value(5, next, round, i));
            }
            if (statuses != null) {
                checkStatus(failures, "direct round " + round, statuses[0], prev, 1, INTS, MPI.INT);
                checkStatus(failures, "heap round " + round, statuses[2], prev, 2, INTS, MPI.INT);
                checkStatus(failures, "strided round " + round, statuses[4], prev, 3, 1, everyOther);
                checkStatus(failures, "byte[] round " + round, statuses[6], prev, 9, INTS, MPI.BYTE);
            }
            // A collective between rounds: the persistent requests are inactive, not null.
            sum[0] = round + rank;
            comm.allReduce(sum, 1, MPI.INT, MPI.SUM);
            expect(failures, rank, round, "allReduce", sum[0], n * round + n * (n - 1) / 2);
            if (recv.isNull() || send.isNull()) {
                failures.add("rank " + rank + " round " + round + ": a completed persistent request is null");
            }
        }
        for (Prequest p : small) {
            p.free();
        }
        largeRecv.free();
        largeSend.free();
        everyOther.free();
        if (!recv.isNull() || !largeSend.isNull()) {
            failures.add("rank " + rank + ": a freed persistent request is not null");
        }
    }

    /**
     * Completes {@code all} by a different wait or test each round; the statuses where the form gives them (null
     * otherwise): waitAll, waitAllStatus, testAll loops, waitAny, testAny and testSome loops, each request's own
     * waitStatus, test and testStatus.
     */
    private static Status[] complete(Prequest[] all, int round, List<String> failures, int rank) throws MPIException {
        Status[] st = new Status[all.length];
        switch (round % 7) {
            case 0 -> Request.waitAll(all);
            case 1 -> {
                return Request.waitAllStatus(all);
            }
            case 2 -> {
                Status[] s;
                while ((s = Request.testAllStatus(all)) == null) {
                    Thread.onSpinWait();
                }
                return s;
            }
            case 3 -> {
                for (int done = 0; done < all.length; done++) {
                    Status s = Request.waitAnyStatus(all);
                    int i = s.getIndex();
                    if (i == MPI.UNDEFINED || st[i] != null) {
                        failures.add("rank " + rank + " round " + round + ": waitAnyStatus gave index " + i);
                        return null;
                    }
                    st[i] = s;
                }
                if (Request.waitAny(all) != MPI.UNDEFINED) { // all inactive now
                    failures.add("rank " + rank + " round " + round + ": waitAny of inactive requests found one");
                }
                return st;
            }
            case 4 -> {
                int left = all.length;
                while (left > 0) {
                    Status[] some = Request.testSomeStatus(all);
                    for (Status s : some) {
                        st[s.getIndex()] = s;
                        left--;
                    }
                }
                return st;
            }
            case 5 -> {
                for (int i = 0; i < all.length; i++) {
                    st[i] = all[i].waitStatus();
                }
                return st;
            }
            default -> {
                for (int i = 0; i < all.length; i++) {
                    Status s;
                    while ((s = all[i].testStatus()) == null) {
                        Thread.onSpinWait();
                    }
                    st[i] = s;
                    if (!all[i].test()) { // inactive: a test returns at once
                        failures.add("rank " + rank + " round " + round + ": test of an inactive request is false");
                    }
                }
                return st;
            }
        }
        return null;
    }

    /** One persistent any-source receive at rank 0 taking a message from every other rank per round. */
    private static void anySource(Intracomm comm, int rank, int n, List<String> failures) throws MPIException {
        ByteBuffer buf = MPI.newByteBuffer(40);
        for (int round = 0; round < 20; round++) {
            comm.barrier(); // rounds apart: the ranks are at most one round ahead otherwise
            if (rank == 0) {
                Prequest any = comm.recvInit(buf, 40, MPI.BYTE, MPI.ANY_SOURCE, 6);
                BitSet seen = new BitSet();
                for (int k = 0; k < n - 1; k++) {
                    any.start();
                    Status s = any.waitStatus();
                    int from = s.getSource();
                    int bytes = 8 + from; // each sender's own length
                    checkStatus(failures, "any-source round " + round, s, from, 6, bytes, MPI.BYTE);
                    if (from < 1 || from >= n || seen.get(from)) {
                        failures.add("rank 0 any-source round " + round + ": a message from " + from);
                        continue;
                    }
                    seen.set(from);
                    for (int i = 0; i < bytes; i++) {
                        if (buf.get(i) != byteValue(6, from, round, i)) {
                            failures.add("rank 0 any-source round " + round + ": byte " + i + " from " + from);
                            break;
                        }
                    }
                }
                any.free();
            } else {
                ByteBuffer out = MPI.newByteBuffer(8 + rank);
                for (int i = 0; i < 8 + rank; i++) {
                    out.put(i, byteValue(6, rank, round, i));
                }
                Prequest s = comm.sendInit(out, 8 + rank, MPI.BYTE, 0, 6);
                s.start();
                s.waitFor();
                s.free();
            }
        }
        // One request restarted for every round, the senders sending many rounds ahead.
        if (rank == 0) {
            Prequest any = comm.recvInit(buf, 40, MPI.BYTE, MPI.ANY_SOURCE, 7);
            int[] nextRound = new int[n];
            for (int k = 0; k < 10 * (n - 1); k++) {
                any.start();
                Status s = any.waitStatus();
                int from = s.getSource();
                int round = nextRound[from]++; // messages from one sender arrive in order
                checkStatus(failures, "any-source restart " + k, s, from, 7, 8 + from, MPI.BYTE);
                for (int i = 0; i < 8 + from; i++) {
                    if (buf.get(i) != byteValue(7, from, round, i)) {
                        failures.add("rank 0 any-source restart " + k + ": byte " + i + " from " + from);
                        break;
                    }
                }
            }
            any.free();
        } else {
            ByteBuffer out = MPI.newByteBuffer(8 + rank);
            Prequest s = comm.sendInit(out, 8 + rank, MPI.BYTE, 0, 7);
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 8 + rank; i++) {
                    out.put(i, byteValue(7, rank, round, i));
                }
                s.start();
                s.waitFor();
            }
            s.free();
        }
        comm.barrier();
    }

    /**
     * startAll over {@link #MANY_PER_PEER} receives from and sends to every other rank (distinct tags, one of them
     * zero bytes), completed by waitAll, ten rounds with new contents.
     */
    private static void startAllOverMany(Intracomm comm, int rank, int n, List<String> failures) throws MPIException {
        List<Prequest> all = new ArrayList<>();
        List<ByteBuffer> ins = new ArrayList<>();
        List<ByteBuffer> outs = new ArrayList<>();
        List<int[]> what = new ArrayList<>(); // peer, tag, bytes of each receive
        for (int peer = 0; peer < n; peer++) {
            if (peer == rank) {
                continue;
            }
            for (int k = 0; k < MANY_PER_PEER; k++) {
                int tag = 100 + k;
                int inBytes = k * 13; // k = 0: zero bytes
                int outBytes = k * 13;
                ByteBuffer in = MPI.newByteBuffer(Math.max(1, inBytes));
                ByteBuffer out = MPI.newByteBuffer(Math.max(1, outBytes));
                all.add(comm.recvInit(in, inBytes, MPI.BYTE, peer, tag));
                all.add(comm.sendInit(out, outBytes, MPI.BYTE, peer, tag));
                ins.add(in);
                outs.add(out);
                what.add(new int[] {peer, tag, inBytes});
            }
        }
        Prequest[] requests = all.toArray(new Prequest[0]);
        for (int round = 0; round < 10; round++) {
            for (int j = 0; j < outs.size(); j++) {
                int[] w = what.get(j);
                ByteBuffer out = outs.get(j);
                for (int i = 0; i < w[2]; i++) {
                    out.put(i, byteValue(w[1], rank * 64 + w[0], round, i));
                }
            }
            Prequest.startAll(requests);
            Status[] st = Request.waitAllStatus(requests);
            for (int j = 0; j < ins.size(); j++) {
                int[] w = what.get(j);
                checkStatus(failures, "many round " + round + " from " + w[0] + " tag " + w[1], st[2 * j], w[0], w[1],
                        w[2], MPI.BYTE);
                for (int i = 0; i < w[2]; i++) {
                    if (ins.get(j).get(i) != byteValue(w[1], w[0] * 64 + rank, round, i)) {
                        failures.add("rank " + rank + " many round " + round + ": byte " + i + " from " + w[0]
                                + " tag " + w[1]);
                        break;
                    }
                }
            }
        }
        for (Prequest p : requests) {
            p.free();
        }
    }

    /** sSendInit and rSendInit rounds; the refusals; free of an active send. */
    private static void modesAndRefusals(Intracomm comm, int rank, int n, List<String> failures) throws MPIException {
        int next = (rank + 1) % n;
        int prev = (rank + n - 1) % n;
        IntBuffer out = MPI.newIntBuffer(2);
        IntBuffer in = MPI.newIntBuffer(2);
        Prequest recv = comm.recvInit(in, 2, MPI.INT, prev, 8);
        Prequest sync = comm.sSendInit(out, 2, MPI.INT, next, 8);
        Prequest ready = comm.rSendInit(out, 2, MPI.INT, next, 8);
        for (int round = 0; round < 10; round++) {
            Prequest send = round % 2 == 0 ? sync : ready;
            out.put(0, value(8, rank, round, 0)).put(1, value(8, rank, round, 1));
            recv.start();
            comm.barrier(); // every receive posted: a ready send may start
            send.start();
            if (round == 0) {
                MPIException e = expectError(failures, "start of an active request", send::start);
                if (e != null && (e.getErrorClass() != MPI.ERR_REQUEST || !e.getMessage().contains("start")
                        || !e.getMessage().contains("sSendInit"))) {
                    failures.add("rank " + rank + ": start of an active sSendInit: " + e.getErrorClass() + " "
                            + e.getMessage());
                }
            }
            Request.waitAll(new Request[] {send, recv});
            expect(failures, rank, round, "mode int 0", in.get(0), value(8, prev, round, 0));
            expect(failures, rank, round, "mode int 1", in.get(1), value(8, prev, round, 1));
            Status s = recv.getStatus(); // inactive: an empty status
            if (s == null) {
                failures.add("rank " + rank + " round " + round + ": getStatus of an inactive request is null");
            }
        }
        // A request twice in startAll: refused, nothing started (the other one is still inactive and starts).
        MPIException twice = expectError(failures, "a request twice in startAll",
                () -> Prequest.startAll(new Prequest[] {recv, sync, recv}));
        if (twice != null && twice.getErrorClass() != MPI.ERR_REQUEST) {
            failures.add("rank " + rank + ": startAll with a request twice: class " + twice.getErrorClass());
        }
        // Freed while active: the handle is null at once, and the round still arrives.
        out.put(0, 4242).put(1, 4343);
        recv.start();
        comm.barrier();
        sync.free();
        ready.start();
        ready.free();
        if (!ready.isNull()) {
            failures.add("rank " + rank + ": an active request freed is not null");
        }
        recv.waitFor();
        expect(failures, rank, -1, "freed send's int 0", in.get(0), 4242);
        expect(failures, rank, -1, "freed send's int 1", in.get(1), 4343);
        expectError(failures, "start of a freed request", ready::start);
        recv.free();
        comm.barrier();
    }

    @FunctionalInterface
    private interface Action {
        void run() throws MPIException;
    }

    private static MPIException expectError(List<String> failures, String what, Action call) {
        try {
            call.run();
        } catch (MPIException e) {
            return e;
        }
        failures.add(what + ": no error");
        return null;
    }

    private static void expect(List<String> failures, int rank, int round, String what, int got, int expected) {
        if (got != expected) {
            failures.add("rank " + rank + " round " + round + ": " + what + " is " + got + ", expected " + expected);
        }
    }

    private static void checkStatus(List<String> failures, String what, Status s, int source, int tag, int count,
                                    Datatype type) throws MPIException {
        if (s == null || s.getSource() != source || s.getTag() != tag || s.getCount(type) != count) {
            failures.add(what + ": status " + (s == null ? "null" : "source " + s.getSource() + " tag " + s.getTag()
                    + " count " + s.getCount(type)) + ", expected source " + source + " tag " + tag + " count "
                    + count);
        }
    }
}
