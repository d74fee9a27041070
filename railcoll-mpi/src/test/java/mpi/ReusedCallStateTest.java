package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
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

    /**
     * A repeated all-gather or all-reduce on direct buffers goes straight to railcoll (decision 0209): it still moves
     * the buffers' current contents, a changed count or buffer is a new call, a collection in between changes nothing,
     * and a datatype or op freed since the last like call is an error, not a call.
     */
    @Test
    void repeatedCallsThatGoStraightToRailcollGiveTheResultsAndErrorsOfFreshOnes() throws Exception {
        List<Object> failures = InProcessComms.onRanks(2, (comm, rank) -> {
            int mine = rank + 1;
            ByteBuffer in = MPI.newByteBuffer(8);
            ByteBuffer out = MPI.newByteBuffer(16);
            ByteBuffer other = MPI.newByteBuffer(16);
            for (int round = 0; round < 6; round++) {
                int count = round < 4 ? 8 : 3;
                ByteBuffer into = round == 3 ? other : out;
                for (int i = 0; i < 8; i++) {
                    in.put(i, (byte) (mine * 10 + round + i));
                }
                for (int i = 0; i < 16; i++) {
                    out.put(i, (byte) -1);
                    other.put(i, (byte) -2);
                }
                comm.allGather(in, count, MPI.BYTE, into, count, MPI.BYTE);
                for (int i = 0; i < 16; i++) {
                    int block = i / count;
                    byte want = block < 2 ? (byte) ((block + 1) * 10 + round + i % count) : (byte) (into == out ? -1 : -2);
                    assertEquals(want, into.get(i), "round " + round + ", byte " + i);
                    assertEquals(into == out ? (byte) -2 : (byte) -1, (into == out ? other : out).get(i),
                            "round " + round + ": the buffer not passed, byte " + i);
                }
                if (round == 1) {
                    System.gc();
                }
            }
            DoubleBuffer x = MPI.newDoubleBuffer(4);
            DoubleBuffer sum = MPI.newDoubleBuffer(4);
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 4; i++) {
                    x.put(i, mine * (round + i));
                }
                comm.allReduce(x, sum, 4, MPI.DOUBLE, round == 2 ? MPI.MAX : MPI.SUM);
                for (int i = 0; i < 4; i++) {
                    assertEquals(round == 2 ? 2.0 * (round + i) : 3.0 * (round + i), sum.get(i), "round " + round);
                }
            }
            // A derived contiguous type and a user op that railcoll runs itself, freed after like calls.
            Datatype ints = Datatype.createContiguous(2, MPI.INT);
            ints.commit();
            Op product = new Op(new UserFunction() {
                @Override
                public void call(Object inBuf, Object inOutBuf, int count, Datatype type) {
                    int[] a = (int[]) inBuf;
                    int[] b = (int[]) inOutBuf;
                    for (int i = 0; i < count * 2; i++) {
                        b[i] = a[i] * b[i];
                    }
                }
            }, true);
            IntBuffer p = MPI.newIntBuffer(2);
            IntBuffer q = MPI.newIntBuffer(2);
            IntBuffer all = MPI.newIntBuffer(4);
            for (int round = 0; round < 3; round++) {
                p.put(0, mine + round);
                p.put(1, mine * 3);
                comm.allReduce(p, q, 1, ints, product);
                assertEquals((1 + round) * (2 + round), q.get(0), "round " + round);
                assertEquals(18, q.get(1), "round " + round);
                comm.allGather(p, 1, ints, all, 1, ints);
                assertEquals(List.of(1 + round, 3, 2 + round, 6),
                        List.of(all.get(0), all.get(1), all.get(2), all.get(3)), "round " + round);
            }
            product.free();
            MPIException opFreed = assertThrows(MPIException.class, () -> comm.allReduce(p, q, 1, ints, product));
            assertEquals(MPI.ERR_OP, opFreed.getErrorClass(), opFreed.getMessage());
            ints.free();
            MPIException typeFreed = assertThrows(MPIException.class, () -> comm.allGather(p, 1, ints, all, 1, ints));
            assertEquals(MPI.ERR_TYPE, typeFreed.getErrorClass(), typeFreed.getMessage());
            MPIException reduceTypeFreed = assertThrows(MPIException.class,
                    () -> comm.allReduce(p, q, 1, ints, MPI.SUM));
            assertEquals(MPI.ERR_TYPE, reduceTypeFreed.getErrorClass(), reduceTypeFreed.getMessage());
            // The communicator still works after the errors, on the buffers it remembered.
            comm.allGather(in, 8, MPI.BYTE, out, 8, MPI.BYTE);
            assertEquals((byte) (20 + 5), out.get(8));
            return null;
        });
        assertEquals(2, failures.size());
    }
}
