package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code bSendInit} on real ranks (decision 0167; {@link InProcessComms}, one rank sending to itself, and rank 0 to
 * rank 1 on one node and on two): the attached buffer's account (a start without one, or with one a byte too small
 * for the message plus {@code MPI.BSEND_OVERHEAD}, is {@code MPI.ERR_BUFFER} and leaves the request inactive; one
 * exactly the size takes every round of a loop, its room given back as each message is received; detaching hands the
 * array back and empties the account), the program's buffer changed right after each start (the message is what it
 * held at the start), a derived type with gaps on a heap buffer (packed at each start), zero-byte messages, and a
 * start while the last round's message is still in flight (it must not be overwritten: it goes as a copy of its
 * own, its room taken too). Every message is checked byte for byte against what the sender held at its start.
 */
class BufferedPersistentSendTest {
    private static final int ROUNDS = 20;
    private static final int INTS = 9;
    /** Large enough that its send may wait for the receiver (beyond the rails' eager copy). */
    private static final int LARGE_BYTES = 300_001;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @ParameterizedTest(name = "nodes {0}")
    @ValueSource(strings = {"1", "2", "1,1"})
    void bufferedPersistentSendsConform(String placement) throws Exception {
        int[] nodes = Arrays.stream(placement.split(",")).mapToInt(Integer::parseInt).toArray();
        int n = Arrays.stream(nodes).sum();
        List<Object> got = InProcessComms.onNodes(nodes, (comm, rank) -> {
            List<String> failures = new ArrayList<>();
            int to = n - 1; // rank 0 sends to the last rank (itself on one rank)
            if (rank == 0) {
                account(comm, to, failures);
            }
            comm.barrier();
            rounds(comm, rank, to, failures);
            comm.barrier();
            inFlight(comm, rank, to, failures);
            comm.barrier();
            return failures;
        });
        for (int r = 0; r < n; r++) {
            assertEquals(List.of(), got.get(r), "rank " + r + " of " + n);
        }
    }

    private static void check(List<String> failures, boolean ok, String what) {
        if (!ok) {
            failures.add(what);
        }
    }

    /** ERR_BUFFER without a buffer and with one a byte short; the request stays inactive and startable. */
    private static void account(Intracomm comm, int to, List<String> failures) throws MPIException {
        IntBuffer out = MPI.newIntBuffer(INTS);
        Prequest send = comm.bSendInit(out, INTS, MPI.INT, to, 40);
        int room = 4 * INTS + MPI.BSEND_OVERHEAD;
        check(failures, errorClassOfStart(send) == MPI.ERR_BUFFER, "start with no buffer attached: not ERR_BUFFER");
        check(failures, send.test() && !send.isNull(), "a refused start left the request active or null");
        byte[] short1 = new byte[room - 1];
        MPI.attachBuffer(short1);
        check(failures, errorClassOfStart(send) == MPI.ERR_BUFFER, "start with a buffer a byte short: not ERR_BUFFER");
        check(failures, BufferedSends.roomTaken() == 0, "a refused start took room: " + BufferedSends.roomTaken());
        check(failures, MPI.detachBuffer() == short1, "detachBuffer did not hand back the array");
        send.free();
        check(failures, send.isNull(), "free left the request non-null");
    }

    /** MPI.ERR_* of {@code p.start()}'s error, or SUCCESS (the round then completed). */
    private static int errorClassOfStart(Prequest p) throws MPIException {
        try {
            p.start();
        } catch (MPIException e) {
            return e.getErrorClass();
        }
        p.waitFor();
        return MPI.SUCCESS;
    }

    /**
     * ROUNDS rounds with a buffer that fits exactly one message of each request at a time: a direct buffer, a strided
     * type on a heap array, and a zero-byte message; the program's buffers changed right after each start.
     */
    private static void rounds(Intracomm comm, int rank, int to, List<String> failures) throws MPIException {
        int[] heap = new int[2 * INTS];
        Datatype everyOther = Datatype.createVector(INTS, 1, 2, MPI.INT);
        everyOther.commit();
        if (rank == 0) {
            IntBuffer out = MPI.newIntBuffer(INTS);
            byte[] attached = new byte[3 * MPI.BSEND_OVERHEAD + 2 * 4 * INTS];
            MPI.attachBuffer(attached);
            Prequest direct = comm.bSendInit(out, INTS, MPI.INT, to, 41);
            Prequest strided = comm.bSendInit(IntBuffer.wrap(heap), 1, everyOther, to, 42);
            Prequest empty = comm.bSendInit(out, 0, MPI.INT, to, 43);
            Prequest[] all = {direct, strided, empty};
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < INTS; i++) {
                    out.put(i, value(1, round, i));
                    heap[2 * i] = value(2, round, i);
                    heap[2 * i + 1] = -1;
                }
                if (round % 2 == 0) {
                    Prequest.startAll(all);
                } else {
                    for (Prequest p : all) {
                        p.start();
                    }
                }
                for (int i = 0; i < INTS; i++) { // the program's own again: what was there at the start is sent
                    out.put(i, -7);
                    heap[2 * i] = -7;
                }
                check(failures, Request.testAll(all), "round " + round + ": a buffered round not finished at once");
                if (to == 0) {
                    receiveRound(comm, round, failures);
                }
                comm.sendRecv(new int[0], 0, MPI.INT, to, 49, new int[0], 0, MPI.INT, to, 49); // received by now
            }
            for (Prequest p : all) {
                p.free();
            }
            check(failures, MPI.detachBuffer() == attached, "detachBuffer did not hand back the array");
            check(failures, BufferedSends.roomTaken() == 0, "room left taken after detach");
        } else if (rank == to) {
            for (int round = 0; round < ROUNDS; round++) {
                receiveRound(comm, round, failures);
                comm.sendRecv(new int[0], 0, MPI.INT, 0, 49, new int[0], 0, MPI.INT, 0, 49);
            }
        }
        everyOther.free();
    }

    private static void receiveRound(Intracomm comm, int round, List<String> failures) throws MPIException {
        int[] in = new int[INTS];
        Status s = comm.recv(in, INTS, MPI.INT, 0, 41);
        for (int i = 0; i < INTS; i++) {
            check(failures, in[i] == value(1, round, i), "round " + round + " direct[" + i + "] = " + in[i]);
        }
        check(failures, s.getCount(MPI.INT) == INTS, "round " + round + " direct count " + s.getCount(MPI.INT));
        comm.recv(in, INTS, MPI.INT, 0, 42);
        for (int i = 0; i < INTS; i++) {
            check(failures, in[i] == value(2, round, i), "round " + round + " strided[" + i + "] = " + in[i]);
        }
        s = comm.recv(in, INTS, MPI.INT, 0, 43);
        check(failures, s.getCount(MPI.INT) == 0, "round " + round + " empty count " + s.getCount(MPI.INT));
    }

    /**
     * A large message started twice before the receiver takes either: the first round's message may still be in
     * flight at the second start, which must then send a copy of its own (room for two is attached) and leave the
     * first intact. Both arrive in order, each as it was at its start.
     */
    private static void inFlight(Intracomm comm, int rank, int to, List<String> failures) throws MPIException {
        if (rank == 0) {
            ByteBuffer out = MPI.newByteBuffer(LARGE_BYTES);
            byte[] attached = new byte[2 * (LARGE_BYTES + MPI.BSEND_OVERHEAD)];
            MPI.attachBuffer(attached);
            Prequest send = comm.bSendInit(out, LARGE_BYTES, MPI.BYTE, to, 44);
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < LARGE_BYTES; i++) {
                    out.put(i, (byte) value(3, round, i));
                }
                send.start();
                send.waitFor();
                long taken = BufferedSends.roomTaken(); // this round's; the last one's too while it is in flight
                long room = LARGE_BYTES + MPI.BSEND_OVERHEAD;
                check(failures, taken == room || (round == 1 && taken == 2 * room), "round " + round + ": room taken "
                        + taken + ", one message's is " + room);
            }
            if (to == 0) {
                receiveLarge(comm, failures);
            } else {
                comm.send(new int[0], 0, MPI.INT, to, 48); // both started
            }
            send.free();
            check(failures, MPI.detachBuffer() == attached, "detachBuffer did not hand back the array");
        } else if (rank == to) {
            comm.recv(new int[0], 0, MPI.INT, 0, 48);
            receiveLarge(comm, failures);
        }
    }

    private static void receiveLarge(Intracomm comm, List<String> failures) throws MPIException {
        byte[] in = new byte[LARGE_BYTES];
        for (int round = 0; round < 2; round++) {
            comm.recv(in, LARGE_BYTES, MPI.BYTE, 0, 44);
            int wrong = 0;
            for (int i = 0; i < LARGE_BYTES; i++) {
                wrong += in[i] == (byte) value(3, round, i) ? 0 : 1;
            }
            check(failures, wrong == 0, "large round " + round + ": " + wrong + " bytes wrong");
        }
    }

    private static int value(int stream, int round, int i) {
        return stream * 1_000_003 + round * 1_009 + i * 7 + (round ^ i);
    }
}
