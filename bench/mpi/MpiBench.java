import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Arrays;

import io.railcoll.Communicator;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import mpi.*;

/**
 * railcoll-mpi against railcoll's own API in one run (issue 23: the mpi layer's overhead at most 1.1x): all-reduce (a
 * sum of size/8 doubles) and all-gather (size bytes per rank) on the same direct buffers, through {@code
 * MPI.COMM_WORLD} and through the railcoll communicator under it ({@link RailcollInterop}).
 *
 * <p>Timed as {@code railcoll bench} times (docs/benchmarking.md): each call on its own with a barrier between calls,
 * each rank averages its calls, a sample is the largest average over the ranks (a MAX reduce to rank 0). The samples
 * of the two paths alternate (API, mpi, then mpi, API, ...), so both see the same load on a shared machine; a point's
 * ratio is the median over sample pairs of mpi / API. A sample is as many calls as fit 100 ms at the API's fastest of 3
 * warm calls, at most 1000, after about 10 s of JIT warm-up of both paths over every collective and size.
 *
 * <p>Allocation and CPU: the bytes each rank's calling thread allocates and the CPU time it uses per call
 * (ThreadMXBean), over 1000 calls of each path after the timing, the largest over the ranks.
 *
 * <p>Rank 0 prints, per collective and size, {@code api|mpi <collective> <size> <median us> <min us> <max us> <calls>}
 * and {@code ratio <collective> <size> <median mpi/api> <min> <max> <api B/call> <mpi B/call> <api CPU ns/call>
 * <mpi CPU ns/call>}. Args: samples, sizes.
 */
public class MpiBench {
    private static final String[] COLLECTIVES = {"allreduce", "allgather"};

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Communicator api = RailcollInterop.communicator(MPI.COMM_WORLD);
        int samples = Integer.parseInt(args[0]);
        // JIT warm-up, as railcoll bench's: every collective and size on both paths, round after round, for about 10 s
        long until = System.nanoTime() + 10_000_000_000L;
        int[] go = {1};
        while (go[0] == 1) {
            for (String collective : COLLECTIVES) {
                for (int a = 1; a < args.length; a++) {
                    Paths p = paths(collective, parse(args[a]), size, api);
                    for (int i = 0; i < 20; i++) {
                        MPI.COMM_WORLD.barrier();
                        p.api.run();
                        MPI.COMM_WORLD.barrier();
                        p.mpi.run();
                    }
                }
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            MPI.COMM_WORLD.bcast(go, 1, MPI.INT, 0);   // rank 0's clock decides for all
        }
        for (String collective : COLLECTIVES) {
            for (int a = 1; a < args.length; a++) {
                int bytes = parse(args[a]);
                Paths p = paths(collective, bytes, size, api);
                int calls = callsPerSample(p.api);
                for (int i = 0; i < Math.min(200, calls); i++) {
                    p.api.run();
                    p.mpi.run();
                }
                double[] apiUs = new double[samples];
                double[] mpiUs = new double[samples];
                double[] ratio = new double[samples];
                for (int s = 0; s < samples; s++) {
                    if (s % 2 == 0) {
                        apiUs[s] = sample(p.api, calls);
                        mpiUs[s] = sample(p.mpi, calls);
                    } else {
                        mpiUs[s] = sample(p.mpi, calls);
                        apiUs[s] = sample(p.api, calls);
                    }
                    ratio[s] = mpiUs[s] / apiUs[s];
                }
                double[] apiCost = costPerCall(p.api);
                double[] mpiCost = costPerCall(p.mpi);
                if (rank == 0) {
                    print("api", collective, bytes, apiUs, calls);
                    print("mpi", collective, bytes, mpiUs, calls);
                    Arrays.sort(ratio);
                    System.out.printf("ratio %s %d %.3f %.3f %.3f %.0f %.0f %.0f %.0f%n", collective, bytes,
                            ratio[(samples - 1) / 2], ratio[0], ratio[samples - 1], apiCost[0], mpiCost[0],
                            apiCost[1], mpiCost[1]);
                }
            }
        }
        MPI.Finalize();
    }

    /**
     * The same call through railcoll's API and through the mpi package, on the same buffers. Each path's lambdas are
     * made once here, so that neither path's bytes per call count an allocation of the bench's own, and each path is
     * one lambda calling the collective, so that neither pays a dispatch of the bench's own that the other does not
     * (the mpi one used to go through a shared wrapper and a second, bimorphic interface call).
     */
    private record Paths(Runnable api, Runnable mpi) {
    }

    private static Paths paths(String name, int bytes, int size, Communicator api) {
        if (name.equals("allreduce")) {
            int n = Math.max(1, bytes / 8);
            DoubleBuffer in = MPI.newDoubleBuffer(n);
            DoubleBuffer out = MPI.newDoubleBuffer(n);
            MemorySegment inSeg = MemorySegment.ofBuffer(in);
            MemorySegment outSeg = MemorySegment.ofBuffer(out);
            return new Paths(() -> api.allreduce(inSeg, outSeg, ElementType.DOUBLE, n, PredefinedOperator.SUM), () -> {
                try {
                    MPI.COMM_WORLD.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM);
                } catch (MPIException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        ByteBuffer in = MPI.newByteBuffer(bytes);
        ByteBuffer out = MPI.newByteBuffer(bytes * size);
        MemorySegment inSeg = MemorySegment.ofBuffer(in);
        MemorySegment outSeg = MemorySegment.ofBuffer(out);
        return new Paths(() -> api.allgather(inSeg, outSeg), () -> {
            try {
                MPI.COMM_WORLD.allGather(in, bytes, MPI.BYTE, out, bytes, MPI.BYTE);
            } catch (MPIException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** One sample: every rank times {@code calls} calls, a barrier before each; the largest rank average, on rank 0. */
    private static double sample(Runnable call, int calls) throws MPIException {
        long total = 0;
        for (int i = 0; i < calls; i++) {
            MPI.COMM_WORLD.barrier();
            long t0 = System.nanoTime();
            call.run();
            total += System.nanoTime() - t0;
        }
        return maxOverRanks(total / 1e3 / calls);
    }

    /**
     * Bytes this thread allocates and nanoseconds of CPU it uses per call over 1000 back-to-back calls, each the
     * largest over the ranks, on rank 0. The CPU time counts the waits that spin as work, but not time the thread was
     * off the processor: on a loaded host it tells the two paths' work apart where their latencies do not.
     */
    private static double[] costPerCall(Runnable call) throws MPIException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        MPI.COMM_WORLD.barrier();
        long bytes = threads.getCurrentThreadAllocatedBytes();
        long cpu = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < 1000; i++) {
            call.run();
        }
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        bytes = threads.getCurrentThreadAllocatedBytes() - bytes;
        return new double[] {maxOverRanks(bytes / 1000.0), maxOverRanks(cpu / 1000.0)};
    }

    private static double maxOverRanks(double value) throws MPIException {
        double[] mine = {value};
        double[] max = new double[1];
        MPI.COMM_WORLD.reduce(mine, max, 1, MPI.DOUBLE, MPI.MAX, 0);
        return max[0];
    }

    private static void print(String path, String collective, int bytes, double[] us, int calls) {
        double[] sorted = us.clone();
        Arrays.sort(sorted);
        System.out.printf("%s %s %d %.2f %.2f %.2f %d%n", path, collective, bytes, sorted[(sorted.length - 1) / 2],
                sorted[0], sorted[sorted.length - 1], calls);
    }

    /** As many calls as fit 100 ms at the fastest of 3 warm ones on rank 0, at most 1000; every rank gets rank 0's. */
    private static int callsPerSample(Runnable call) throws MPIException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            MPI.COMM_WORLD.barrier();
            long t0 = System.nanoTime();
            call.run();
            best = Math.min(best, System.nanoTime() - t0);
        }
        int[] calls = {(int) Math.max(1, Math.min(1000, 100_000_000L / Math.max(1, best)))};
        MPI.COMM_WORLD.bcast(calls, 1, MPI.INT, 0);
        return calls[0];
    }

    private static int parse(String s) {
        s = s.toLowerCase();
        int mult = s.endsWith("k") ? 1024 : s.endsWith("m") ? 1024 * 1024 : 1;
        return Integer.parseInt(mult == 1 ? s : s.substring(0, s.length() - 1)) * mult;
    }
}
