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
 * <r> q1 <r> q3 <r>}. Args: collective (allgather, allgather-inplace, allgather-inplace-separate, gather, scatter, alltoall, bcast: bytes per
 * rank or block; allreduce, allreduce-inplace, reduce, reduce-inplace, reducescatterblock, scan, exscan: a SUM of
 * bytes/8 doubles), bytes, seconds, barrier (see {@link #calls}). Run: {@code bin/railcoll run --placement 2 --classpath <classes> MpiBlocks allgather 8 10 1}.
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
        Runnable[] calls = calls(api, collective, bytes, rank, size);
        Runnable apiCall = calls[0];
        Runnable mpiCall = calls[1];
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

    /** An MPI call as a Runnable (the bench's calls throw no MPIException unless something is broken). */
    private interface MpiCall {
        void run() throws MPIException;
    }

    private static Runnable mpi(MpiCall call) {
        return () -> {
            try {
                call.run();
            } catch (MPIException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /**
     * {API call, mpi call} of {@code collective} on direct buffers, the same memory on both paths. Reductions are a
     * SUM of bytes/8 doubles per rank (reducescatterblock: per block); the others move bytes per rank (per block for
     * alltoall and scatter). Roots are 0. allgather-inplace runs the API's in-place all-gather (decision 0220);
     * allgather-inplace-separate the same mpi call against the API's all-gather from a separate buffer, which is what
     * allgather-inplace meant before 0220 (the API had no in-place form), for comparing trees.
     */
    private static Runnable[] calls(Communicator api, String collective, int bytes, int rank, int size) {
        Intracomm w = MPI.COMM_WORLD;
        int n = Math.max(1, bytes / 8);
        boolean root = rank == 0;
        switch (collective) {
            case "allreduce", "allreduce-inplace", "reduce", "reduce-inplace", "scan", "exscan" -> {
                DoubleBuffer in = MPI.newDoubleBuffer(n);
                DoubleBuffer out = MPI.newDoubleBuffer(n);
                MemorySegment inSeg = MemorySegment.ofBuffer(in);
                MemorySegment outSeg = MemorySegment.ofBuffer(out);
                ElementType d = ElementType.DOUBLE;
                PredefinedOperator sum = PredefinedOperator.SUM;
                return switch (collective) {
                    case "allreduce" -> new Runnable[] {() -> api.allreduce(inSeg, outSeg, d, n, sum),
                            mpi(() -> w.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM))};
                    case "allreduce-inplace" -> new Runnable[] {() -> api.allreduce(outSeg, d, n, sum),
                            mpi(() -> w.allReduce(out, n, MPI.DOUBLE, MPI.SUM))};
                    case "reduce" -> new Runnable[] {() -> api.reduce(inSeg, root ? outSeg : null, d, n, sum, 0),
                            mpi(() -> w.reduce(in, out, n, MPI.DOUBLE, MPI.SUM, 0))};
                    case "reduce-inplace" -> new Runnable[] {() -> api.reduce(outSeg, d, n, sum, 0),
                            mpi(() -> w.reduce(out, n, MPI.DOUBLE, MPI.SUM, 0))};
                    case "scan" -> new Runnable[] {() -> api.scan(inSeg, outSeg, d, n, sum),
                            mpi(() -> w.scan(in, out, n, MPI.DOUBLE, MPI.SUM))};
                    default -> new Runnable[] {() -> api.exscan(inSeg, outSeg, d, n, sum),
                            mpi(() -> w.exScan(in, out, n, MPI.DOUBLE, MPI.SUM))};
                };
            }
            case "reducescatterblock" -> {
                DoubleBuffer in = MPI.newDoubleBuffer(n * size);
                DoubleBuffer out = MPI.newDoubleBuffer(n);
                MemorySegment inSeg = MemorySegment.ofBuffer(in);
                MemorySegment outSeg = MemorySegment.ofBuffer(out);
                return new Runnable[] {
                        () -> api.reduceScatterBlock(inSeg, outSeg, ElementType.DOUBLE, n, PredefinedOperator.SUM),
                        mpi(() -> w.reduceScatterBlock(in, out, n, MPI.DOUBLE, MPI.SUM))};
            }
            case "bcast" -> {
                ByteBuffer buf = MPI.newByteBuffer(bytes);
                MemorySegment seg = MemorySegment.ofBuffer(buf);
                return new Runnable[] {() -> api.broadcast(seg, 0), mpi(() -> w.bcast(buf, bytes, MPI.BYTE, 0))};
            }
            default -> {
                ByteBuffer small = MPI.newByteBuffer(bytes);
                ByteBuffer all = MPI.newByteBuffer(bytes * size);
                ByteBuffer all2 = MPI.newByteBuffer(bytes * size);
                MemorySegment smallSeg = MemorySegment.ofBuffer(small);
                MemorySegment allSeg = MemorySegment.ofBuffer(all);
                MemorySegment all2Seg = MemorySegment.ofBuffer(all2);
                return switch (collective) {
                    case "allgather" -> new Runnable[] {() -> api.allgather(smallSeg, allSeg),
                            mpi(() -> w.allGather(small, bytes, MPI.BYTE, all, bytes, MPI.BYTE))};
                    case "allgather-inplace" -> new Runnable[] {() -> api.allgather(allSeg, bytes),
                            mpi(() -> w.allGather(all, bytes, MPI.BYTE))};
                    case "allgather-inplace-separate" -> new Runnable[] {() -> api.allgather(smallSeg, allSeg),
                            mpi(() -> w.allGather(all, bytes, MPI.BYTE))};
                    case "gather" -> new Runnable[] {() -> api.gather(smallSeg, root ? allSeg : null, 0),
                            mpi(() -> w.gather(small, bytes, MPI.BYTE, all, bytes, MPI.BYTE, 0))};
                    case "scatter" -> new Runnable[] {() -> api.scatter(root ? allSeg : null, smallSeg, 0),
                            mpi(() -> w.scatter(all, bytes, MPI.BYTE, small, bytes, MPI.BYTE, 0))};
                    case "alltoall" -> new Runnable[] {() -> api.alltoall(allSeg, all2Seg),
                            mpi(() -> w.allToAll(all, bytes, MPI.BYTE, all2, bytes, MPI.BYTE))};
                    default -> throw new IllegalArgumentException("unknown collective " + collective);
                };
            }
        }
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
