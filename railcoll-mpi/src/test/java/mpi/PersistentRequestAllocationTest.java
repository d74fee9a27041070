package mpi;

import io.railcoll.Communicator;
import io.railcoll.MessageRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A persistent request's round allocates nothing in the mpi layer on a direct buffer (decision 0185): a
 * {@code recvInit} and a {@code sendInit} of 64 bytes to this rank itself, each round {@code start} of both and
 * {@code waitFor} of both (and started by {@code startAll}, completed by {@code waitAll}, {@code testAll},
 * {@code waitAny}, {@code testAny} and {@code test} loops: every form that reports no status; and a {@code bSendInit}
 * round, copied into the request's own memory with its room in an attached buffer that fits one message, decision
 * 0167), against the same rounds
 * through railcoll-core's persistent requests ({@link RailcollInterop}) on the same memory. One rank
 * ({@link InProcessComms}), as {@link MpiLayerAllocationTest}: with no peer the figure is exact.
 *
 * <p>Bytes the calling thread allocates ({@code ThreadMXBean.getCurrentThreadAllocatedBytes}) over {@link #ROUNDS}
 * warmed-up rounds, the smallest mean of {@link #REPEATS} repeats. The mpi rounds may allocate at most
 * {@link #BOUND_BYTES} per round, and at most that above the API's: less than the smallest object, so one object per
 * start fails (before decision 0185 each start made an {@code Operation}, a {@code Started} pair, a railcoll request
 * and its operation: 1040 B per round of the pair; {@code waitAll} and {@code waitAny} made their arrays and statuses). Allocation, not time: the figure does not depend on the machine's load.
 */
class PersistentRequestAllocationTest {
    private static final double BOUND_BYTES = 8;
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

    @Test
    void aPersistentRoundOnADirectBufferAllocatesNothingInTheMpiLayer() throws Exception {
        List<Object> perRank = InProcessComms.onRanks(1, (comm, rank) -> {
            Communicator api = RailcollInterop.communicator(comm);
            ByteBuffer out = MPI.newByteBuffer(64);
            ByteBuffer in = MPI.newByteBuffer(64);
            Prequest recv = comm.recvInit(in, 64, MPI.BYTE, 0, 5);
            Prequest send = comm.sendInit(out, 64, MPI.BYTE, 0, 5);
            Prequest[] both = {recv, send};
            MemorySegment outSeg = MemorySegment.ofBuffer(out);
            MemorySegment inSeg = MemorySegment.ofBuffer(in);
            MessageRequest apiRecv = api.recvInit(inSeg, 0, 6);
            MessageRequest apiSend = api.sendInit(outSeg, 0, 6);
            byte[] round = {0};
            Map<String, Round> cases = new LinkedHashMap<>();
            cases.put("API: start both, await both", () -> {
                apiRecv.start();
                apiSend.start();
                apiSend.await();
                apiRecv.await();
            });
            cases.put("mpi: start both, waitFor both", () -> {
                out.put(0, ++round[0]);
                recv.start();
                send.start();
                send.waitFor();
                recv.waitFor();
                if (in.get(0) != round[0]) {
                    throw new AssertionError("round " + round[0] + " received " + in.get(0));
                }
            });
            cases.put("mpi: startAll, waitFor both", () -> {
                Prequest.startAll(both);
                send.waitFor();
                recv.waitFor();
            });
            cases.put("mpi: startAll, waitAll", () -> {
                Prequest.startAll(both);
                Request.waitAll(both);
            });
            cases.put("mpi: startAll, testAll until done", () -> {
                Prequest.startAll(both);
                while (!Request.testAll(both)) {
                    Thread.onSpinWait();
                }
            });
            cases.put("mpi: startAll, waitAny twice", () -> {
                Prequest.startAll(both);
                Request.waitAny(both);
                Request.waitAny(both);
            });
            cases.put("mpi: startAll, testAny until both done", () -> {
                Prequest.startAll(both);
                for (int done = 0; done < 2; ) {
                    done += Request.testAny(both) == MPI.UNDEFINED ? 0 : 1;
                }
            });
            cases.put("mpi: start both, test until done", () -> {
                recv.start();
                send.start();
                while (!send.test()) {
                    Thread.onSpinWait();
                }
                while (!recv.test()) {
                    Thread.onSpinWait();
                }
            });
            // A buffered persistent send (decision 0167): copied into its own memory, its room in the attached buffer.
            byte[] attached = new byte[64 + MPI.BSEND_OVERHEAD];
            MPI.attachBuffer(attached);
            Prequest bRecv = comm.recvInit(in, 64, MPI.BYTE, 0, 7);
            Prequest bSend = comm.bSendInit(out, 64, MPI.BYTE, 0, 7);
            cases.put("mpi: bSendInit and recvInit, start both, waitFor both", () -> {
                out.put(0, ++round[0]);
                bRecv.start();
                bSend.start();
                out.put(0, (byte) 0); // the program's buffer is its own again once the start has returned
                bSend.waitFor();
                bRecv.waitFor();
                if (in.get(0) != round[0]) {
                    throw new AssertionError("buffered round " + round[0] + " received " + in.get(0));
                }
            });
            Map<String, Double> bytes = new LinkedHashMap<>();
            for (Map.Entry<String, Round> c : cases.entrySet()) {
                for (int i = 0; i < WARM_UP_ROUNDS; i++) {
                    c.getValue().run();
                }
                double least = Double.MAX_VALUE;
                for (int r = 0; r < REPEATS; r++) {
                    least = Math.min(least, bytesPerRound(c.getValue()));
                }
                bytes.put(c.getKey(), least);
            }
            recv.free();
            send.free();
            bRecv.free();
            bSend.free();
            if (MPI.detachBuffer() != attached) {
                throw new AssertionError("detachBuffer did not hand back the attached array");
            }
            return bytes;
        });
        @SuppressWarnings("unchecked")
        Map<String, Double> bytes = (Map<String, Double>) perRank.get(0);
        System.out.println("bytes per persistent round (one rank, 64 B to itself): " + bytes);
        double api = bytes.get("API: start both, await both");
        for (Map.Entry<String, Double> e : bytes.entrySet()) {
            if (e.getKey().startsWith("mpi")) {
                assertTrue(e.getValue() <= BOUND_BYTES && e.getValue() - api <= BOUND_BYTES,
                        e.getKey() + ": " + e.getValue() + " B per round (API " + api + "), bound " + BOUND_BYTES
                                + ": " + bytes);
            }
        }
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
