import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Arrays;

import io.railcoll.Communicator;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import mpi.*;

/**
 * railcoll-mpi against railcoll's own API for one collective and size, in many short alternating blocks: a steadier
 * ratio than {@code MpiBench}'s on a loaded host, where one sample's ratio can swing 0.1-100x. Blocks of 2000 calls
 * of each path alternate (API then mpi) for {@code seconds}, after 30 warm-up blocks of each; a block's figure is
 * rank 0's mean per call, and the ratio is the median over block pairs of mpi / API, with its quartiles.
 *
 * <p>With {@code barrier} 1 each call is timed alone after a barrier, as {@code MpiBench} times; with 0 the block's
 * calls run back to back (one barrier before the block) and the figure is the block's time over its calls. On one
 * rank ({@code --placement 1}) the collective is a local copy, which leaves the layer's own cost per call bare.
 *
 * <p>Prints on rank 0: {@code <collective> <bytes> barrier=<b> rounds=<blocks> api med <ns> mpi med <ns> ratio med
 * <r> q1 <r> q3 <r>}. Args: collective (allgather: bytes per rank; allreduce: a SUM of bytes/8 doubles), bytes,
 * seconds, barrier. Run: {@code bin/railcoll run --placement 2 --classpath <classes> MpiBlocks allgather 8 10 1}.
 */
public class MpiBlocks {
    private static final int BLOCK = 2000;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Communicator api = RailcollInterop.communicator(MPI.COMM_WORLD);
        String collective = args[0];
        int bytes = Integer.parseInt(args[1]);
        double seconds = Double.parseDouble(args[2]);
        boolean barrier = args[3].equals("1");
        Runnable apiCall;
        Runnable mpiCall;
        if (collective.equals("allreduce")) {
            int n = Math.max(1, bytes / 8);
            DoubleBuffer in = MPI.newDoubleBuffer(n);
            DoubleBuffer out = MPI.newDoubleBuffer(n);
            MemorySegment inSeg = MemorySegment.ofBuffer(in);
            MemorySegment outSeg = MemorySegment.ofBuffer(out);
            apiCall = () -> api.allreduce(inSeg, outSeg, ElementType.DOUBLE, n, PredefinedOperator.SUM);
            mpiCall = () -> {
                try {
                    MPI.COMM_WORLD.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM);
                } catch (MPIException e) {
                    throw new IllegalStateException(e);
                }
            };
        } else {
            ByteBuffer in = MPI.newByteBuffer(bytes);
            ByteBuffer out = MPI.newByteBuffer(bytes * size);
            MemorySegment inSeg = MemorySegment.ofBuffer(in);
            MemorySegment outSeg = MemorySegment.ofBuffer(out);
            apiCall = () -> api.allgather(inSeg, outSeg);
            mpiCall = () -> {
                try {
                    MPI.COMM_WORLD.allGather(in, bytes, MPI.BYTE, out, bytes, MPI.BYTE);
                } catch (MPIException e) {
                    throw new IllegalStateException(e);
                }
            };
        }
        for (int i = 0; i < 30; i++) {
            block(apiCall, barrier);
            block(mpiCall, barrier);
        }
        double[] apiNs = new double[1 << 20];
        double[] mpiNs = new double[1 << 20];
        int blocks = 0;
        long until = System.nanoTime() + (long) (seconds * 1e9);
        int[] go = {1};
        while (go[0] == 1 && blocks < apiNs.length) {
            apiNs[blocks] = block(apiCall, barrier);
            mpiNs[blocks] = block(mpiCall, barrier);
            blocks++;
            go[0] = System.nanoTime() < until ? 1 : 0;
            MPI.COMM_WORLD.bcast(go, 1, MPI.INT, 0); // rank 0's clock decides for all
        }
        if (rank == 0) {
            double[] ratio = new double[blocks];
            for (int i = 0; i < blocks; i++) {
                ratio[i] = mpiNs[i] / apiNs[i];
            }
            double[] a = Arrays.copyOf(apiNs, blocks);
            double[] m = Arrays.copyOf(mpiNs, blocks);
            Arrays.sort(a);
            Arrays.sort(m);
            Arrays.sort(ratio);
            System.out.printf("%s %d barrier=%b rounds=%d api med %.1f ns mpi med %.1f ns ratio med %.3f q1 %.3f q3 %.3f%n",
                    collective, bytes, barrier, blocks, a[blocks / 2], m[blocks / 2], ratio[blocks / 2],
                    ratio[blocks / 4], ratio[3 * blocks / 4]);
        }
        MPI.Finalize();
    }

    /** Rank's mean ns per call over one block. */
    private static double block(Runnable call, boolean barrier) throws MPIException {
        if (!barrier) {
            MPI.COMM_WORLD.barrier();
            long t0 = System.nanoTime();
            for (int i = 0; i < BLOCK; i++) {
                call.run();
            }
            return (System.nanoTime() - t0) / (double) BLOCK;
        }
        long total = 0;
        for (int i = 0; i < BLOCK; i++) {
            MPI.COMM_WORLD.barrier();
            long t0 = System.nanoTime();
            call.run();
            total += System.nanoTime() - t0;
        }
        return total / (double) BLOCK;
    }
}
