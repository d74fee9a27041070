package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.Request;
import io.railcoll.launcher.RankApp;

import java.util.List;

/** Reductions of failures the random calls found (decision 0214), one rank program each. */
final class RandomCallsRegressionApps {
    private RandomCallsRegressionApps() {
    }

    /**
     * Rank 0 starts an all-to-allv and completes it with test() alone (args: {@code test} or {@code await}); the
     * others run it blocking. Prints {@code ALLTOALLV-OK rank r}.
     */
    public static final class AlltoallvTestOnly implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int n = comm.size();
            long[] counts = new long[n];
            for (int i = 0; i < n; i++) {
                counts[i] = 3 + i + comm.rank();
            }
            long[] recvCounts = new long[n];
            for (int i = 0; i < n; i++) {
                recvCounts[i] = 3 + comm.rank() + i;
            }
            byte[] send = new byte[(int) java.util.Arrays.stream(counts).sum()];
            byte[] recv = new byte[(int) java.util.Arrays.stream(recvCounts).sum()];
            for (int round = 0; round < 3; round++) {
                if (comm.rank() == 0) {
                    Request r = comm.ialltoallv(send, counts, null, recv, recvCounts, null);
                    if (args.contains("await")) {
                        r.await();
                    } else if (args.contains("future")) {
                        var f = r.toCompletableFuture();
                        long t0 = System.nanoTime();
                        while (!f.isDone()) {
                            boolean done = r.test();
                            if (System.nanoTime() - t0 > 20_000_000_000L) {
                                throw new AssertionError("ialltoallv's future not done after 20 s of test() (test says "
                                        + done + "): " + r);
                            }
                        }
                    } else {
                        long t0 = System.nanoTime();
                        while (!r.test()) {
                            if (System.nanoTime() - t0 > 20_000_000_000L) {
                                throw new AssertionError("ialltoallv not done after 20 s of test(): " + r);
                            }
                        }
                    }
                } else {
                    comm.alltoallv(send, counts, null, recv, recvCounts, null);
                }
            }
            System.out.println("ALLTOALLV-OK rank " + comm.rank());
        }
    }

    /**
     * Every rank forces alltoallv.pairwise for one all-to-allv; rank 0 starts it non-blocking and clears the forced
     * algorithm before awaiting it, the others run it blocking; the data is checked. Prints
     * {@code FORCED-ALLTOALLV-OK rank r}.
     */
    public static final class AlltoallvForcedThenCleared implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int n = comm.size();
            int me = comm.rank();
            long[] counts = new long[n];
            java.util.Arrays.fill(counts, 5);
            byte[] send = new byte[5 * n];
            for (int i = 0; i < send.length; i++) {
                send[i] = (byte) (me * 100 + i);
            }
            byte[] recv = new byte[5 * n];
            comm.forceAlgorithm("alltoallv.pairwise");
            if (me == 0) {
                Request r = comm.ialltoallv(send, counts, null, recv, counts, null);
                comm.clearForcedAlgorithm(io.railcoll.schedule.Collective.ALLTOALLV);
                r.await();
            } else {
                comm.alltoallv(send, counts, null, recv, counts, null);
                comm.clearForcedAlgorithm(io.railcoll.schedule.Collective.ALLTOALLV);
            }
            for (int src = 0; src < n; src++) {
                for (int k = 0; k < 5; k++) {
                    byte expected = (byte) (src * 100 + me * 5 + k);
                    if (recv[src * 5 + k] != expected) {
                        throw new AssertionError("rank " + me + ": byte " + k + " from rank " + src + " is "
                                + recv[src * 5 + k] + ", expected " + expected);
                    }
                }
            }
            System.out.println("FORCED-ALLTOALLV-OK rank " + me);
        }
    }
}
