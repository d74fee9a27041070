package io.railcoll.systemtest.launch;

import io.railcoll.Communicator;
import io.railcoll.Railcoll;
import io.railcoll.bootstrap.BootstrapSources;

import java.util.Arrays;

/**
 * A plain program as a user writes it: a {@code main} that calls {@link Railcoll#init()} with whatever launcher
 * started it, runs barrier, all-gather, broadcast, gather and all-to-all at several sizes and checks every byte.
 * Prints {@code LAUNCHED-OK rank R of N source S node K local L/M init T ms} (T: how long {@code Railcoll.init()}
 * took) and exits 0; any wrong byte throws (exit 1).
 */
public final class LaunchedMain {
    private LaunchedMain() {
    }

    /**
     * {@code late RANK SECONDS}: the process mpirun numbers RANK (its {@code OMPI_COMM_WORLD_RANK}) waits that long
     * before joining, to show that the others give up at their start-up deadline.
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length == 3 && args[0].equals("late") && args[1].equals(System.getenv("OMPI_COMM_WORLD_RANK"))) {
            Thread.sleep(Long.parseLong(args[2]) * 1000);
        }
        String source = BootstrapSources.choose(System.getenv());
        long start = System.nanoTime();
        try (Communicator comm = Railcoll.init()) {
            long initMs = (System.nanoTime() - start) / 1_000_000;
            int r = comm.rank();
            int n = comm.size();
            comm.barrier();
            for (int b : new int[] {1, 1000, 70_000}) {
                byte[] all = new byte[b * n];
                comm.allgather(pattern(r, 0, b, 1), all);
                for (int q = 0; q < n; q++) {
                    check("allgather", b, q, Arrays.copyOfRange(all, q * b, (q + 1) * b), pattern(q, 0, b, 1));
                }
                int root = n - 1;
                byte[] bc = r == root ? pattern(root, 0, b, 2) : new byte[b];
                comm.broadcast(bc, root);
                check("broadcast", b, root, bc, pattern(root, 0, b, 2));
                byte[] gathered = new byte[b * n];
                comm.gather(pattern(r, 0, b, 3), gathered, 0);
                if (r == 0) {
                    for (int q = 0; q < n; q++) {
                        check("gather", b, q, Arrays.copyOfRange(gathered, q * b, (q + 1) * b), pattern(q, 0, b, 3));
                    }
                }
                byte[] send = new byte[b * n];
                for (int p = 0; p < n; p++) {
                    System.arraycopy(pattern(r, p, b, 4), 0, send, p * b, b);
                }
                byte[] recv = new byte[b * n];
                comm.alltoall(send, recv);
                for (int q = 0; q < n; q++) {
                    check("alltoall", b, q, Arrays.copyOfRange(recv, q * b, (q + 1) * b), pattern(q, r, b, 4));
                }
            }
            comm.barrier();
            System.out.println("LAUNCHED-OK rank " + r + " of " + n + " source " + source + " node " + comm.nodeId()
                    + " local " + comm.localRank() + "/" + comm.localSize() + " init " + initMs + " ms");
            System.out.flush();
        }
    }

    /** Bytes rank {@code from} sends to {@code to} in call {@code call}: different for every pair, size and call. */
    static byte[] pattern(int from, int to, int bytes, int call) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (from * 131 + to * 31 + call * 17 + i * 7 + (i >>> 8));
        }
        return b;
    }

    private static void check(String what, int bytes, int from, byte[] got, byte[] expected) {
        int at = Arrays.mismatch(got, expected);
        if (at >= 0) {
            throw new IllegalStateException(what + " of " + bytes + " B: the block from rank " + from + " differs at byte "
                    + at + " (got " + got[at] + ", expected " + expected[at] + ")");
        }
    }
}
