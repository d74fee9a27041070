package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Rank programs that run {@code broadcast.multicast} through the public API, for the multicast system tests. */
final class MulticastApps {
    static final int[] SIZES = {0, 1, 63, 1400, 1401, 65536, 65537, 4 << 20};
    private static final byte SENTINEL = (byte) 0xA5;

    private MulticastApps() {
    }

    /**
     * Every size of {@link #SIZES} from several roots (0, the last rank, a rank that is not its node's lowest, a
     * middle rank), cycling through byte[], heap and direct ByteBuffer and native MemorySegment buffers, each
     * broadcast followed by an all-gather (checked) and, every third, a barrier: broadcasts and other collectives
     * interleave, so a rank that returned from a buffered broadcast must keep serving re-sends while it waits in
     * the next collective. Every received buffer is checked byte for byte, then overwritten with a sentinel that
     * must still be intact at the end (nothing lands after delivery, nothing twice). Then all-gathers of 0, 1, 1000
 * and 70000-byte blocks with {@code allgather.smp-gather-mcast}, checked. Prints
     * {@code MCAST-OK rank r broadcasts n ...} when everything matched. args: [rounds (default 1) [most roots]].
     */
    public static final class Check implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int rounds = args.isEmpty() ? 1 : Integer.parseInt(args.get(0));
            int maxRoots = args.size() < 2 ? Integer.MAX_VALUE : Integer.parseInt(args.get(1));
            comm.forceAlgorithm("broadcast.multicast");
            String selected = comm.selectedAlgorithm(Collective.BROADCAST, 1, 0);
            if (!selected.equals("broadcast.multicast")) {
                throw new AssertionError("forced broadcast.multicast but " + selected + " is selected");
            }
            int[] all = roots(comm);
            // Fewer roots for big jobs: the first (0) and the third (not its node's lowest rank) come first.
            int[] roots = maxRoots >= all.length ? all
                    : java.util.stream.IntStream.concat(java.util.stream.IntStream.of(all[0], all[Math.min(2, all.length - 1)]),
                            java.util.Arrays.stream(all)).distinct().limit(Math.max(1, maxRoots)).toArray();
            long t0 = System.nanoTime();
            List<Object> used = new ArrayList<>();
            List<Integer> usedSizes = new ArrayList<>();
            int n = 0;
            try (Arena arena = Arena.ofShared()) {
                for (int round = 0; round < rounds; round++) {
                    for (int ri = 0; ri < roots.length; ri++) {
                        int root = roots[ri];
                        for (int size : SIZES) {
                            if (size > 65537 && ri % 2 == 1 && roots.length > 2) {
                                continue; // 4 MiB from every other root keeps the job short on two cores
                            }
                            int kind = n % 4;
                            Object buffer = allocate(kind, size, arena);
                            MemorySegment seg = view(buffer);
                            if (comm.rank() == root) {
                                fill(seg, n, root);
                            } else {
                                seg.fill(SENTINEL);
                            }
                            broadcast(comm, buffer, root);
                            check(seg, n, root, "broadcast #" + n + " (" + size + " bytes, root " + root + ", "
                                    + kindName(kind) + ") on rank " + comm.rank());
                            if (comm.rank() != root) {
                                seg.fill(SENTINEL);
                                used.add(buffer);
                                usedSizes.add(size);
                            }
                            allgatherChecked(comm, n);
                            if (n % 3 == 2) {
                                comm.barrier();
                            }
                            n++;
                        }
                    }
                }
                // The SMP-aware Gather-and-Broadcast all-gather with the multicast broadcast as its last phase.
                comm.forceAlgorithm("allgather.smp-gather-mcast");
                for (int b : new int[] {0, 1, 1000, 70_000}) {
                    MemorySegment send = MemorySegment.ofArray(expected(b, 100_000 + comm.rank(), b));
                    MemorySegment recv = arena.allocate(Math.max(1L, (long) b * comm.size())).asSlice(0, (long) b * comm.size());
                    recv.fill(SENTINEL);
                    comm.allgather(send, recv);
                    for (int i = 0; i < comm.size(); i++) {
                        check(recv.asSlice((long) i * b, b), 100_000 + i, b, "allgather.smp-gather-mcast of " + b
                                + "-byte blocks, block " + i + " on rank " + comm.rank());
                    }
                    n++;
                }
                comm.clearForcedAlgorithm(Collective.ALLGATHER);
                for (int i = 0; i < used.size(); i++) {
                    MemorySegment seg = view(used.get(i));
                    byte[] sentinel = new byte[(int) seg.byteSize()];
                    java.util.Arrays.fill(sentinel, SENTINEL);
                    long j = MemorySegment.ofArray(sentinel).mismatch(seg);
                    if (j >= 0) {
                        throw new AssertionError("rank " + comm.rank() + ": a " + usedSizes.get(i)
                                + "-byte buffer changed after its broadcast was delivered, at byte " + j);
                    }
                }
            }
            // Everyone finishes its checks before anyone closes: a rank that computes while a peer exits has its
            // rail keeper's heartbeat hit a closed socket (a rail-level race, not this test's subject).
            comm.barrier();
            System.out.println("MCAST-OK rank " + comm.rank() + " broadcasts " + n + " roots "
                    + java.util.Arrays.toString(roots) + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
    }

    /**
     * Non-blocking multicast in flight with other collectives (decision 0146): each round starts an
     * {@code ibroadcast} ({@code broadcast.multicast}, from a rotating root), an {@code iallgather} (every other round
     * {@code allgather.smp-gather-mcast}, a second multicast in flight, else what selection picks) and an
     * {@code ibarrier}, in that order, then completes them in another order (barrier, all-gather, broadcast, or the
     * first to finish by {@code awaitAny}), and checks every byte. Sizes 0, 1, 63, 1401 and 65537. Prints
     * {@code MCAST-INFLIGHT-OK rank r rounds n}. args: [most roots].
     */
    public static final class InFlight implements RankApp {
        private static final int[] BLOCKS = {0, 1, 63, 1401, 65537};

        @Override
        public void run(Communicator comm, List<String> args) {
            int maxRoots = args.isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(args.get(0));
            int[] roots = java.util.Arrays.stream(roots(comm)).limit(Math.max(1, maxRoots)).toArray();
            comm.forceAlgorithm("broadcast.multicast");
            int n = 0;
            try (Arena arena = Arena.ofShared()) {
                for (int root : roots) {
                    for (int size : BLOCKS) {
                        boolean castGather = n % 2 == 0;
                        if (castGather) {
                            comm.forceAlgorithm("allgather.smp-gather-mcast");
                        } else {
                            comm.clearForcedAlgorithm(Collective.ALLGATHER);
                        }
                        MemorySegment cast = arena.allocate(Math.max(1, size)).asSlice(0, size);
                        if (comm.rank() == root) {
                            fill(cast, n, root);
                        } else {
                            cast.fill(SENTINEL);
                        }
                        int b = size % 1402;
                        MemorySegment send = MemorySegment.ofArray(expected(b, 200_000 + comm.rank(), b));
                        MemorySegment recv = arena.allocate(Math.max(1L, (long) b * comm.size()))
                                .asSlice(0, (long) b * comm.size());
                        recv.fill(SENTINEL);
                        io.railcoll.Request bcast = comm.ibroadcast(cast, root);
                        io.railcoll.Request gather = comm.iallgather(send, recv);
                        io.railcoll.Request barrier = comm.ibarrier();
                        if (n % 3 == 0) {
                            barrier.await();
                            gather.await();
                            bcast.await();
                        } else {
                            io.railcoll.Request[] all = {bcast, gather, barrier};
                            io.railcoll.Request.awaitAny(all);
                            io.railcoll.Request.awaitAll(all);
                        }
                        check(cast, n, root, "ibroadcast #" + n + " (" + size + " bytes, root " + root
                                + ") in flight with an iallgather and an ibarrier on rank " + comm.rank());
                        for (int i = 0; i < comm.size(); i++) {
                            check(recv.asSlice((long) i * b, b), 200_000 + i, b, "iallgather"
                                    + (castGather ? " (smp-gather-mcast)" : "") + " of " + b + "-byte blocks beside"
                                    + " ibroadcast #" + n + ", block " + i + " on rank " + comm.rank());
                        }
                        n++;
                    }
                }
            }
            comm.clearForcedAlgorithm(Collective.ALLGATHER);
            comm.barrier();
            System.out.println("MCAST-INFLIGHT-OK rank " + comm.rank() + " rounds " + n);
        }
    }

    /** Broadcasts 2000-byte messages from rotating roots; the rank named by args[0] dies abruptly after args[1] of them. */
    public static final class DieMidway implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int victim = Integer.parseInt(args.get(0));
            int after = Integer.parseInt(args.get(1));
            comm.forceAlgorithm("broadcast.multicast");
            byte[] b = new byte[2000];
            for (int i = 0; i < 100_000; i++) {
                if (i == after && comm.rank() == victim) {
                    System.out.flush();
                    Runtime.getRuntime().halt(137);
                }
                comm.broadcast(b, i % comm.size());
            }
        }
    }

    /** Roots: 0, the last rank, the second rank of the last node with two or more, and a middle rank. */
    static int[] roots(Communicator comm) {
        var pl = comm.placement();
        int nonLeader = -1;
        for (int node = pl.nodeCount() - 1; node >= 0 && nonLeader < 0; node--) {
            int[] ranks = pl.ranksOf(node);
            if (ranks.length > 1) {
                nonLeader = ranks[1];
            }
        }
        return java.util.stream.IntStream.of(0, comm.size() - 1, nonLeader, comm.size() / 2)
                .filter(r -> r >= 0).distinct().toArray();
    }

    private static void allgatherChecked(Communicator comm, int n) {
        byte[] send = new byte[8];
        ByteBuffer.wrap(send).putInt(comm.rank()).putInt(n);
        byte[] recv = new byte[8 * comm.size()];
        comm.allgather(send, recv);
        ByteBuffer r = ByteBuffer.wrap(recv);
        for (int i = 0; i < comm.size(); i++) {
            if (r.getInt(8 * i) != i || r.getInt(8 * i + 4) != n) {
                throw new AssertionError("rank " + comm.rank() + ": all-gather after broadcast #" + n + " got a wrong block "
                        + i);
            }
        }
    }

    private static Object allocate(int kind, int size, Arena arena) {
        return switch (kind) {
            case 0 -> new byte[size];
            case 1 -> ByteBuffer.allocate(size);
            case 2 -> ByteBuffer.allocateDirect(size);
            default -> arena.allocate(Math.max(1, size)).asSlice(0, size);
        };
    }

    private static String kindName(int kind) {
        return switch (kind) {
            case 0 -> "byte[]";
            case 1 -> "heap ByteBuffer";
            case 2 -> "direct ByteBuffer";
            default -> "MemorySegment";
        };
    }

    private static MemorySegment view(Object buffer) {
        return switch (buffer) {
            case byte[] a -> MemorySegment.ofArray(a);
            case ByteBuffer b -> MemorySegment.ofBuffer(b);
            case MemorySegment m -> m;
            default -> throw new IllegalArgumentException(buffer.getClass().toString());
        };
    }

    private static void broadcast(Communicator comm, Object buffer, int root) {
        switch (buffer) {
            case byte[] a -> comm.broadcast(a, root);
            case ByteBuffer b -> comm.broadcast(b, root);
            case MemorySegment m -> comm.broadcast(m, root);
            default -> throw new IllegalArgumentException(buffer.getClass().toString());
        }
    }

    private static byte value(long j, int n, int root) {
        long x = (j + 1) * 0x9E3779B97F4A7C15L ^ (long) n << 32 ^ root;
        return (byte) (x ^ x >>> 29);
    }

    private static byte[] expected(long size, int n, int root) {
        byte[] b = new byte[(int) size];
        for (int j = 0; j < b.length; j++) {
            b[j] = value(j, n, root);
        }
        return b;
    }

    private static void fill(MemorySegment seg, int n, int root) {
        MemorySegment.copy(MemorySegment.ofArray(expected(seg.byteSize(), n, root)), 0, seg, 0, seg.byteSize());
    }

    private static void check(MemorySegment seg, int n, int root, String what) {
        byte[] want = expected(seg.byteSize(), n, root);
        long j = MemorySegment.ofArray(want).mismatch(seg);
        if (j >= 0) {
            throw new AssertionError(what + ": byte " + j + " is " + seg.get(ValueLayout.JAVA_BYTE, j) + ", expected "
                    + want[(int) j]);
        }
    }
}
