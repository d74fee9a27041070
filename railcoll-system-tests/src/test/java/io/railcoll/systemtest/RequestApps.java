package io.railcoll.systemtest;

import io.railcoll.CollectiveTimeoutException;
import io.railcoll.Communicator;
import io.railcoll.Request;
import io.railcoll.launcher.RankApp;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Rank programs for the non-blocking collectives (decisions 0060, 0061): several collectives in flight at once, of
 * different kinds and forced algorithms, completed in another order than they were started, checked byte for byte.
 */
final class RequestApps {
    private RequestApps() {
    }

    /** The byte rank {@code r} contributes at offset {@code i} of its block in case {@code salt}. */
    static byte pattern(int r, long i, int salt) {
        return (byte) (r * 31 + i * 7 + salt * 13 + 1);
    }

    /**
     * Every case on one job; prints {@code REQUESTS-OK rank r cases n} when all checked out. The cases, every rank
     * starting the same collectives in the same order:
     * <ol>
     *   <li>three in flight (all-gather, all-to-all, broadcast; algorithms forced), awaited last to first;</li>
     *   <li>two in flight (all-reduce, gather), the later one completed first through awaitAny and test;</li>
     *   <li>even ranks start three large all-gathers (allgather.direct, forced) and await them last to first while
     *       odd ranks run them blocking, one after another (a later call's frames must not hold an earlier call's
     *       back, decision 0060);</li>
     *   <li>twenty all-gathers started at once (past the window of sixteen), then awaitAll;</li>
     *   <li>every collective started at once with automatic selection, a blocking barrier in the middle (which may
     *       select the node's shared memory: the requests in flight finish first), completed through futures;</li>
     *   <li>the forced algorithms swapped for others and case 1 run again.</li>
     * </ol>
     */
    public static final class InFlight implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) throws Exception {
            int cases = 0;
            try (Arena arena = Arena.ofShared()) {
                threeInFlight(comm, arena, "allgather.ring", "alltoall.bruck", "broadcast.knomial", 1);
                cases++;
                twoInFlight(comm, arena, "allreduce.recursive-doubling", "gather.binomial");
                cases++;
                blockingBesideNonBlocking(comm);
                cases++;
                pastTheWindow(comm);
                cases++;
                everyCollectiveAutomatic(comm, arena);
                cases++;
                threeInFlight(comm, arena, "allgather.direct", "alltoall.pairwise", "broadcast.scatter-allgather", 2);
                cases++;
                twoInFlight(comm, arena, "allreduce.ring", "gather.direct");
                cases++;
            }
            System.out.println("REQUESTS-OK rank " + comm.rank() + " cases " + cases);
        }
    }

    private static void threeInFlight(Communicator comm, Arena arena, String allgather, String alltoall,
                                      String broadcast, int salt) {
        int n = comm.size();
        int me = comm.rank();
        comm.forceAlgorithm(allgather);
        comm.forceAlgorithm(alltoall);
        comm.forceAlgorithm(broadcast);
        long b = 1000 + 17 * salt;
        MemorySegment agSend = arena.allocate(b);
        MemorySegment agRecv = arena.allocate(b * n);
        fill(agSend, me, salt);
        byte[] aaSend = new byte[(int) (b * n)];
        byte[] aaRecv = new byte[aaSend.length];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < b; i++) {
                aaSend[(int) (j * b + i)] = pattern(me * n + j, i, salt);
            }
        }
        int root = n - 1;
        ByteBuffer bc = ByteBuffer.allocateDirect(5000 + salt);
        if (me == root) {
            for (int i = 0; i < bc.capacity(); i++) {
                bc.put(i, pattern(root, i, salt + 5));
            }
        }
        Request r1 = comm.iallgather(agSend, agRecv);
        Request r2 = comm.ialltoall(aaSend, aaRecv);
        Request r3 = comm.ibroadcast(bc, root);
        if (r3.sequenceNumber() != r1.sequenceNumber() + 2) {
            throw new AssertionError("sequence numbers " + r1 + ", " + r3);
        }
        r3.await();
        r1.await();
        if (!r2.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError(r2 + " not done in 60 s");
        }
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < b; i++) {
                check(agRecv.get(ValueLayout.JAVA_BYTE, r * b + i), pattern(r, i, salt), "all-gather", r, i);
                check(aaRecv[(int) (r * b + i)], pattern(r * n + me, i, salt), "all-to-all", r, i);
            }
        }
        for (int i = 0; i < bc.capacity(); i++) {
            check(bc.get(i), pattern(root, i, salt + 5), "broadcast", root, i);
        }
        comm.clearForcedAlgorithm(Collective.ALLGATHER);
        comm.clearForcedAlgorithm(Collective.ALLTOALL);
        comm.clearForcedAlgorithm(Collective.BROADCAST);
    }

    private static void twoInFlight(Communicator comm, Arena arena, String allreduce, String gather) {
        int n = comm.size();
        int me = comm.rank();
        comm.forceAlgorithm(allreduce);
        comm.forceAlgorithm(gather);
        int count = 3001;
        MemorySegment vec = arena.allocate(8L * count, 8);
        for (int i = 0; i < count; i++) {
            vec.setAtIndex(ValueLayout.JAVA_LONG, i, (long) (me + 1) * (i + 1));
        }
        int root = 1 % n;
        byte[] gSend = new byte[777];
        fill(MemorySegment.ofArray(gSend), me, 9);
        byte[] gRecv = me == root ? new byte[gSend.length * n] : null;
        Request reduce = comm.iallreduce(vec, ElementType.LONG, count, PredefinedOperator.SUM); // in place
        Request gathered = comm.igather(gSend, gRecv, root);
        gathered.await(); // the later one first
        int first = Request.awaitAny(gathered, reduce);
        if (first != 0) {
            throw new AssertionError("awaitAny returned " + first + " though " + gathered + " had finished");
        }
        while (!reduce.test()) {
            Thread.onSpinWait();
        }
        long ranksSum = (long) n * (n + 1) / 2;
        for (int i = 0; i < count; i++) {
            long got = vec.getAtIndex(ValueLayout.JAVA_LONG, i);
            if (got != ranksSum * (i + 1)) {
                throw new AssertionError("all-reduce element " + i + ": " + got + ", expected " + ranksSum * (i + 1));
            }
        }
        if (me == root) {
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < gSend.length; i++) {
                    check(gRecv[r * gSend.length + i], pattern(r, i, 9), "gather", r, i);
                }
            }
        }
        comm.clearForcedAlgorithm(Collective.ALLREDUCE);
        comm.clearForcedAlgorithm(Collective.GATHER);
    }

    private static void blockingBesideNonBlocking(Communicator comm) {
        int n = comm.size();
        int me = comm.rank();
        int b = 200_000; // several frames per put on the rails
        byte[][] send = new byte[3][b];
        byte[][] recv = new byte[3][b * n];
        for (int k = 0; k < 3; k++) {
            fill(MemorySegment.ofArray(send[k]), me, 20 + k);
        }
        // Forced: a blocking call may select the node buffer where a non-blocking one cannot (decision 0061), and
        // ranks that mix the forms for one call must agree on the algorithm.
        comm.forceAlgorithm("allgather.direct");
        if (me % 2 == 0) {
            Request[] rs = new Request[3];
            for (int k = 0; k < 3; k++) {
                rs[k] = comm.iallgather(send[k], recv[k]);
            }
            Request.awaitAll(rs[2], rs[1], rs[0]);
        } else {
            for (int k = 0; k < 3; k++) {
                comm.allgather(send[k], recv[k]);
            }
        }
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < b; i += 97) {
                    check(recv[k][r * b + i], pattern(r, i, 20 + k), "large all-gather " + k, r, i);
                }
            }
        }
        comm.clearForcedAlgorithm(Collective.ALLGATHER);
    }

    private static void pastTheWindow(Communicator comm) {
        int n = comm.size();
        int me = comm.rank();
        int calls = 20;
        byte[][] send = new byte[calls][];
        byte[][] recv = new byte[calls][];
        Request[] rs = new Request[calls];
        for (int k = 0; k < calls; k++) {
            send[k] = new byte[8 + k];
            recv[k] = new byte[send[k].length * n];
            fill(MemorySegment.ofArray(send[k]), me, 40 + k);
            rs[k] = comm.iallgather(send[k], recv[k]);
        }
        Request.awaitAll(rs);
        for (int k = 0; k < calls; k++) {
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < send[k].length; i++) {
                    check(recv[k][r * send[k].length + i], pattern(r, i, 40 + k), "all-gather " + k, r, i);
                }
            }
        }
    }

    private static void everyCollectiveAutomatic(Communicator comm, Arena arena) throws Exception {
        int n = comm.size();
        int me = comm.rank();
        byte[] ag = new byte[64];
        fill(MemorySegment.ofArray(ag), me, 60);
        byte[] agRecv = new byte[64 * n];
        byte[] bc = new byte[3000];
        if (me == 0) {
            fill(MemorySegment.ofArray(bc), 0, 61);
        }
        byte[] g = new byte[32];
        fill(MemorySegment.ofArray(g), me, 62);
        byte[] gRecv = new byte[32 * n];
        byte[] aa = new byte[16 * n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < 16; i++) {
                aa[j * 16 + i] = pattern(me * n + j, i, 63);
            }
        }
        byte[] aaRecv = new byte[aa.length];
        MemorySegment ints = arena.allocate(4 * 100L, 4);
        MemorySegment intsSum = arena.allocate(4 * 100L, 4);
        for (int i = 0; i < 100; i++) {
            ints.setAtIndex(ValueLayout.JAVA_INT, i, me + i);
        }
        Request[] rs = {
                comm.iallgather(ag, agRecv),
                comm.ibroadcast(bc, 0),
                comm.ibarrier(),
        };
        comm.barrier(); // blocking; if it selects barrier.shm, the three above finish first
        Request[] more = {
                comm.igather(g, gRecv, n - 1),
                comm.ialltoall(aa, aaRecv),
                comm.iallreduce(ints, intsSum, ElementType.INT, 100, PredefinedOperator.SUM),
        };
        CompletableFuture<Void> last = more[2].toCompletableFuture();
        Request.awaitAll(more[1], more[0]);
        while (!last.isDone()) {
            more[2].test();
        }
        last.get(1, TimeUnit.SECONDS);
        for (Request r : rs) {
            if (!r.test()) {
                throw new AssertionError(r + " is not done after a later blocking barrier");
            }
        }
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < 64; i++) {
                check(agRecv[r * 64 + i], pattern(r, i, 60), "automatic all-gather", r, i);
            }
            for (int i = 0; i < 16; i++) {
                check(aaRecv[r * 16 + i], pattern(r * n + me, i, 63), "automatic all-to-all", r, i);
            }
            if (me == n - 1) {
                for (int i = 0; i < 32; i++) {
                    check(gRecv[r * 32 + i], pattern(r, i, 62), "automatic gather", r, i);
                }
            }
        }
        for (int i = 0; i < bc.length; i++) {
            check(bc[i], pattern(0, i, 61), "automatic broadcast", 0, i);
        }
        for (int i = 0; i < 100; i++) {
            int expected = n * (n - 1) / 2 + n * i;
            if (intsSum.getAtIndex(ValueLayout.JAVA_INT, i) != expected) {
                throw new AssertionError("automatic all-reduce element " + i + ": "
                        + intsSum.getAtIndex(ValueLayout.JAVA_INT, i) + ", expected " + expected);
            }
        }
    }

    /**
     * The last rank never starts the all-gather the others start: they fail at their deadline, naming the
     * collective, its number and the missing rank, and their communicator is unusable afterwards. Prints
     * {@code DEADLINE-OK rank r: message} on the others, {@code SILENT rank r} on the last.
     */
    public static final class Deadline implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) throws Exception {
            int n = comm.size();
            comm.forceAlgorithm("allgather.direct");
            byte[] mine = new byte[100];
            byte[] all = new byte[100 * n];
            comm.allgather(mine, all); // #1, everyone
            if (comm.rank() == n - 1) {
                Thread.sleep(Long.parseLong(args.get(0)) + 4000);
                System.out.println("SILENT rank " + comm.rank());
                return;
            }
            Request r = comm.iallgather(mine, all); // #2, never started on the last rank
            try {
                r.await();
                throw new AssertionError("the all-gather finished without rank " + (n - 1));
            } catch (CollectiveTimeoutException e) {
                try {
                    comm.barrier();
                    throw new AssertionError("the communicator ran a barrier after the time-out");
                } catch (IllegalStateException unusable) {
                    System.out.println("DEADLINE-OK rank " + comm.rank() + ": " + e.getMessage());
                }
            }
        }
    }

    private static void fill(MemorySegment s, int rank, int salt) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, pattern(rank, i, salt));
        }
    }

    private static void check(byte got, byte expected, String what, int rank, long i) {
        if (got != expected) {
            throw new AssertionError(what + ": byte " + i + " of rank " + rank + "'s block is " + got + ", expected "
                    + expected);
        }
    }
}
