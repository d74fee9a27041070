import java.nio.ByteBuffer;
import java.util.Arrays;

import mpi.*;

/** A derived vector type, a user Op, MINLOC, and an error returned instead of fatal. */
public class DerivedAndOps {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();

        // Column 1 of a 3x4 row-major matrix: 3 blocks of 1 double, 4 apart.
        Datatype column = Datatype.createVector(3, 1, 4, MPI.DOUBLE);
        column.commit();
        double[] matrix = new double[12];
        if (rank == 0) {
            for (int i = 0; i < 12; i++) {
                matrix[i] = i;
            }
        }
        MPI.COMM_WORLD.bcast(MPI.slice(matrix, 1), 1, column, 0);
        System.out.println("rank " + rank + " column " + Arrays.toString(matrix));

        double[] cols = new double[3 * size];
        double[] local = new double[12];
        Arrays.fill(local, rank);
        MPI.COMM_WORLD.allGather(local, 1, column, cols, 3, MPI.DOUBLE);
        System.out.println("rank " + rank + " columns " + Arrays.toString(cols));

        // 2x2 upper triangular matrices [[a, b], [0, 1]] multiplied in rank order: not commutative.
        Datatype mat = Datatype.createContiguous(2, MPI.LONG);
        mat.commit();
        Op product = new Op(new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                long[] in = (long[]) inVec;
                long[] io = (long[]) inOutVec;
                for (int i = 0; i < count; i++) {
                    long a1 = in[2 * i], b1 = in[2 * i + 1], a2 = io[2 * i], b2 = io[2 * i + 1];
                    io[2 * i] = a1 * a2;
                    io[2 * i + 1] = a1 * b2 + b1;
                }
            }
        }, false);
        long[] m = {rank + 2, rank + 1};
        long[] p = new long[2];
        MPI.COMM_WORLD.allReduce(m, p, 1, mat, product);
        System.out.println("rank " + rank + " product " + Arrays.toString(p));

        // Upper triangular [[a, b], [0, c]] as 3 ints (12 bytes an element), multiplied in rank order.
        Datatype tri = Datatype.createContiguous(3, MPI.INT);
        tri.commit();
        Op triProduct = new Op(new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                int[] x = (int[]) inVec;
                int[] y = (int[]) inOutVec;
                for (int i = 0; i < 3 * count; i += 3) {
                    int a = x[i] * y[i], b = x[i] * y[i + 1] + x[i + 1] * y[i + 2], c = x[i + 2] * y[i + 2];
                    y[i] = a;
                    y[i + 1] = b;
                    y[i + 2] = c;
                }
            }
        }, false);
        int[] t = {rank + 1, rank + 2, rank + 3, 1, rank, 2};
        MPI.COMM_WORLD.allReduce(t, 2, tri, triProduct);   // in place
        System.out.println("rank " + rank + " triangular " + Arrays.toString(t));

        ByteBuffer pair = MPI.newByteBuffer(16);
        pair.putDouble(0, (rank * 7) % size).putInt(8, rank);
        ByteBuffer where = MPI.newByteBuffer(16);
        MPI.COMM_WORLD.allReduce(pair, where, 1, MPI.DOUBLE_INT, MPI.MAXLOC);
        System.out.println("rank " + rank + " maxloc " + where.getDouble(0) + " at " + where.getInt(8));

        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        try {
            MPI.COMM_WORLD.bcast(m, 1, MPI.LONG, size);
        } catch (MPIException ex) {
            System.out.println("rank " + rank + " error class " + ex.getErrorClass() + " root " + (ex.getErrorClass() == MPI.ERR_ROOT));
        }
        MPI.Finalize();
    }
}
