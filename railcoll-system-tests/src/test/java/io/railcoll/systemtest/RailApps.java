package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.bench.CheckApp;
import io.railcoll.launcher.RankApp;
import io.railcoll.transport.RailCounters;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/** Rank programs for the rail tests. Each prints what the test needs to find its job and follow it. */
final class RailApps {
    private RailApps() {
    }

    /** Prints the processors this rank may run on and the node's processor count it was given. */
    public static final class PrintAffinity implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            String allowed = "?";
            try {
                for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                    if (line.startsWith("Cpus_allowed_list:")) {
                        allowed = line.substring(line.indexOf(':') + 1).strip();
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            System.out.println("AFFINITY " + comm.rank() + " " + allowed + " " + System.getenv("RAILCOLL_NODE_CPUS"));
            comm.barrier();
        }
    }

    /** Prints the job id (so the test can look for its shared-memory files afterwards), then runs {@link CheckApp}. */
    public static final class CheckWithJobId implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            if (comm.rank() == 0) {
                System.out.println("JOB " + System.getenv("RAILCOLL_JOB_ID"));
            }
            new CheckApp().run(comm, args);
            printRails(comm);
        }
    }

    /**
     * {@code iterations} all-gathers of {@code blockBytes} per rank, every result checked byte for byte; rank 0
     * prints {@code MIDWAY} after the first (the test's cue to break a rail) and {@code TRANSFERRED n} at the end.
     */
    public static final class Transfer implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int iterations = Integer.parseInt(args.get(0));
            int block = Integer.parseInt(args.get(1));
            int n = comm.size();
            // Shared: the threaded engine's rail threads read and write these buffers.
            try (Arena arena = Arena.ofShared()) {
                MemorySegment send = arena.allocate(block);
                MemorySegment recv = arena.allocate((long) block * n);
                for (int it = 0; it < iterations; it++) {
                    for (int i = 0; i < block; i++) {
                        send.set(ValueLayout.JAVA_BYTE, i, pattern(it, comm.rank(), i));
                    }
                    recv.fill((byte) 0);
                    comm.allgather(send, recv);
                    for (int r = 0; r < n; r++) {
                        for (int i = 0; i < block; i++) {
                            if (recv.get(ValueLayout.JAVA_BYTE, (long) r * block + i) != pattern(it, r, i)) {
                                throw new AssertionError("rank " + comm.rank() + ": iteration " + it + ": byte " + i
                                        + " of rank " + r + "'s block is wrong");
                            }
                        }
                    }
                    if (it == 0 && comm.rank() == 0) {
                        System.out.println("MIDWAY");
                    }
                }
            }
            if (comm.rank() == 0) {
                System.out.println("TRANSFERRED " + iterations);
            }
            printRails(comm);
        }

        static byte pattern(int iteration, int rank, int i) {
            return (byte) (i * 31 + rank * 7 + iteration * 13 + (i >>> 9));
        }
    }

    /**
     * Checked all-gathers of {@code blockBytes} per rank, one after another, until the test says the rail it took
     * down is back ({@code goFile} exists; rank 0 looks for it after every call and broadcasts what it found), then
     * {@code after} more, whose bytes each rank counts per rail: {@code AFTER <rank> <rail 0 bytes sent> <rail 1
     * bytes sent>}. Rank 0 prints {@code MIDWAY} after the first call (the test's cue to take a rail down). Gives up
     * after {@code maxSeconds} without the go.
     */
    public static final class UntilRailBack implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            java.nio.file.Path go = java.nio.file.Path.of(args.get(0));
            int block = Integer.parseInt(args.get(1));
            int after = Integer.parseInt(args.get(2));
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(Long.parseLong(args.get(3)));
            int n = comm.size();
            byte[] flag = new byte[1];
            try (Arena arena = Arena.ofShared()) {
                MemorySegment send = arena.allocate(block);
                MemorySegment recv = arena.allocate((long) block * n);
                int it = 0;
                for (;; it++) {
                    checkedAllgather(comm, send, recv, block, it);
                    if (it == 0 && comm.rank() == 0) {
                        System.out.println("MIDWAY");
                    }
                    flag[0] = (byte) (comm.rank() == 0 && java.nio.file.Files.exists(go) ? 1 : 0);
                    comm.broadcast(flag, 0);
                    if (flag[0] == 1) {
                        break;
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("rank " + comm.rank() + ": no go after " + it + " calls");
                    }
                }
                RailCounters c = comm.railCounters();
                long rail0 = c.bytesSent(0);
                long rail1 = c.bytesSent(1);
                for (int k = 1; k <= after; k++) {
                    checkedAllgather(comm, send, recv, block, it + k);
                }
                System.out.println("AFTER " + comm.rank() + " " + (c.bytesSent(0) - rail0) + " " + (c.bytesSent(1) - rail1)
                        + " (" + (it + 1) + " calls before the go)");
            }
            printRails(comm);
        }

        private static void checkedAllgather(Communicator comm, MemorySegment send, MemorySegment recv, int block, int it) {
            for (int i = 0; i < block; i++) {
                send.set(ValueLayout.JAVA_BYTE, i, Transfer.pattern(it, comm.rank(), i));
            }
            recv.fill((byte) 0);
            comm.allgather(send, recv);
            for (int r = 0; r < comm.size(); r++) {
                for (int i = 0; i < block; i++) {
                    if (recv.get(ValueLayout.JAVA_BYTE, (long) r * block + i) != Transfer.pattern(it, r, i)) {
                        throw new AssertionError("rank " + comm.rank() + ": call " + it + ": byte " + i + " of rank " + r
                                + "'s block is wrong");
                    }
                }
            }
        }
    }

    /**
     * The rail-flap soak's job (RailFlapSoakClusterTest): checked collectives of mixed kinds and sizes, one after
     * another, drawn from a {@link java.util.SplittableRandom} of {@code seed} that every rank steps alike, until the
     * test says its flapping is over ({@code goFile} exists; rank 0 looks after every call and broadcasts what it
     * found, which is one more collective). The kinds: all-gather (small and large blocks), all-reduce of longs by
     * sum and by a non-commutative operator against a sequential reference ({@link AllreduceApps#runCase}),
     * broadcast from a drawn root, all-to-all; the sizes include 0, 1, odd ones, 64 KiB + 1 and about 1 MiB. Every
     * byte is checked ({@link io.railcoll.bench.Patterns}); a wrong one fails the rank naming the call. Rank 0 prints
     * {@code MIDWAY} after the first call (the test's cue to start flapping), {@code CALLS n} every 50 calls (so a
     * hang's log says where), and {@code MIX-DONE n} at the end. Gives up after {@code maxSeconds} without the go.
     */
    public static final class CheckedMixUntilGo implements RankApp {
        /** Block sizes of the all-gathers, broadcasts and all-to-alls; all-reduces take 8-byte elements of them. */
        private static final long[] SIZES = {0, 1, 7, 1023, 1025, 4099, 65537, 262147, 1048573};
        private static final io.railcoll.schedule.Collective[] KINDS = {io.railcoll.schedule.Collective.ALLGATHER,
                io.railcoll.schedule.Collective.ALLREDUCE, io.railcoll.schedule.Collective.BROADCAST,
                io.railcoll.schedule.Collective.ALLTOALL};

        @Override
        public void run(Communicator comm, List<String> args) {
            java.nio.file.Path go = java.nio.file.Path.of(args.get(0));
            java.util.SplittableRandom draws = new java.util.SplittableRandom(Long.parseLong(args.get(1)));
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(Long.parseLong(args.get(2)));
            int n = comm.size();
            int rank = comm.rank();
            byte[] flag = new byte[1];
            long largest = SIZES[SIZES.length - 1];
            java.util.Map<AllreduceApps.CaseAndCount, AllreduceApps.Expected> references = new java.util.HashMap<>();
            AllreduceApps.ResultHashes hashes = new AllreduceApps.ResultHashes();
            AllreduceApps.Case[] reductions = {
                    new AllreduceApps.Case(io.railcoll.reduce.ElementType.LONG, io.railcoll.reduce.PredefinedOperator.SUM),
                    new AllreduceApps.Case(io.railcoll.reduce.ElementType.LONG, AllreduceApps.AFFINE)};
            int calls = 0;
            try (Arena arena = Arena.ofShared()) {
                // Shared: the threaded engine's rail threads read and write these buffers. All-to-all's largest
                // block is a quarter of the largest size, so every call moves at most about 1 MiB per rank.
                MemorySegment send = arena.allocate(largest);
                MemorySegment recv = arena.allocate(largest * n);
                for (int call = 0;; call++) {
                    io.railcoll.schedule.Collective c = KINDS[draws.nextInt(KINDS.length)];
                    long b = SIZES[draws.nextInt(SIZES.length)];
                    int root = draws.nextInt(n);
                    int seed = call + 1;
                    String what = "call " + call + ": " + c.id() + " of " + b + "-byte blocks, root " + root;
                    switch (c) {
                        case ALLREDUCE -> {
                            AllreduceApps.CaseAndCount k = new AllreduceApps.CaseAndCount(
                                    reductions[draws.nextInt(reductions.length)], b / 8 + (b & 1), draws.nextInt(2));
                            // The reference lives as long as the job (a few MiB in all); the call's buffers, one call.
                            references.computeIfAbsent(k, x -> AllreduceApps.Expected.of(x, n, arena));
                            try (Arena scratch = Arena.ofShared()) {
                                String wrong = AllreduceApps.runCase(comm, scratch, k, references, "segment", hashes, what);
                                if (wrong != null) {
                                    throw new AssertionError("rank " + rank + ": " + what + ": " + wrong);
                                }
                            }
                        }
                        case ALLTOALL -> {
                            long block = b / 4;
                            MemorySegment s = send.asSlice(0, block * n);
                            MemorySegment r = recv.asSlice(0, block * n);
                            io.railcoll.bench.Patterns.fillSend(c, seed, rank, n, block, s);
                            r.fill((byte) 0x5a);
                            comm.alltoall(s, r);
                            verify(c, seed, rank, n, block, root, r, what);
                        }
                        case BROADCAST -> {
                            MemorySegment r = recv.asSlice(0, b);
                            if (rank == root) {
                                io.railcoll.bench.Patterns.fillSend(c, seed, rank, n, b, r);
                            } else {
                                r.fill((byte) 0x5a);
                            }
                            comm.broadcast(r, root);
                            verify(c, seed, rank, n, b, root, r, what);
                        }
                        default -> {
                            MemorySegment s = send.asSlice(0, b);
                            MemorySegment r = recv.asSlice(0, b * n);
                            io.railcoll.bench.Patterns.fillSend(c, seed, rank, n, b, s);
                            r.fill((byte) 0x5a);
                            comm.allgather(s, r);
                            verify(c, seed, rank, n, b, root, r, what);
                        }
                    }
                    calls++;
                    if (rank == 0 && call == 0) {
                        System.out.println("MIDWAY");
                    }
                    if (rank == 0 && call % 50 == 49) {
                        System.out.println("CALLS " + (call + 1));
                    }
                    flag[0] = (byte) (rank == 0 && java.nio.file.Files.exists(go) ? 1 : 0);
                    comm.broadcast(flag, 0);
                    if (flag[0] == 1) {
                        break;
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("rank " + rank + ": no go after " + calls + " calls");
                    }
                }
            }
            String differs = hashes.sameOnEveryRank(comm);
            if (differs != null) {
                throw new AssertionError("rank " + rank + ": " + differs);
            }
            if (rank == 0) {
                System.out.println("MIX-DONE " + calls);
            }
            printRails(comm);
        }

        private static void verify(io.railcoll.schedule.Collective c, int seed, int rank, int n, long b, int root,
                                   MemorySegment recv, String what) {
            String bad = io.railcoll.bench.Patterns.verify(c, seed, rank, n, b, root, recv);
            if (bad != null) {
                throw new AssertionError("rank " + rank + ": " + what + ": " + bad);
            }
        }
    }

    /** Rank 1 passes a larger all-gather block than rank 0 (two nodes, so the rails carry it). */
    public static final class SizeMismatch implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            comm.allgather(new byte[1], new byte[comm.size()]);
            int b = comm.rank() == 1 ? 2000 : 1000;
            comm.allgather(new byte[b], new byte[b * comm.size()]);
        }
    }

    private static void printRails(Communicator comm) {
        RailCounters c = comm.railCounters();
        for (String line : c.report().split("\\R")) {
            System.out.println("RAILS " + line);
        }
    }
}
