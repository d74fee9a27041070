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

    /** Rank {@code me}'s send of an all-to-allv of {@code block} bytes per pair: byte i is {@code me * 100 + i}. */
    private static byte[] alltoallvSend(int me, int n, int block) {
        byte[] send = new byte[block * n];
        for (int i = 0; i < send.length; i++) {
            send[i] = (byte) (me * 100 + i);
        }
        return send;
    }

    /** Checks rank {@code me}'s recv of that all-to-allv: block {@code src} is bytes me*block.. of src's send. */
    private static void checkAlltoallv(byte[] recv, int me, int n, int block) {
        for (int src = 0; src < n; src++) {
            for (int k = 0; k < block; k++) {
                byte expected = (byte) (src * 100 + me * block + k);
                if (recv[src * block + k] != expected) {
                    throw new AssertionError("rank " + me + ": byte " + k + " from rank " + src + " is "
                            + recv[src * block + k] + ", expected " + expected);
                }
            }
        }
    }

    /**
     * With the multicast group not yet open ({@code RAILCOLL_MCAST=auto}) and {@code allgather.smp-gather-mcast}
     * forced, so the all-to-allv's count exchange (an all-gather) multicasts: the even ranks start an all-to-allv
     * non-blocking, the odd ones run it blocking; the data is checked, then a broadcast. Prints
     * {@code MCAST-ALLTOALLV-OK rank r}.
     */
    public static final class AlltoallvCountsOverMulticast implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int n = comm.size();
            int me = comm.rank();
            long[] counts = new long[n];
            java.util.Arrays.fill(counts, 7);
            byte[] send = alltoallvSend(me, n, 7);
            byte[] recv = new byte[7 * n];
            comm.forceAlgorithm("allgather.smp-gather-mcast");
            if (me % 2 == 0) {
                comm.ialltoallv(send, counts, null, recv, counts, null).await();
            } else {
                comm.alltoallv(send, counts, null, recv, counts, null);
            }
            comm.clearForcedAlgorithm(io.railcoll.schedule.Collective.ALLGATHER);
            checkAlltoallv(recv, me, n, 7);
            byte[] b = new byte[1000];
            if (me == 1) {
                java.util.Arrays.fill(b, (byte) 9);
            }
            comm.broadcast(b, 1);
            if (b[999] != 9) {
                throw new AssertionError("rank " + me + ": broadcast after it gave " + b[999]);
            }
            System.out.println("MCAST-ALLTOALLV-OK rank " + me);
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
            byte[] send = alltoallvSend(me, n, 5);
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
            checkAlltoallv(recv, me, n, 5);
            System.out.println("FORCED-ALLTOALLV-OK rank " + me);
        }
    }

    /**
     * Every rank finishes a small all-gather, starts a large one, and drives it only by testing the finished one
     * (Request#test: one round of progress on every collective in flight), waiting on the large one's future.
     * Prints {@code DRIVEN-OK rank r}.
     */
    public static final class DriveByTestingAFinishedRequest implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) throws Exception {
            int n = comm.size();
            byte[] small = new byte[8];
            byte[] smallAll = new byte[8 * n];
            Request finished = comm.iallgather(small, smallAll);
            finished.await();
            byte[] big = new byte[300_000];
            java.util.Arrays.fill(big, (byte) (comm.rank() + 1));
            byte[] bigAll = new byte[big.length * n];
            var future = comm.iallgather(big, bigAll).toCompletableFuture();
            long t0 = System.nanoTime();
            while (!future.isDone()) {
                if (!finished.test()) {
                    throw new AssertionError("a finished request tested unfinished");
                }
                if (System.nanoTime() - t0 > 20_000_000_000L) {
                    throw new AssertionError("rank " + comm.rank() + ": the all-gather did not progress in 20 s of"
                            + " tests of a finished request");
                }
            }
            future.get();
            for (int i = 0; i < bigAll.length; i++) {
                if (bigAll[i] != (byte) (i / big.length + 1)) {
                    throw new AssertionError("rank " + comm.rank() + ": byte " + i + " is " + bigAll[i]);
                }
            }
            System.out.println("DRIVEN-OK rank " + comm.rank());
        }
    }

    /**
     * Bug 5 of decision 0214 as seed 15 on "3,4,2" first met it: an all-to-all of 22005-byte blocks that ranks 1, 3
     * and 8 start non-blocking and keep in flight across a scatterv (ranks 3, 4 and 8 non-blocking too) and a
     * forced binomial reduce of 131070 bytes to root 1, the others running each call blocking; then every request
     * is awaited and a barrier ends. Prints {@code MIXED-OK rank r}.
     */
    public static final class MixedFormsFirstCalls implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int n = comm.size();
            int me = comm.rank();
            java.util.Set<Integer> nbAlltoall = java.util.Set.of(1, 3, 8);
            java.util.Set<Integer> nbScatterv = java.util.Set.of(3, 4, 8);
            java.util.List<Request> open = new java.util.ArrayList<>();
            byte[] send = new byte[22005 * n];
            byte[] recv = new byte[22005 * n];
            if (nbAlltoall.contains(me)) {
                open.add(comm.ialltoall(send, recv));
            } else {
                comm.alltoall(send, recv);
            }
            long[] counts = {72, 0, 214, 184, 0, 241, 260, 55, 100};
            long[] c = java.util.Arrays.copyOf(counts, n);
            byte[] all = me == 0 ? new byte[(int) java.util.Arrays.stream(c).sum()] : null;
            byte[] mine = new byte[(int) c[me]];
            if (args.contains("no-scatterv")) {
                // left out
            } else if (nbScatterv.contains(me)) {
                open.add(comm.iscatterv(all, c, null, mine, 0));
            } else {
                comm.scatterv(all, c, null, mine, 0);
            }
            if (!args.contains("no-reduce")) {
                comm.forceAlgorithm("reduce.binomial");
                byte[] v = new byte[131070];
                byte[] r = me == 1 ? new byte[131070] : null;
                comm.reduce(v, r, io.railcoll.reduce.ElementType.SHORT, io.railcoll.reduce.PredefinedOperator.PROD, 1);
                comm.clearForcedAlgorithm(io.railcoll.schedule.Collective.REDUCE);
            }
            for (Request q : open) {
                q.await();
            }
            comm.barrier();
            System.out.println("MIXED-OK rank " + me);
        }
    }
}
