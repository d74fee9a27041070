package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code iDup} is non-blocking (MPI_Comm_idup): it returns before the other ranks have called it, non-blocking
 * collectives may be started on the parent while it is in flight and completed in either order, and the new
 * communicator refuses calls (an {@code MPI.ERR_COMM} error, not a hang) until its request has completed. Real ranks
 * over railcoll in this JVM ({@link InProcessComms}).
 */
class IDupNonBlockingTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    /**
     * An {@code iDup} and an {@code iAllReduce} on the parent in flight together; even ranks complete the dup first,
     * odd ranks the all-reduce first; then both orders again on every rank alike.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {3, 5})
    void iDupInFlightWithAnIAllReduceOnTheParentCompletesInEitherOrder(int n) throws Exception {
        List<Object> got = InProcessComms.onRanks(n, (comm, rank) -> {
            List<String> out = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                Intracomm d = comm.iDup();
                Request dupDone = d.getRequest();
                String early = errorClassOf(() -> d.allReduce(new int[] {1}, new int[1], 1, MPI.INT, MPI.SUM));
                IntBuffer send = MPI.newIntBuffer(1).put(0, rank + 1 + round);
                IntBuffer recv = MPI.newIntBuffer(1);
                Request sum = comm.iAllReduce(send, recv, 1, MPI.INT, MPI.SUM);
                boolean dupFirst = round == 0 ? rank % 2 == 0 : round == 1;
                if (dupFirst) {
                    dupDone.waitFor();
                    sum.waitFor();
                } else {
                    while (!sum.test()) {
                        Thread.onSpinWait();
                    }
                    dupDone.waitFor();
                }
                int[] onDup = new int[1];
                d.allReduce(new int[] {rank}, onDup, 1, MPI.INT, MPI.MAX);
                out.add(early + "," + recv.get(0) + "," + onDup[0] + "," + d.getSize() + ","
                        + Comm.compare(comm, d) + "," + dupDone.isNull());
                d.free();
            }
            return String.join(";", out);
        });
        int total = n * (n + 1) / 2;
        List<String> round = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            round.add(MPI.ERR_COMM + "," + (total + n * r) + "," + (n - 1) + "," + n + "," + MPI.CONGRUENT + ",true");
        }
        assertEquals(Collections.nCopies(n, String.join(";", round)), got);
    }

    /**
     * Rank 0's {@code iDup} returns before rank 1 has called its own: rank 1 first waits for a message rank 0 sends
     * after its {@code iDup} (the program decision 0117's blocking form deadlocked on).
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {3, 5})
    void iDupReturnsBeforeTheOtherRanksCallIt(int n) throws Exception {
        List<Object> got = InProcessComms.onRanks(n, (comm, rank) -> {
            int[] token = new int[1];
            Intracomm d;
            if (rank == 0) {
                d = comm.iDup();
                comm.send(new int[] {42}, 1, MPI.INT, 1, 7);
            } else {
                if (rank == 1) {
                    comm.recv(token, 1, MPI.INT, 0, 7);
                }
                d = comm.iDup();
            }
            Request.waitAll(new Request[] {d.getRequest()});
            int[] sum = new int[1];
            d.allReduce(new int[] {token[0]}, sum, 1, MPI.INT, MPI.SUM);
            d.free();
            return sum[0];
        });
        assertEquals(Collections.nCopies(n, 42), got);
    }

    /** A Cartesian communicator's {@code iDup} keeps its topology and its neighbourhood collectives. */
    @Test
    void iDupOfACartCommKeepsItsNeighbourhood() throws Exception {
        List<Object> got = InProcessComms.onRanks(3, (comm, rank) -> {
            CartComm ring = comm.createCart(new int[] {3}, new boolean[] {true}, false);
            CartComm d = ring.iDup();
            String early = errorClassOf(() -> d.neighborAllGather(new int[] {rank}, 1, MPI.INT, new int[2], 1,
                    MPI.INT));
            d.getRequest().waitFor();
            int[] both = new int[2];
            d.neighborAllGather(new int[] {rank}, 1, MPI.INT, both, 1, MPI.INT);
            String out = early + "," + d.getTopology() + "," + both[0] + "," + both[1];
            d.free();
            ring.free();
            return out;
        });
        assertEquals(List.of(MPI.ERR_COMM + "," + MPI.CART + ",2,1", MPI.ERR_COMM + "," + MPI.CART + ",0,2",
                MPI.ERR_COMM + "," + MPI.CART + ",1,0"), got);
    }

    @FunctionalInterface
    private interface Call {
        void run() throws MPIException;
    }

    /** The error class {@code call} fails with, or "none". */
    private static String errorClassOf(Call call) {
        try {
            call.run();
            return "none";
        } catch (MPIException e) {
            return String.valueOf(e.getErrorClass());
        }
    }
}
