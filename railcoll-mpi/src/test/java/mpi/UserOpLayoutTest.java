package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Regression (decision 0216, bug 1): a user op on a type whose data runs past {@code count * extent} bytes from the
 * origin (lower bound above 0) failed with an IndexOutOfBoundsException inside the op, because the elements were laid
 * out for the function in {@code count * extent} bytes. Found by {@link RandomMpiCallsTest}.
 */
class UserOpLayoutTest {
    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    private static final Op SUM = new Op(new UserFunction() {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            int[] a = (int[]) in;
            int[] b = (int[]) inOut;
            for (int i = 0; i < b.length; i++) {
                b[i] += a[i];
            }
        }
    }, true);

    @Test
    void aUserOpSeesEveryElementOfATypeWithAPositiveLowerBound() throws Exception {
        List<Object> results = InProcessComms.onRanks(2, (comm, rank) -> {
            Datatype shifted = Datatype.createIndexed(new int[] {1}, new int[] {1}, MPI.INT); // lb 4 bytes, extent 4
            shifted.commit();
            int[] in = {-1, 10 + rank, 20 + rank, 30 + rank, -1};
            int[] out = {7, 7, 7, 7, 7};
            comm.allReduce(in, out, 3, shifted, SUM);
            return out;
        });
        for (Object r : results) {
            assertArrayEquals(new int[] {7, 21, 41, 61, 7}, (int[]) r);
        }
    }

    @Test
    void reduceLocalToo() throws MPIException {
        Datatype shifted = Datatype.createIndexed(new int[] {1}, new int[] {1}, MPI.INT);
        shifted.commit();
        int[] inOut = {-1, 100, 200, 300, -1};
        Comm.reduceLocal(new int[] {-1, 1, 2, 3, -1}, inOut, 3, shifted, SUM);
        assertArrayEquals(new int[] {-1, 101, 202, 303, -1}, inOut);
    }
}
