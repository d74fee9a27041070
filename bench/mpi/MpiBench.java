import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

import mpi.*;

/**
 * All-reduce (a sum of size/8 doubles) and all-gather (size bytes per rank) timed through the mpi package as
 * `railcoll bench` times railcoll and its peers (docs/benchmarking.md): per size, warm-up calls, then samples of calls
 * each timed on its own with a barrier between calls; each rank averages its calls, a sample is the largest average
 * (a reduce MAX to rank 0), a point the median sample. A sample is as many calls as fit 100 ms, at most 1000,
 * estimated from the fastest of 3 warm calls on rank 0, after about 10 s of JIT warm-up over every collective and
 * size. Direct buffers from MPI.newDoubleBuffer/newByteBuffer.
 * Rank 0 prints "mpi <collective> <size> <median us> <min us> <max us> <calls>". Args: samples, then sizes.
 */
public class MpiBench {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int samples = Integer.parseInt(args[0]);
        // JIT warm-up, as railcoll bench's: every collective and size, round after round, for about 10 s
        long until = System.nanoTime() + 10_000_000_000L;
        int[] go = {1};
        while (go[0] == 1) {
            for (String collective : new String[] {"allreduce", "allgather"}) {
                for (int a = 1; a < args.length; a++) {
                    Runnable call = collective(collective, parse(args[a]), size);
                    for (int i = 0; i < 20; i++) {
                        MPI.COMM_WORLD.barrier();
                        call.run();
                    }
                }
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            MPI.COMM_WORLD.bcast(go, 1, MPI.INT, 0);   // rank 0's clock decides for all
        }
        for (String collective : new String[] {"allreduce", "allgather"}) {
            for (int a = 1; a < args.length; a++) {
                int bytes = parse(args[a]);
                Runnable call = collective(collective, bytes, size);
                int calls = callsPerSample(call);
                for (int i = 0; i < Math.min(200, calls); i++) {
                    call.run();
                }
                double[] us = new double[samples];
                for (int s = 0; s < samples; s++) {
                    long total = 0;
                    for (int i = 0; i < calls; i++) {
                        MPI.COMM_WORLD.barrier();
                        long t0 = System.nanoTime();
                        call.run();
                        total += System.nanoTime() - t0;
                    }
                    double[] mean = {total / 1e3 / calls};
                    double[] max = new double[1];
                    MPI.COMM_WORLD.reduce(mean, max, 1, MPI.DOUBLE, MPI.MAX, 0);
                    us[s] = max[0];
                }
                java.util.Arrays.sort(us);
                if (rank == 0) {
                    System.out.printf("mpi %s %d %.2f %.2f %.2f %d%n", collective, bytes, us[(samples - 1) / 2], us[0],
                            us[samples - 1], calls);
                }
            }
        }
        MPI.Finalize();
    }

    private static Runnable collective(String name, int bytes, int size) {
        if (name.equals("allreduce")) {
            int n = Math.max(1, bytes / 8);
            DoubleBuffer in = MPI.newDoubleBuffer(n);
            DoubleBuffer out = MPI.newDoubleBuffer(n);
            return () -> run(() -> MPI.COMM_WORLD.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM));
        }
        ByteBuffer in = MPI.newByteBuffer(bytes);
        ByteBuffer out = MPI.newByteBuffer(bytes * size);
        return () -> run(() -> MPI.COMM_WORLD.allGather(in, bytes, MPI.BYTE, out, bytes, MPI.BYTE));
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

    private interface Call {
        void run() throws MPIException;
    }

    private static void run(Call c) {
        try {
            c.run();
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int parse(String s) {
        s = s.toLowerCase();
        int mult = s.endsWith("k") ? 1024 : s.endsWith("m") ? 1024 * 1024 : 1;
        return Integer.parseInt(mult == 1 ? s : s.substring(0, s.length() - 1)) * mult;
    }
}
