package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The forms of {@link Request}'s waits and tests that return statuses or index arrays allocate only what they return
 * (decision 0168): a {@code recvInit} and a {@code sendInit} of 64 bytes to this rank itself, each round started by
 * {@code startAll} and completed by one form ({@code waitStatus}, {@code testStatus}, {@code waitAllStatus},
 * {@code testAllStatus}, {@code waitAnyStatus}, {@code testAnyStatus}, {@code waitSome}, {@code waitSomeStatus},
 * {@code testSome}, {@code testSomeStatus}). One rank ({@link InProcessComms}): with no peer the figure is exact.
 *
 * <p>Each form's bound is what the bindings make it return, in bytes of this JVM (measured here by allocating the same
 * objects into a sink: a {@code Status}, {@code Status[n]}, {@code int[n]}), plus {@link #SLACK_BYTES}, less than the
 * smallest object: one temporary per call (an array of operations, a
 * {@code boolean[]}, a record, a second {@code Status} copied to set its index) fails it. A test loop that finds
 * nothing finished must allocate nothing: {@code testStatus}, {@code testAllStatus} and {@code testAnyStatus} return
 * null, {@code testSome} and {@code testSomeStatus} an empty array (one shared). Bytes the calling thread allocates
 * ({@code ThreadMXBean.getCurrentThreadAllocatedBytes}) over {@link #ROUNDS} warmed-up rounds, the smallest mean of
 * {@link #REPEATS} repeats. Allocation, not time: the figure does not depend on the machine's load.
 */
class StatusFormsAllocationTest {
    private static final double SLACK_BYTES = 8;
    private static final int WARM_UP_ROUNDS = 20_000;
    private static final int ROUNDS = 2_000;
    private static final int REPEATS = 5;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @FunctionalInterface
    private interface Round {
        void run() throws Exception;
    }

    private static Object sink;
    /** Bytes of the objects the rounds returned, added up by each round as it goes (see the class comment). */
    private static double returned;
    private static double status;
    /** Bytes of an {@code int[n]} and a {@code Status[n]}, n = 0, 1, 2. */
    private static final double[] INTS = new double[3];
    private static final double[] STATUSES = new double[3];

    @Test
    void theStatusFormsAllocateOnlyWhatTheyReturn() throws Exception {
        status = sizeOf(() -> sink = Status.of(0, 0, 0, 64));
        for (int n = 0; n < 3; n++) {
            int length = n;
            INTS[n] = sizeOf(() -> sink = new int[length]);
            STATUSES[n] = sizeOf(() -> sink = new Status[length]);
        }
        List<Object> perRank = InProcessComms.onRanks(1, (comm, rank) -> {
            ByteBuffer out = MPI.newByteBuffer(64);
            ByteBuffer in = MPI.newByteBuffer(64);
            Prequest recv = comm.recvInit(in, 64, MPI.BYTE, 0, 5);
            Prequest send = comm.sendInit(out, 64, MPI.BYTE, 0, 5);
            Prequest[] both = {recv, send};
            byte[] round = {0};
            Map<String, Round> cases = new LinkedHashMap<>();
            cases.put("waitStatus both", () -> {
                out.put(0, ++round[0]);
                Prequest.startAll(both);
                sink = send.waitStatus();
                Status s = recv.waitStatus();
                if (s.getCount(MPI.BYTE) != 64 || s.getTag() != 5 || in.get(0) != round[0]) {
                    throw new AssertionError("round " + round[0] + ": " + s + ", received " + in.get(0));
                }
                returned += 2 * status;
            });
            cases.put("testStatus loops", () -> {
                Prequest.startAll(both);
                while ((sink = send.testStatus()) == null) {
                    Thread.onSpinWait();
                }
                while ((sink = recv.testStatus()) == null) {
                    Thread.onSpinWait();
                }
                returned += 2 * status;
            });
            cases.put("waitAllStatus", () -> {
                Prequest.startAll(both);
                Status[] s = Request.waitAllStatus(both);
                if (s.length != 2 || s[0].getCount(MPI.BYTE) != 64 || s[0].getIndex() != 0) {
                    throw new AssertionError(java.util.Arrays.toString(s));
                }
                returned += STATUSES[2] + 2 * status;
            });
            cases.put("testAllStatus loop", () -> {
                Prequest.startAll(both);
                while ((sink = Request.testAllStatus(both)) == null) {
                    Thread.onSpinWait();
                }
                returned += STATUSES[2] + 2 * status;
            });
            cases.put("waitAnyStatus twice", () -> {
                Prequest.startAll(both);
                int a = Request.waitAnyStatus(both).getIndex();
                int b = Request.waitAnyStatus(both).getIndex();
                if (a + b != 1) {
                    throw new AssertionError("indices " + a + ", " + b);
                }
                returned += 2 * status;
            });
            cases.put("testAnyStatus loop", () -> {
                Prequest.startAll(both);
                for (int done = 0; done < 2; ) {
                    done += (sink = Request.testAnyStatus(both)) == null ? 0 : 1;
                }
                returned += 2 * status;
            });
            cases.put("waitSome until both", () -> {
                Prequest.startAll(both);
                for (int done = 0; done < 2; ) {
                    int[] got = Request.waitSome(both);
                    done += got.length;
                    returned += INTS[got.length];
                }
            });
            cases.put("waitSomeStatus until both", () -> {
                Prequest.startAll(both);
                for (int done = 0; done < 2; ) {
                    Status[] got = Request.waitSomeStatus(both);
                    done += got.length;
                    returned += STATUSES[got.length] + got.length * status;
                }
            });
            cases.put("testSome until both", () -> {
                Prequest.startAll(both);
                for (int done = 0; done < 2; ) {
                    int[] got = Request.testSome(both);
                    done += got.length;
                    returned += got.length == 0 ? 0 : INTS[got.length];
                }
            });
            cases.put("testSomeStatus until both", () -> {
                Prequest.startAll(both);
                for (int done = 0; done < 2; ) {
                    Status[] got = Request.testSomeStatus(both);
                    done += got.length;
                    returned += got.length == 0 ? 0 : STATUSES[got.length] + got.length * status;
                }
            });
            Map<String, double[]> bytes = new LinkedHashMap<>();
            for (Map.Entry<String, Round> c : cases.entrySet()) {
                Round r = c.getValue();
                for (int i = 0; i < WARM_UP_ROUNDS; i++) {
                    r.run();
                }
                double least = Double.MAX_VALUE;
                double bound = 0;
                for (int k = 0; k < REPEATS; k++) {
                    returned = 0;
                    double b = bytesPerRound(r);
                    if (b < least) {
                        least = b;
                        bound = returned / ROUNDS;
                    }
                }
                bytes.put(c.getKey(), new double[] {least, bound});
            }
            recv.free();
            send.free();
            return bytes;
        });
        @SuppressWarnings("unchecked")
        Map<String, double[]> bytes = (Map<String, double[]>) perRank.get(0);
        StringBuilder all = new StringBuilder("bytes per round (one rank, 64 B to itself; measured / returned): "
                + "Status " + status + ", int[0..2] " + java.util.Arrays.toString(INTS) + ", Status[0..2] "
                + java.util.Arrays.toString(STATUSES));
        bytes.forEach((k, v) -> all.append("\n  ").append(k).append(": ").append(v[0]).append(" / ").append(v[1]));
        System.out.println(all);
        for (Map.Entry<String, double[]> e : bytes.entrySet()) {
            assertTrue(e.getValue()[0] <= e.getValue()[1] + SLACK_BYTES, e.getKey() + ": " + e.getValue()[0]
                    + " B per round, bound " + e.getValue()[1] + " + " + SLACK_BYTES + ":\n" + all);
        }
    }

    /**
     * The status a wait or test reports is made for it, not kept: one {@code getStatus} handed out before (and the
     * program changed) is not the one {@code waitStatus} or {@code waitAnyStatus} returns, and each says what the
     * round received (with its index where the form sets one).
     */
    @Test
    void eachReportedStatusIsASnapshotOfItsOwn() throws Exception {
        List<Object> perRank = InProcessComms.onRanks(1, (comm, rank) -> {
            ByteBuffer out = MPI.newByteBuffer(16);
            ByteBuffer in = MPI.newByteBuffer(16);
            Prequest recv = comm.recvInit(in, 16, MPI.BYTE, 0, 8);
            Prequest send = comm.sendInit(out, 16, MPI.BYTE, 0, 8);
            Prequest[] both = {send, recv};
            StringBuilder wrong = new StringBuilder();
            for (int form = 0; form < 2; form++) {
                Prequest.startAll(both);
                send.waitFor();
                Status looked;
                while ((looked = recv.getStatus()) == null) {
                    Thread.onSpinWait();
                }
                looked.setCancelled(true);
                looked.setElements(MPI.BYTE, 3);
                Status reported = form == 0 ? recv.waitStatus() : Request.waitAnyStatus(both);
                if (reported == looked || reported.isCancelled() || reported.getCount(MPI.BYTE) != 16
                        || reported.getTag() != 8 || reported.getIndex() != form) {
                    wrong.append(form == 0 ? "waitStatus: " : "waitAnyStatus: ").append(reported).append(' ');
                }
            }
            recv.free();
            send.free();
            return wrong.toString();
        });
        assertEquals("", perRank.get(0));
    }

    /** Bytes one {@code allocation} takes (it stores into {@link #sink}, so it is made). */
    private static double sizeOf(Round allocation) throws Exception {
        for (int i = 0; i < WARM_UP_ROUNDS; i++) {
            allocation.run();
        }
        double least = Double.MAX_VALUE;
        for (int k = 0; k < REPEATS; k++) {
            least = Math.min(least, bytesPerRound(allocation));
        }
        return least;
    }

    private static double bytesPerRound(Round round) throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < ROUNDS; i++) {
            round.run();
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / (double) ROUNDS;
    }
}
