package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.DoubleBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What a communicator's blocking calls remember across calls (decision 0136) never changes a result or hides an error:
 * the buffer views with their leading slices (other counts on the same buffer, more buffers than the table holds, a
 * collection in between), the transfers and the reduction plans (other ops on the same datatype, a user op, a freed
 * datatype or op after use). Two real ranks ({@link InProcessComms}); rank r contributes r + 1.
 */
class ReusedCallStateTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void rememberedViewsTransfersAndPlansGiveTheResultsAndErrorsOfFreshOnes() throws Exception {
        List<Object> failures = InProcessComms.onRanks(2, (comm, rank) -> {
            double mine = rank + 1;
            // One pair of buffers, larger than the counts, which change from call to call: only `count` elements move.
            DoubleBuffer in = MPI.newDoubleBuffer(16);
            DoubleBuffer out = MPI.newDoubleBuffer(16);
            for (int count : new int[] {16, 4, 16, 8, 8, 1}) {
                for (int i = 0; i < 16; i++) {
                    in.put(i, mine * (i + 1));
                    out.put(i, -1);
                }
                comm.allReduce(in, out, count, MPI.DOUBLE, MPI.SUM);
                for (int i = 0; i < 16; i++) {
                    assertEquals(i < count ? 3.0 * (i + 1) : -1, out.get(i), "count " + count + ", element " + i);
                }
            }
            // More buffers than the table holds, in a cycle, with a collection in the middle.
            double[][] arrays = new double[BufferViews.SLOTS * 2 + 1][];
            for (int round = 0; round < 3; round++) {
                for (int a = 0; a < arrays.length; a++) {
                    if (round == 0) {
                        arrays[a] = new double[2];
                    }
                    arrays[a][0] = mine * a;
                    arrays[a][1] = mine;
                    comm.allReduce(arrays[a], 2, MPI.DOUBLE, a % 2 == 0 ? MPI.SUM : MPI.MAX);
                    assertEquals(a % 2 == 0 ? 3.0 * a : 2.0 * a, arrays[a][0], "array " + a + ", round " + round);
                    assertEquals(a % 2 == 0 ? 3.0 : 2.0, arrays[a][1], "array " + a + ", round " + round);
                }
                System.gc();
            }
            // The same datatype under several ops, a user op among them, which receives the very Datatype object.
            Datatype pair = Datatype.createContiguous(2, MPI.DOUBLE);
            pair.commit();
            Datatype[] seen = new Datatype[1];
            Op product = new Op(new UserFunction() {
                @Override
                public void call(Object inBuf, Object inOutBuf, int count, Datatype type) {
                    seen[0] = type;
                    double[] a = (double[]) inBuf;
                    double[] b = (double[]) inOutBuf;
                    for (int i = 0; i < count * 2; i++) {
                        b[i] = a[i] * b[i];
                    }
                }
            }, true);
            double[] x = new double[2];
            for (Op op : new Op[] {MPI.SUM, MPI.MAX, product, MPI.SUM, product, MPI.MIN}) {
                x[0] = mine;
                x[1] = mine + 10;
                comm.allReduce(x, 1, pair, op);
                double[] want = op == MPI.SUM ? new double[] {3, 23} : op == MPI.MAX ? new double[] {2, 12}
                        : op == MPI.MIN ? new double[] {1, 11} : new double[] {2, 132};
                assertEquals(want[0], x[0], op.toString());
                assertEquals(want[1], x[1], op.toString());
            }
            assertSame(pair, seen[0], "the user op receives the Datatype object the call was given");
            // Freed after use: the remembered transfer and plan do not make them usable.
            product.free();
            MPIException opFreed = assertThrows(MPIException.class, () -> comm.allReduce(x, 1, pair, product));
            assertEquals(MPI.ERR_OP, opFreed.getErrorClass(), opFreed.getMessage());
            pair.free();
            MPIException typeFreed = assertThrows(MPIException.class, () -> comm.allReduce(x, 1, pair, MPI.SUM));
            assertEquals(MPI.ERR_TYPE, typeFreed.getErrorClass(), typeFreed.getMessage());
            // The communicator still works after the errors, on the buffers it remembered.
            in.put(0, mine);
            comm.bcast(in, 1, MPI.DOUBLE, 1);
            assertEquals(2.0, in.get(0));
            return null;
        });
        assertEquals(2, failures.size());
    }
}
