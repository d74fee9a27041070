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

        // The same non-commutative ops through reduce, scan, exScan and the reduce-scatters, against the sequential
        // products in rank order. product's elements are 16 bytes (railcoll's own algorithms combine them in rank
        // order); triProduct's are 12 (gathered and folded in rank order here).
        long[] m4 = {rank + 2, rank + 1, 2 * rank + 1, 3 - rank};   // two 2x2 matrices a rank
        long[] atOne = new long[4];
        int rankOne = 1 % size; // rank 1, or rank 0 alone
        MPI.COMM_WORLD.reduce(m4, rank == rankOne ? atOne : null, 2, mat, product, rankOne);
        if (rank == rankOne) {
            check(rank, "reduce product", atOne, seq2(size - 1, m4.length, DerivedAndOps::m4));
        }
        long[] scanned = new long[4];
        MPI.COMM_WORLD.scan(m4, scanned, 2, mat, product);
        check(rank, "scan product", scanned, seq2(rank, 4, DerivedAndOps::m4));
        long[] exm = m4.clone();
        MPI.COMM_WORLD.exScan(exm, 2, mat, product);
        check(rank, "exScan product", exm, rank == 0 ? m4 : seq2(rank - 1, 4, DerivedAndOps::m4));
        int[] t6 = tri6(rank);
        int[] triAt2 = new int[6];
        MPI.COMM_WORLD.reduce(t6, triAt2, 2, tri, triProduct, size - 1);
        if (rank == size - 1) {
            check(rank, "reduce triangular", triAt2, seq3(size - 1, 6, DerivedAndOps::tri6));
        }
        int[] triScan = tri6(rank);
        MPI.COMM_WORLD.scan(triScan, 2, tri, triProduct);
        check(rank, "scan triangular", triScan, seq3(rank, 6, DerivedAndOps::tri6));
        int[] triEx = new int[6];
        MPI.COMM_WORLD.exScan(t6, triEx, 2, tri, triProduct);
        check(rank, "exScan triangular", triEx, rank == 0 ? new int[6] : seq3(rank - 1, 6, DerivedAndOps::tri6));
        // reduceScatterBlock: one matrix for each rank, matrix j of rank r is (r + j + 2, j - r)
        long[] perRank = new long[2 * size];
        for (int j = 0; j < size; j++) {
            perRank[2 * j] = rank + j + 2;
            perRank[2 * j + 1] = j - rank;
        }
        long[] myBlock = new long[2];
        MPI.COMM_WORLD.reduceScatterBlock(perRank, myBlock, 1, mat, product);
        check(rank, "reduceScatterBlock product", myBlock, seq2(size - 1, 2, r -> new long[] {r + rank + 2, rank - r}));
        // reduceScatter with uneven counts (rank i gets i+1 triangles), in place: triangle k of rank r is (r+1, k, 2)
        int[] triCounts = new int[size];
        int triTotal = 0;
        for (int i = 0; i < size; i++) {
            triCounts[i] = i + 1;
            triTotal += i + 1;
        }
        int[] tris = new int[3 * triTotal];
        for (int k = 0; k < triTotal; k++) {
            tris[3 * k] = rank + 1;
            tris[3 * k + 1] = k;
            tris[3 * k + 2] = 2;
        }
        MPI.COMM_WORLD.reduceScatter(tris, triCounts, tri, triProduct);
        int first = rank * (rank + 1) / 2;   // the triangles before this rank's block
        int[] wantTris = new int[3 * (rank + 1)];
        for (int k = 0; k <= rank; k++) {
            final int kk = first + k;
            int[] one = seq3(size - 1, 3, r -> new int[] {r + 1, kk, 2});
            System.arraycopy(one, 0, wantTris, 3 * k, 3);
        }
        check(rank, "reduceScatter triangular", Arrays.copyOf(tris, 3 * (rank + 1)), wantTris);

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

    static long[] m4(int r) {
        return new long[] {r + 2, r + 1, 2 * r + 1, 3 - r};
    }

    static int[] tri6(int r) {
        return new int[] {r + 1, r + 2, r + 3, 1, r, 2};
    }

    /** x0 * x1 * ... * x(upTo) of [[a, b], [0, 1]] matrices stored as (a, b) pairs, computed here in rank order. */
    static long[] seq2(int upTo, int longs, java.util.function.IntFunction<long[]> of) {
        long[] acc = of.apply(0).clone();
        for (int r = 1; r <= upTo; r++) {
            long[] y = of.apply(r);
            for (int i = 0; i < longs; i += 2) {
                long a = acc[i] * y[i];
                long b = acc[i] * y[i + 1] + acc[i + 1];
                acc[i] = a;
                acc[i + 1] = b;
            }
        }
        return acc;
    }

    /** x0 * x1 * ... * x(upTo) of [[a, b], [0, c]] matrices stored as (a, b, c), computed here in rank order. */
    static int[] seq3(int upTo, int ints, java.util.function.IntFunction<int[]> of) {
        int[] acc = of.apply(0).clone();
        for (int r = 1; r <= upTo; r++) {
            int[] y = of.apply(r);
            for (int i = 0; i < ints; i += 3) {
                int a = acc[i] * y[i], b = acc[i] * y[i + 1] + acc[i + 1] * y[i + 2], c = acc[i + 2] * y[i + 2];
                acc[i] = a;
                acc[i + 1] = b;
                acc[i + 2] = c;
            }
        }
        return acc;
    }

    /** One line per check: the values and "ok", or what was expected instead. */
    static void check(int rank, String what, Object actual, Object expected) {
        String got = Arrays.deepToString(new Object[] {actual});
        String want = Arrays.deepToString(new Object[] {expected});
        System.out.println("rank " + rank + " " + what + " " + got + (got.equals(want) ? " ok" : " MISMATCH, expected " + want));
    }
}
