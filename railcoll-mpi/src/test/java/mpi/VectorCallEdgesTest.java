package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Regressions of the v-collectives found by {@link RandomMpiCallsTest} (decision 0216, bugs 2 and 3). */
class VectorCallEdgesTest {
    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    /**
     * Bug 2: {@code iAllGatherv} ran railcoll's all-gatherv on a rank whose receive buffer was direct and of a
     * contiguous type, and an all-gather of padded blocks on a rank with a heap buffer (or a strided type): ranks that
     * differ there (MPI lets each rank pick its receive type) ran different collectives and failed with a mismatch.
     */
    @Test
    void iAllGathervWithADirectBufferOnOneRankAndAHeapOneOnTheOther() throws Exception {
        List<Object> results = InProcessComms.onRanks(2, (comm, rank) -> {
            int[] counts = {2, 1};
            int[] displs = {1, 4};
            IntBuffer out = rank == 0 ? MPI.newIntBuffer(6) : IntBuffer.wrap(new int[6]);
            for (int i = 0; i < 6; i++) {
                out.put(i, -1);
            }
            IntBuffer mine = MPI.newIntBuffer(2);
            mine.put(0, 10 * rank + 1).put(1, 10 * rank + 2);
            comm.iAllGatherv(mine, counts[rank], MPI.INT, out, counts, displs, MPI.INT).waitFor();
            int[] got = new int[6];
            out.get(0, got);
            return got;
        });
        for (Object r : results) {
            assertArrayEquals(new int[] {-1, 1, 2, -1, 11, -1}, (int[]) r);
        }
    }

    /** Bug 3: a block of no elements displaced past the end of the buffer threw IndexOutOfBoundsException. */
    @Test
    void aBlockOfNoElementsMayBeDisplacedPastTheBuffer() throws Exception {
        List<Object> results = InProcessComms.onRanks(2, (comm, rank) -> {
            int[] send = {rank + 1, -7};
            int[] recv = {-1, -1};
            int[] counts = rank == 0 ? new int[] {1, 0} : new int[] {0, 1}; // to itself only
            int[] displs = rank == 0 ? new int[] {0, 9} : new int[] {9, 0}; // the empty block past the end
            comm.allToAllv(send, counts, displs, MPI.INT, recv, counts, displs, MPI.INT);
            int[] all = {-1, -1};
            comm.allGatherv(new int[] {rank + 5}, rank == 0 ? 1 : 0, MPI.INT, all, new int[] {1, 0},
                    new int[] {0, 5}, MPI.INT);
            return new int[] {recv[0], recv[1], all[0], all[1]};
        });
        assertArrayEquals(new int[] {1, -1, 5, -1}, (int[]) results.get(0));
        assertArrayEquals(new int[] {2, -1, 5, -1}, (int[]) results.get(1));
    }
}
