package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * iSend and iRecv reuse the operation behind a request once a wait or test has reported it (decision 0159): on 3
 * real ranks ({@link InProcessComms}) in a ring, many rounds of messages, each round waited for another way
 * ({@code waitFor}, {@code waitStatus}, a {@code test} loop, {@code Request.waitAll}, which reuses nothing), on a
 * direct buffer (received in place) and on an {@code int[]}-backed one (staged, delivered by the finishing work),
 * checked element by element with their statuses; a status handed out earlier must not change when later rounds reuse
 * the operation it came from.
 */
class ReusedMessageRequestTest {
    private static final int RANKS = 3;
    private static final int ROUNDS = 40;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void reusedOperationsDeliverEveryRoundsMessagesAndStatuses() throws Exception {
        List<Object> got = InProcessComms.onRanks(RANKS, (comm, rank) -> {
            List<String> failures = new ArrayList<>();
            int right = (rank + 1) % RANKS;
            int left = (rank + RANKS - 1) % RANKS;
            Status first = null;
            for (int round = 0; round < ROUNDS; round++) {
                int tag = round % 5;
                int count = 1 + round % 7;
                ByteBuffer direct = MPI.newByteBuffer(16);
                IntBuffer heap = IntBuffer.wrap(new int[8]);
                ByteBuffer out = MPI.newByteBuffer(16);
                IntBuffer outInts = IntBuffer.wrap(new int[8]);
                for (int i = 0; i < count; i++) {
                    out.put(i, (byte) (rank * 50 + round + i));
                    outInts.put(i, rank * 100_000 + round * 100 + i);
                }
                Request r1 = comm.iRecv(direct, count, MPI.BYTE, left, tag);
                Request r2 = comm.iRecv(heap, count, MPI.INT, left, tag + 10);
                Request s1 = comm.iSend(out, count, MPI.BYTE, right, tag);
                Request s2 = comm.iSend(outInts, count, MPI.INT, right, tag + 10);
                Status st1;
                Status st2;
                switch (round % 4) {
                    case 0 -> {
                        s1.waitFor();
                        s2.waitFor();
                        st1 = r1.waitStatus();
                        st2 = r2.waitStatus();
                    }
                    case 1 -> {
                        while (!s1.test() | !s2.test()) {
                            Thread.onSpinWait();
                        }
                        Status a;
                        while ((a = r1.testStatus()) == null) {
                            Thread.onSpinWait();
                        }
                        st1 = a;
                        r2.waitFor();
                        st2 = null;
                    }
                    case 2 -> {
                        Status[] all = Request.waitAllStatus(new Request[] {r1, r2, s1, s2});
                        st1 = all[0];
                        st2 = all[1];
                    }
                    default -> {
                        st2 = r2.waitStatus();
                        st1 = r1.waitStatus();
                        Request.waitAll(new Request[] {s1, s2});
                    }
                }
                if (!r1.isNull() || !r2.isNull() || !s1.isNull() || !s2.isNull()) {
                    failures.add("round " + round + ": a reported request's handle is not null");
                }
                for (int i = 0; i < count; i++) {
                    if (direct.get(i) != (byte) (left * 50 + round + i)) {
                        failures.add("round " + round + ": byte " + i + " is " + direct.get(i));
                        break;
                    }
                    if (heap.get(i) != left * 100_000 + round * 100 + i) {
                        failures.add("round " + round + ": int " + i + " is " + heap.get(i));
                        break;
                    }
                }
                check(failures, round, "direct", st1, left, tag, count, MPI.BYTE);
                if (st2 != null) {
                    check(failures, round, "int[]", st2, left, tag + 10, count, MPI.INT);
                }
                if (first == null) {
                    first = st1;
                }
            }
            check(failures, -1, "round 0's status, after every later round", first, left, 0, 1, MPI.BYTE);
            return failures;
        });
        for (int r = 0; r < RANKS; r++) {
            assertEquals(List.of(), got.get(r), "rank " + r);
        }
    }

    private static void check(List<String> failures, int round, String what, Status s, int source, int tag, int count,
                              Datatype type) throws MPIException {
        if (s.getSource() != source || s.getTag() != tag || s.getCount(type) != count) {
            failures.add("round " + round + " " + what + ": status source " + s.getSource() + " tag " + s.getTag()
                    + " count " + s.getCount(type) + ", expected " + source + ", " + tag + ", " + count);
        }
    }
}
