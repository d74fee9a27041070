package io.railcoll.systemtest;

import io.railcoll.DeterministicKind;

import io.railcoll.Communicator;
import io.railcoll.Request;
import io.railcoll.launcher.RankApp;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.schedule.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Rank programs for {@code DeterministicSystemTest}: with {@code RAILCOLL_DETERMINISTIC=on}, every reduction on
 * float and double sums (values spread over 40 binary orders of magnitude, so that the order shows in the bits) and
 * the non-commutative affine composition, checked bit for bit against the sequential rank-order fold computed here,
 * and a digest of every rank's result bits printed per case, so that the test can compare jobs on other placements.
 */
final class DeterministicApps {
    private static final List<Collective> REDUCTIONS = List.of(Collective.ALLREDUCE, Collective.REDUCE,
            Collective.REDUCE_SCATTER, Collective.SCAN, Collective.EXSCAN);
    private static final long[] COUNTS = {1, 7, 1001, 65537};

    private DeterministicApps() {
    }

    /**
     * Runs every case on the world and, where the world has 9 ranks, on a sub-communicator of its ranks 1, 3, 4, 7
     * and 8 (with 3,4,2: two nodes' worth spread over three), and prints, on rank 0 of each, one line per case:
     * {@code DIGEST <N> <case> <sha-256 of every rank's result bits, in rank order>}, then
     * {@code DETERMINISTIC-CHECKED <cases>}.
     */
    public static final class Check implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            for (Collective c : REDUCTIONS) {
                if (!comm.selectedAlgorithm(c, 64, 0).endsWith(".deterministic")) {
                    throw new AssertionError("RAILCOLL_DETERMINISTIC=on, yet " + c.id() + " selects "
                            + comm.selectedAlgorithm(c, 64, 0));
                }
            }
            int cases = checkAll(comm);
            if (comm.size() == 9) {
                int r = comm.rank();
                boolean member = r == 1 || r == 3 || r == 4 || r == 7 || r == 8;
                try (Communicator five = comm.split(member ? 1 : Communicator.UNDEFINED, r).orElse(null)) {
                    if (five != null) {
                        cases += checkAll(five);
                    }
                }
            }
            if (comm.rank() == 0) {
                System.out.println("DETERMINISTIC-CHECKED " + cases);
            }
        }
    }

    private static int checkAll(Communicator comm) {
        int cases = 0;
        long seed = 0;
        try (Arena arena = Arena.ofShared()) {
            for (Collective c : REDUCTIONS) {
                for (DeterministicKind k : DeterministicKind.values()) {
                    for (long count : COUNTS) {
                        if (count > 1001 && k != DeterministicKind.DOUBLE) {
                            continue; // the large vector once, so that a job of 9 JVMs fits its deadline
                        }
                        int root = (int) (seed % comm.size());
                        String name = c.id() + "/" + k + "/" + count + "/root" + root + (seed % 2 == 1 ? "/i" : "");
                        byte[] bits = runCase(comm, arena, c, k, count, root, seed, seed % 2 == 1, name);
                        byte[] all = new byte[32 * comm.size()];
                        comm.allgather(sha256(bits), all);
                        if (comm.rank() == 0) {
                            System.out.println("DIGEST " + comm.size() + " " + name + " "
                                    + HexFormat.of().formatHex(sha256(all)));
                        }
                        seed++;
                        cases++;
                    }
                }
            }
        }
        return cases;
    }

    /** One case: runs it, checks this rank's result against the fold, and returns the result's bits (empty where none). */
    private static byte[] runCase(Communicator comm, Arena arena, Collective c, DeterministicKind k, long count, int root,
                                  long seed, boolean nonBlocking, String name) {
        int n = comm.size();
        int me = comm.rank();
        long sendCount = c == Collective.REDUCE_SCATTER ? n * count : count;
        MemorySegment send = arena.allocate(sendCount * k.type.sizeBytes(), 8);
        MemorySegment recv = arena.allocate(count * k.type.sizeBytes(), 8);
        for (long i = 0; i < sendCount; i++) {
            k.set(send, i, k.value(seed, me, i));
        }
        ElementType t = k.type;
        Operator op = k.op;
        if (nonBlocking) {
            Request r = switch (c) {
                case ALLREDUCE -> comm.iallreduce(send, recv, t, count, op);
                case REDUCE -> comm.ireduce(send, recv, t, count, op, root);
                case REDUCE_SCATTER -> comm.ireduceScatterBlock(send, recv, t, count, op);
                case SCAN -> comm.iscan(send, recv, t, count, op);
                case EXSCAN -> comm.iexscan(send, recv, t, count, op);
                default -> throw new IllegalArgumentException(c.id());
            };
            r.await();
        } else {
            switch (c) {
                case ALLREDUCE -> comm.allreduce(send, recv, t, count, op);
                case REDUCE -> comm.reduce(send, recv, t, count, op, root);
                case REDUCE_SCATTER -> comm.reduceScatterBlock(send, recv, t, count, op);
                case SCAN -> comm.scan(send, recv, t, count, op);
                case EXSCAN -> comm.exscan(send, recv, t, count, op);
                default -> throw new IllegalArgumentException(c.id());
            }
        }
        if (c == Collective.REDUCE && me != root || c == Collective.EXSCAN && me == 0) {
            return new byte[0];
        }
        for (long i = 0; i < count; i++) {
            long expected = switch (c) {
                case ALLREDUCE, REDUCE -> k.fold(seed, 0, n - 1, i);
                case REDUCE_SCATTER -> k.fold(seed, 0, n - 1, me * count + i);
                case SCAN -> k.fold(seed, 0, me, i);
                case EXSCAN -> k.fold(seed, 0, me - 1, i);
                default -> throw new IllegalArgumentException(c.id());
            };
            if (k.get(recv, i) != expected) {
                throw new AssertionError(name + " on rank " + me + " of " + n + ": element " + i + " has bits "
                        + Long.toHexString(k.get(recv, i)) + ", the rank-order fold " + Long.toHexString(expected));
            }
        }
        return recv.toArray(ValueLayout.JAVA_BYTE);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
