package mpi;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Seeded random calls of the {@code mpi} layer on real ranks in this JVM ({@link InProcessComms}): every rank draws
 * the same calls from the seed ({@link RandomCalls}, {@link RandomErrors}), builds its inputs as pure functions of
 * (seed, step, rank, buffer), computes every call's result with the sequential reference ({@link RandomReference})
 * and checks every byte of every buffer, guards and type-map gaps included ({@link RandomCall#check}). Non-blocking
 * calls are completed in an order each rank draws for itself; some steps run on a communicator derived by split, dup,
 * create or createGroup. Point-to-point steps ({@link RandomMessages}) and {@code allToAllw} and the neighbourhood
 * collectives ({@link RandomExchanges}) are drawn too (decision 0219); so are cancel (refused for collectives), free of
 * started persistent requests and reductions of structs of several primitives by user ops (decision 0224), counted by
 * {@link RandomCoverage} ({@code -Drandom.mpi.coverage=FILE}). Longer runs:
 * {@code -Drandom.mpi.seeds=N -Drandom.mpi.seed=FIRST -Drandom.mpi.steps=M}, and {@code -Drandom.mpi.nodes=2,3} to run
 * them all on one placement (decisions 0216, 0219, 0224).
 */
class RandomMpiCallsTest {
    private static final int STEPS = Integer.getInteger("random.mpi.steps", 300);

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
        MPI.attachBuffer(new byte[1 << 20]); // for bSend, ibSend and bSendInit on one rank (RandomMessages)
    }

    @AfterAll
    static void detach() throws Exception {
        MPI.detachBuffer();
        RandomCoverage.dump();
    }

    static Stream<Arguments> placements() {
        int seeds = Integer.getInteger("random.mpi.seeds", 0);
        long first = Long.getLong("random.mpi.seed", 1);
        int[][] nodes = {{1}, {2}, {1, 2}, {2, 3}};
        List<Arguments> out = new ArrayList<>();
        if (seeds == 0) {
            long[] fixed = {1, 2, 3, 4, 5, 6, 7, 8}; // two seeds per placement
            for (long seed : fixed) {
                out.add(Arguments.of(seed, nodes[(int) (seed % nodes.length)]));
            }
        } else {
            // Long runs add 3 ranks on 3 nodes (loopback TCP only) and 8 on nodes of 3 and 5.
            int[][] more = {{1}, {2}, {1, 2}, {2, 3}, {1, 1, 1}, {3, 5}};
            // -Drandom.mpi.nodes=2,3 replays seeds on one placement (a fixed seed's, for example)
            String fixedNodes = System.getProperty("random.mpi.nodes");
            for (int s = 0; s < seeds; s++) {
                out.add(Arguments.of(first + s, fixedNodes != null
                        ? java.util.Arrays.stream(fixedNodes.split(",")).mapToInt(Integer::parseInt).toArray()
                        : more[(int) ((first + s) % more.length)]));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "seed {0} nodes {1}")
    @MethodSource("placements")
    void randomCallsMatchTheReference(long seed, int[] nodes) throws Exception {
        // The first failure in time is the cause; the other ranks then fail with MPI_ERR_PROC_ABORTED.
        java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        try {
            InProcessComms.onNodes(nodes, (comm, rank) -> {
                try {
                    run(comm, rank, seed);
                } catch (Throwable e) {
                    failures.add(e);
                    throw e;
                }
                return null;
            });
        } catch (Exception e) {
            Throwable first = failures.stream().filter(f -> !(f instanceof MPIException m
                    && m.getErrorClass() == MPI.ERR_PROC_ABORTED)).findFirst().orElse(failures.peek());
            throw new AssertionError("seed " + seed + " nodes " + java.util.Arrays.toString(nodes) + ": " + first,
                    first == null ? e : first);
        }
    }

    private static void run(Intracomm world, int rank, long seed) throws MPIException {
        SplittableRandom shared = new SplittableRandom(seed);
        int size = world.getSize();
        for (long step = 0; step < STEPS; step++) {
            int what = shared.nextInt(26);
            RandomCoverage.count("step: " + STEP_KINDS[what]);
            if (TRACE && rank == 0) {
                System.err.println("seed " + seed + " step " + step + ": " + STEP_KINDS[what]);
            }
            try {
                if (what >= 24) {
                    RandomExchanges.next(world, size, rank, shared, seed, step);
                } else if (what >= 20) {
                    RandomMessages.next(world, size, rank, shared, seed, step, size == 1);
                } else if (what < 13) {
                    one(world, rank, shared, seed, step, false);
                } else if (what < 16) {
                    batch(world, rank, shared, seed, step);
                } else if (what < 18) {
                    RandomErrors.next(world, size, rank, shared, seed, step);
                } else {
                    derived(world, rank, shared, seed, step);
                }
            } catch (MPIException | RuntimeException e) {
                if (e instanceof MPIException m && m.getErrorClass() == MPI.ERR_PROC_ABORTED) {
                    throw e; // another rank failed first: its failure names the step
                }
                // An error the step did not expect: name the step (what it was drawn as) to replay it.
                throw new AssertionError("seed " + seed + " step " + step + " (" + STEP_KINDS[what] + ") rank "
                        + rank + ": " + e, e);
            }
        }
    }

    /** -Drandom.mpi.trace=true: rank 0 prints each step's kind as it starts (to find what came before a failure). */
    private static final boolean TRACE = Boolean.getBoolean("random.mpi.trace");

    /** What each draw of a step is, for failure messages. */
    private static final String[] STEP_KINDS = new String[26];

    static {
        for (int i = 0; i < 26; i++) {
            STEP_KINDS[i] = i >= 24 ? "allToAllw or neighbourhood" : i >= 20 ? "point-to-point" : i < 13
                    ? "one collective" : i < 16 ? "batch of i-collectives" : i < 18 ? "errors" : "derived communicator";
        }
    }

    private static void one(Intracomm comm, int rank, SplittableRandom rnd, long seed, long step, boolean nb)
            throws MPIException {
        RandomCalls.Started s = new RandomCalls(comm, comm.getSize(), rank, seed).next(rnd, step, nb);
        s.call().check();
    }

    /** 1..4 non-blocking calls in flight (a blocking one after them, sometimes), completed in an order (and by a completion call) this rank draws itself. */
    private static void batch(Intracomm comm, int rank, SplittableRandom rnd, long seed, long step) throws MPIException {
        int n = 1 + rnd.nextInt(4);
        RandomCalls calls = new RandomCalls(comm, comm.getSize(), rank, seed);
        RandomCall[] started = new RandomCall[n];
        Request[] requests = new Request[n];
        for (int i = 0; i < n; i++) {
            RandomCalls.Started s = calls.next(rnd, step * 8 + i, true);
            started[i] = s.call();
            requests[i] = s.request();
        }
        if (rnd.nextInt(3) == 0) {
            one(comm, rank, rnd, seed, step * 8 + 7, false); // a blocking call while they are in flight
        }
        SplittableRandom own = new SplittableRandom(RandomBuffers.mix(seed, step, rank));
        String where = "seed " + seed + " step " + step + " rank " + rank;
        if (own.nextInt(4) == 0) {
            refusedCancel(requests[own.nextInt(n)], where);
            RandomCoverage.count("cancel of a collective's request (refused)");
        }
        RandomCompletion.complete(requests, own, where);
        for (RandomCall c : started) {
            c.check();
        }
    }

    /**
     * MPI_Cancel of a non-blocking collective: erroneous in MPI (3.1 §5.12), {@code MPI.ERR_REQUEST} in Open MPI's
     * libnbc and in railcoll-mpi (decision 0224); the request stays as it was and completes normally.
     */
    static void refusedCancel(Request r, String where) {
        try {
            r.cancel();
        } catch (MPIException e) {
            if (e.getErrorClass() != MPI.ERR_REQUEST || r.isNull()) {
                throw new AssertionError(where + ": cancel of a collective's request: error class "
                        + e.getErrorClass() + ", request " + (r.isNull() ? "null" : "not null") + "; expected "
                        + MPI.ERR_REQUEST + " and the request left active", e);
            }
            return;
        }
        throw new AssertionError(where + ": cancel of a collective's request was accepted; expected MPI.ERR_REQUEST");
    }

    /** A few calls on a communicator split, duplicated or created from a group of this one, then freed. */
    private static void derived(Intracomm world, int rank, SplittableRandom rnd, long seed, long step)
            throws MPIException {
        int size = world.getSize();
        int how = rnd.nextInt(4);
        int[] colours = new int[size];
        int[] keys = new int[size];
        for (int i = 0; i < size; i++) {
            colours[i] = rnd.nextInt(2);
            keys[i] = rnd.nextInt(3);
        }
        // The members of colour 0 in a random order: the ranks of a communicator made from a group follow its order.
        int[] members = java.util.stream.IntStream.range(0, size).filter(i -> colours[i] == 0).toArray();
        for (int i = members.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int x = members[i];
            members[i] = members[j];
            members[j] = x;
        }
        int expectedRank;
        int expectedSize;
        Intracomm sub;
        if (how == 0) {
            sub = world.split(colours[rank], keys[rank]);
            int[] same = java.util.stream.IntStream.range(0, size).filter(i -> colours[i] == colours[rank]).boxed()
                    .sorted(java.util.Comparator.<Integer>comparingInt(i -> keys[i]).thenComparingInt(i -> i))
                    .mapToInt(Integer::intValue).toArray();
            expectedSize = same.length;
            expectedRank = java.util.Arrays.stream(same).boxed().toList().indexOf(rank);
        } else if (how == 1) {
            sub = world.dup();
            expectedSize = size;
            expectedRank = rank;
        } else {
            if (members.length == 0) {
                return;
            }
            Group g = world.getGroup().incl(members);
            if (how == 2 && colours[rank] != 0) {
                g.free();
                return; // createGroup: only the group's members call it
            }
            sub = how == 2 ? world.createGroup(g, 7) : world.create(g);
            g.free();
            if (colours[rank] != 0) {
                if (!sub.isNull()) {
                    throw new AssertionError("seed " + seed + " step " + step + " rank " + rank
                            + ": create gave a non-member a communicator that is not null");
                }
                return;
            }
            expectedSize = members.length;
            expectedRank = java.util.Arrays.stream(members).boxed().toList().indexOf(rank);
        }
        int subRank = sub.getRank();
        int subSize = sub.getSize();
        if (subSize != expectedSize || subRank != expectedRank) {
            throw new AssertionError("seed " + seed + " step " + step + " derived comm " + how + " rank " + rank
                    + ": rank " + subRank + " of " + subSize + ", expected " + expectedRank + " of " + expectedSize);
        }
        // Ranks of one colour draw their own calls; the shared generator must not move differently by colour.
        SplittableRandom local = new SplittableRandom(RandomBuffers.mix(seed, step, how == 1 ? 0 : colours[rank] + 1));
        // (split, dup, create or createGroup: the calls below run on it, their inputs keyed by the rank in it)
        int calls = 1 + local.nextInt(3);
        for (int i = 0; i < calls; i++) {
            int kind = local.nextInt(8);
            if (TRACE) {
                System.err.println("seed " + seed + " step " + step + " rank " + rank + ": derived " + how + " call "
                        + i + " kind " + kind + " as rank " + subRank + " of " + subSize);
            }
            if (kind == 0) {
                RandomMessages.next(sub, subSize, subRank, local, seed, step * 8 + i, size == 1);
            } else if (kind == 1) {
                RandomExchanges.next(sub, subSize, subRank, local, seed, step * 8 + i);
            } else {
                one(sub, subRank, local, seed, step * 8 + i, false);
            }
        }
        sub.free();
    }
}
