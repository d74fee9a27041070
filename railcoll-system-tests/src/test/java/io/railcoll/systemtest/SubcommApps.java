package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.topology.Placement;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * Rank programs for {@code SubcommSystemTest}. Every communicator made is checked against what it must be (its
 * members, their order, its placement) computed here from the world's ranks, and then runs every collective with
 * data derived from each member's job rank, compared byte for byte with the expected result; all-reduce against a
 * sequential reference, a non-commutative operator in the communicator's rank order.
 */
final class SubcommApps {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    /** Block sizes every collective is checked with: empty, one byte, odd, several rail frames and eager-sized. */
    private static final int[] SIZES = {0, 1, 7, 4099, 70_001};

    private SubcommApps() {
    }

    /** The byte at {@code i} of job rank {@code job}'s data in call {@code call}. */
    static byte datum(int job, long i, int call) {
        return (byte) (job * 31 + i * 7 + call * 13 + (i >>> 8));
    }

    /**
     * Checks {@code c}, made from {@code parentJobRanks} (the parent's job rank per parent rank), whose members must
     * be {@code expectedJob} (job ranks, in the new order); returns the number of collective cases checked.
     */
    static int checkCommunicator(Communicator c, int[] expectedJob, Placement world, int myJob, int seed) {
        String what = c.name();
        int me = indexOf(expectedJob, myJob);
        require(c.size() == expectedJob.length, what + ": size " + c.size() + ", expected " + expectedJob.length);
        require(c.rank() == me, what + ": rank " + c.rank() + ", expected " + me);
        // Its placement: nodes in the order their first member appears, members of one node together.
        for (int a = 0; a < expectedJob.length; a++) {
            for (int b = 0; b < expectedJob.length; b++) {
                require(c.placement().sameNode(a, b) == world.sameNode(expectedJob[a], expectedJob[b]),
                        what + ": ranks " + a + " and " + b + " placed wrongly: " + c.placement().describe());
            }
        }
        return checkCollectives(c, expectedJob, seed);
    }

    /** Every collective on {@code c} at every size; {@code job[i]} is the job rank of c's rank i. */
    static int checkCollectives(Communicator c, int[] job, int seed) {
        int n = c.size();
        int me = c.rank();
        int cases = 0;
        c.barrier();
        cases++;
        for (int size : SIZES) {
            int call = seed + size;
            // broadcast, from the first and the last rank
            for (int root : new int[] {0, n - 1}) {
                byte[] buf = new byte[size];
                if (me == root) {
                    fill(buf, job[root], 0, size, call);
                }
                c.broadcast(buf, root);
                expect(c, "broadcast root " + root, buf, expected(job, root, size, call));
                cases++;
            }
            // gather to the last rank
            byte[] mine = new byte[size];
            fill(mine, job[me], 0, size, call);
            byte[] all = new byte[size * n];
            c.gather(mine, me == n - 1 ? all : null, n - 1);
            if (me == n - 1) {
                expect(c, "gather", all, concatenated(job, size, call));
            }
            cases++;
            // all-gather
            Arrays.fill(all, (byte) 0x5a);
            c.allgather(mine, all);
            expect(c, "allgather", all, concatenated(job, size, call));
            cases++;
            // all-to-all: block j of rank r holds (r, j)
            int b = Math.min(size, 997);
            byte[] send = new byte[b * n];
            for (int j = 0; j < n; j++) {
                fill(send, job[me] * 1000 + job[j], (long) j * b, b, call);
            }
            byte[] recv = new byte[b * n];
            c.alltoall(send, recv);
            byte[] want = new byte[b * n];
            for (int i = 0; i < n; i++) {
                fill(want, job[i] * 1000 + job[me], (long) i * b, b, call);
            }
            expect(c, "alltoall", recv, want);
            cases++;
            // all-reduce: LONG sum against the sequential sum; rank-order composition of affine maps
            int count = size / 8;
            long[] values = new long[count];
            long[] reference = new long[count];
            long[] composed = new long[count];
            for (int k = 0; k < count; k++) {
                values[k] = (long) job[me] * 1_000_003L + k * 17L + call;
                for (int i = 0; i < n; i++) {
                    reference[k] += (long) job[i] * 1_000_003L + k * 17L + call;
                    long map = affine(job[i], k);
                    composed[k] = i == 0 ? map : AllreduceApps.compose(composed[k], map);
                }
            }
            long[] sum = new long[count];
            c.allreduce(values, sum, PredefinedOperator.SUM);
            require(Arrays.equals(sum, reference), c.name() + ": allreduce sum of " + count + " longs differs");
            cases++;
            MemorySegment maps = MemorySegment.ofArray(new byte[count * 8]);
            for (int k = 0; k < count; k++) {
                maps.set(LONG, 8L * k, affine(job[me], k));
            }
            MemorySegment out = MemorySegment.ofArray(new byte[count * 8]);
            c.allreduce(maps, out, ElementType.LONG, count, AllreduceApps.AFFINE);
            for (int k = 0; k < count; k++) {
                require(out.get(LONG, 8L * k) == composed[k], c.name() + ": non-commutative allreduce element " + k
                        + " is not the composition in rank order");
            }
            cases++;
        }
        c.barrier();
        return cases + 1;
    }

    private static long affine(int job, int k) {
        return (long) (job * 2 + 3 + k) << 32 | (job * 5 + k) & 0xffffffffL;
    }

    static void fill(byte[] b, int job, long from, int len, int call) {
        for (int i = 0; i < len; i++) {
            b[(int) from + i] = datum(job, i, call);
        }
    }

    private static byte[] expected(int[] job, int root, int size, int call) {
        byte[] b = new byte[size];
        fill(b, job[root], 0, size, call);
        return b;
    }

    private static byte[] concatenated(int[] job, int size, int call) {
        byte[] b = new byte[size * job.length];
        for (int i = 0; i < job.length; i++) {
            fill(b, job[i], (long) i * size, size, call);
        }
        return b;
    }

    private static void expect(Communicator c, String what, byte[] got, byte[] want) {
        int at = Arrays.mismatch(got, want);
        require(at < 0, c.name() + " rank " + c.rank() + ": " + what + " of " + want.length + " bytes differs at byte " + at);
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    /** The job ranks of {@code members} ordered by key then job rank (MPI's rule), as split must order them. */
    static int[] ordered(int[] members, int[] keyOfJob) {
        return Arrays.stream(members).boxed()
                .sorted(Comparator.<Integer>comparingInt(r -> keyOfJob[r]).thenComparingInt(r -> r))
                .mapToInt(Integer::intValue).toArray();
    }

    /**
     * The world's checks, in one job: odd and even ranks, keys that reverse the order, by node, singletons, a dup,
     * a create of every third rank, an undefined color, a split of a split, overlapping lifetimes (a child used after
     * its parent closed), and the world and a sub-communicator driven by two threads at once. Prints
     * {@code SUBCOMM-CHECKED n cases} on rank 0.
     */
    public static final class Check implements RankApp {
        @Override
        public void run(Communicator world, List<String> args) throws Exception {
            int n = world.size();
            int me = world.rank();
            Placement p = world.placement();
            int[] everyone = IntStream.range(0, n).toArray();
            int[] zeroKeys = new int[n];
            int cases = 0;
            int seed = 1;

            // Odd and even ranks.
            Communicator parity = world.split(me % 2, me).orElseThrow();
            cases += checkCommunicator(parity, Arrays.stream(everyone).filter(r -> r % 2 == me % 2).toArray(), p, me, seed++);

            // One color, keys that reverse the order.
            int[] reverseKeys = IntStream.range(0, n).map(r -> n - r).toArray();
            try (Communicator reversed = world.split(7, n - me).orElseThrow()) {
                cases += checkCommunicator(reversed, ordered(everyone, reverseKeys), p, me, seed++);
            }

            // Equal keys: ties broken by rank.
            try (Communicator tied = world.split(0, 0).orElseThrow()) {
                cases += checkCommunicator(tied, ordered(everyone, zeroKeys), p, me, seed++);
            }

            // By node.
            try (Communicator node = world.splitByNode()) {
                cases += checkCommunicator(node, p.ranksOf(p.nodeOf(me)), p, me, seed++);
            }

            // Singleton.
            try (Communicator alone = world.split(me, 0).orElseThrow()) {
                cases += checkCommunicator(alone, new int[] {me}, p, me, seed++);
            }

            // An undefined color: rank 0 takes part and gets nothing; the others get the rest.
            Optional<Communicator> rest = world.split(me == 0 ? Communicator.UNDEFINED : 3, me);
            require(rest.isPresent() == (me != 0), "split with an undefined color on rank " + me + ": " + rest);
            if (rest.isPresent()) {
                try (Communicator r = rest.get()) {
                    cases += checkCommunicator(r, Arrays.copyOfRange(everyone, 1, n), p, me, seed);
                }
            }
            seed++;

            // Create: every third rank, listed from the last.
            int[] thirds = IntStream.iterate(n - 1, r -> r >= 0, r -> r - 3).toArray();
            Optional<Communicator> third = world.create(thirds);
            require(third.isPresent() == (indexOf(thirds, me) >= 0), "create on rank " + me + ": " + third);
            if (third.isPresent()) {
                try (Communicator t = third.get()) {
                    cases += checkCommunicator(t, thirds, p, me, seed);
                }
            }
            seed++;

            // A split of a split, and a dup whose parent closes before it does (overlapping lifetimes).
            Communicator halves = parity.split(parity.rank() < (parity.size() + 1) / 2 ? 0 : 1, 0).orElseThrow();
            int[] parityJobs = Arrays.stream(everyone).filter(r -> r % 2 == me % 2).toArray();
            int half = (parityJobs.length + 1) / 2;
            int[] halfJobs = parity.rank() < half ? Arrays.copyOfRange(parityJobs, 0, half)
                    : Arrays.copyOfRange(parityJobs, half, parityJobs.length);
            Communicator dupOfParity = parity.dup();
            cases += checkCommunicator(halves, halfJobs, p, me, seed++);
            parity.close();
            cases += checkCommunicator(dupOfParity, parityJobs, p, me, seed++);
            cases += checkCollectives(world, everyone, seed++);
            cases += checkCommunicator(halves, halfJobs, p, me, seed++);
            halves.close();
            dupOfParity.close();

            // The world and a dup driven by two threads at once.
            Communicator twin = world.dup();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            int[] twinCases = new int[1];
            int twinSeed = seed++;
            Thread other = Thread.ofPlatform().name("twin").start(() -> {
                try {
                    for (int round = 0; round < 3; round++) {
                        twinCases[0] += checkCollectives(twin, everyone, twinSeed + 1000 * round);
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            int worldSeed = seed++;
            for (int round = 0; round < 3; round++) {
                cases += checkCollectives(world, everyone, worldSeed + 1000 * round);
            }
            other.join();
            if (failed.get() != null) {
                throw new AssertionError("the twin communicator's thread failed", failed.get());
            }
            cases += twinCases[0];
            twin.close();

            // A sub-communicator left open is closed with the world (by the launcher's close).
            Communicator leftOpen = world.dup();
            cases += checkCollectives(leftOpen, everyone, seed);
            if (me == 0) {
                System.out.println("SUBCOMM-CHECKED " + cases + " cases on " + n + " ranks");
            }
        }
    }

    /**
     * A mismatch inside a sub-communicator: args {@code size} (one member passes another block size) or
     * {@code derivation} (one rank dups while the others split). Every rank must fail.
     */
    public static final class Mismatch implements RankApp {
        @Override
        public void run(Communicator world, List<String> args) {
            int me = world.rank();
            if (args.get(0).equals("derivation")) {
                if (me == 1) {
                    world.dup();
                } else {
                    world.split(0, me);
                }
                return;
            }
            Communicator even = world.split(me % 2, me).orElseThrow();
            byte[] mine = new byte[even.rank() == 1 ? 16 : 8];
            even.allgather(mine, new byte[mine.length * even.size()]);
            world.barrier();
        }
    }
}
