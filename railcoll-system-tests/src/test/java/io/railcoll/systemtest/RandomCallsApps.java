package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.DupInFlight;
import io.railcoll.Request;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Collective;

import io.railcoll.topology.Placement;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A seeded random sequence of calls (decision 0214): every rank steps one {@link SplittableRandom} from the same
 * seed, so all draw the same calls, on the world or on sub-communicators made and closed along the way; each rank
 * draws its own buffer kinds, offsets, blocking or non-blocking form and completion order from a generator of its
 * own. Every call is checked byte for byte on every rank ({@link RandomCall#check}).
 */
final class RandomCallsApps {
    private RandomCallsApps() {
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }

    /**
     * Args: {@code seed=S steps=K}. Prints {@code RANDOM-CALLS-OK rank r seed S steps K calls C} when every call
     * checked out; a wrong byte throws an AssertionError naming the seed, step, call, algorithm, rank and offset.
     */
    public static final class Run implements RankApp {
        @Override
        public void run(Communicator world, List<String> args) throws Exception {
            long seed = 1;
            int steps = 200;
            boolean trace = false;
            for (String a : args) {
                String[] kv = a.split("=", 2);
                switch (kv[0]) {
                    case "seed" -> seed = Long.parseLong(kv[1]);
                    case "steps" -> steps = Integer.parseInt(kv[1]);
                    case "trace" -> trace = Boolean.parseBoolean(kv[1]);
                    case "largest" -> RandomCall.largestBlock = Long.parseLong(kv[1]);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            Sequence s = new Sequence(world, world.placement(), seed, trace, null);
            try (Arena arena = Arena.ofShared()) {
                for (int step = 0; step < steps; step++) {
                    s.step(step, arena);
                }
                s.finish();
            }
            System.out.println("RANDOM-CALLS-OK rank " + world.rank() + " seed " + seed + " steps " + steps + " calls "
                    + s.calls + " forced " + s.forced + " refused " + s.refused + " in-flight " + s.nonBlocking
                    + " communicators " + s.made + " typed-arrays " + s.typed
                    + " idups " + s.idupsStarted + " multicast " + s.multicast);
        }
    }

    /**
     * The shared draws alone, with no job and no communicator: for each step, what every group of the communicator
     * drawn would run ({@link RandomCall#describe}, and the algorithm drawn to force), the sub-communicators made and
     * closed. Two builds that print the same lines for a seed draw the same calls. Usage (after test-compile):
     * {@code java -cp railcoll-cli/target/railcoll-cli.jar:railcoll-cli/target/lib/*:railcoll-system-tests/target/test-classes
     * 'io.railcoll.systemtest.RandomCallsApps$Describe' PLACEMENT FIRST_SEED LAST_SEED STEPS}.
     */
    public static final class Describe {
        private Describe() {
        }

        public static void main(String[] args) {
            Placement p = Placement.parse(args[0]);
            for (long seed = Long.parseLong(args[1]); seed <= Long.parseLong(args[2]); seed++) {
                Sequence s = new Sequence(null, p, seed, false, System.out);
                for (int step = 0; step < Integer.parseInt(args[3]); step++) {
                    s.step(step, null);
                }
            }
        }
    }

    /**
     * A communicator of the sequence: its groups (world ranks, in rank order) and this rank's member, if any; for one
     * made by idup, the duplication in flight until its request has finished ({@link Sequence#comm}).
     */
    private static final class Slot {
        final String name;
        final int[][] groups;
        Communicator mine;
        DupInFlight dup;
        IdupCall dupCall;

        Slot(String name, int[][] groups, Communicator mine) {
            this.name = name;
            this.groups = groups;
            this.mine = mine;
        }

        boolean member() {
            return mine != null || dup != null;
        }
    }

    /**
     * The all-gather of an idup in flight on its parent, completed as the calls in flight are; its check is that the
     * new communicator has the parent's size and this rank's rank.
     */
    private static final class IdupCall extends RandomCall {
        private final DupInFlight dup;

        IdupCall(DupInFlight dup) {
            this.dup = dup;
        }

        @Override
        Collective collective() {
            return null;
        }

        @Override
        String describe() {
            return "idup";
        }

        @Override
        void prepare(Ctx c) {
        }

        @Override
        Request start(Communicator comm) {
            throw new UnsupportedOperationException("started by Communicator#idup");
        }

        @Override
        void run(Communicator comm) {
            throw new UnsupportedOperationException("started by Communicator#idup");
        }

        @Override
        void beforeCheck() {
            Communicator made = dup.communicator();
            if (made.size() != ctx.n() || made.rank() != ctx.me()) {
                throw failure("communicator", "is rank " + made.rank() + " of " + made.size());
            }
        }
    }

    private record Pending(Request request, RandomCall call) {
    }

    private static final class Sequence {
        /** Null in a dry run ({@link Describe}): the draws only, printed to {@link #dry}. */
        private final Communicator world;
        private final Placement placement;
        /** This rank in the world; -1 in a dry run. */
        private final int me;
        private final PrintStream dry;
        private final long seed;
        private final SplittableRandom shared;
        private final SplittableRandom local;
        private final List<Slot> slots = new ArrayList<>();
        private final List<Pending> inFlight = new ArrayList<>();
        /** The communicator of the requests in flight: railcoll progresses a request only in its communicator's calls. */
        private Communicator inFlightOn;
        int calls;
        int forced;
        int refused;
        int nonBlocking;
        int made;
        int typed;
        int idupsStarted;
        int multicast;

        private final boolean trace;

        Sequence(Communicator world, Placement placement, long seed, boolean trace, PrintStream dry) {
            this.trace = trace;
            this.world = world;
            this.placement = placement;
            this.me = world == null ? -1 : world.rank();
            this.dry = dry;
            this.seed = seed;
            this.shared = new SplittableRandom(seed);
            this.local = new SplittableRandom(mix(seed) ^ (me + 1) * 0x9E3779B97F4A7C15L);
            int[] all = new int[placement.size()];
            Arrays.setAll(all, i -> i);
            slots.add(new Slot("world", new int[][] {all}, world));
        }

        void step(int step, Arena arena) {
            int r = shared.nextInt(100);
            if (r < 4 && slots.size() < 6) {
                derive(step);
            } else if (r < 7 && slots.size() > 1) {
                Slot s = slots.remove(1 + shared.nextInt(slots.size() - 1));
                if (dry != null) {
                    dry.println("seed " + seed + " step " + step + ": close " + s.name);
                }
                drain(step);
                if (s.member()) {
                    comm(s).close();
                }
            } else {
                Slot s = shared.nextInt(2) == 0 ? slots.get(0) : slots.get(shared.nextInt(slots.size()));
                for (int g = 0; g < s.groups.length; g++) {
                    RandomCall call = RandomCallCatalogue.draw(shared, s.groups[g].length, step);
                    if (dry != null) {
                        dry.println("seed " + seed + " step " + step + " on " + s.name + " group " + g + " of "
                                + s.groups[g].length + ": " + call.describe() + ", forced " + call.forced);
                    }
                    if (s.member() && indexOf(s.groups[g], me) >= 0) {
                        execute(step, s, g, call, arena);
                    }
                }
            }
        }

        private void execute(int step, Slot s, int g, RandomCall call, Arena arena) {
            Communicator comm = comm(s);
            // Point-to-point waits are not documented to progress collectives in flight, so a pair runs with none.
            if (inFlightOn != null && (inFlightOn != comm || !call.hasNonBlockingForm())) {
                drain(step);
            }
            String where = "seed " + seed + ", step " + step + ", on " + s.name + " (" + comm.name() + ")";
            call.bind(new RandomCall.Ctx(comm, comm.size(), comm.rank(), mix(seed * 1_000_003L + step * 31L + g),
                    local, arena, where));
            calls++;
            if (call.typedArrays() != null) {
                typed++;
            }
            Collective c = call.collective();
            String id = call.forced;
            if (id != null) {
                try {
                    comm.forceAlgorithm(id);
                    forced++;
                } catch (IllegalArgumentException notForcible) {
                    id = null; // an algorithm only a deterministic communicator runs: every rank alike
                }
            }
            boolean nb = call.hasNonBlockingForm() && local.nextBoolean();
            try {
                call.algorithm = id != null ? id + " (forced)" : selected(comm, call);
                Request req;
                if (trace) {
                    System.err.println("step " + step + " " + where + ": " + call.describe() + ", " + call.algorithm
                            + (nb ? ", started" : ", blocking") + ", " + inFlight.size() + " in flight");
                }
                try {
                    req = nb ? call.start(comm) : startBlocking(call, comm);
                } catch (IllegalArgumentException e) {
                    if (id == null || e.getMessage() == null || !e.getMessage().contains("cannot run")) {
                        throw new AssertionError(where + ", " + call.describe() + ", algorithm " + call.algorithm
                                + ": refused: " + e.getMessage(), e);
                    }
                    // The forced algorithm cannot run this shape: refused alike on every rank, nothing sent.
                    refused++;
                    comm.clearForcedAlgorithm(c);
                    id = null;
                    call.algorithm = selected(comm, call);
                    req = nb ? call.start(comm) : startBlocking(call, comm);
                }
                if (call.algorithm.contains("multicast") || call.algorithm.contains("mcast")) {
                    multicast++;
                }
                if (req == null) {
                    call.check();
                } else {
                    nonBlocking++;
                    inFlight.add(new Pending(req, call));
                    inFlightOn = comm;
                }
            } finally {
                if (id != null) {
                    comm.clearForcedAlgorithm(c);
                }
            }
            int most = 1 + local.nextInt(4);
            while (inFlight.size() > most || (!inFlight.isEmpty() && local.nextInt(4) == 0)) {
                completeSome();
            }
        }

        private static Request startBlocking(RandomCall call, Communicator comm) {
            call.run(comm);
            return null;
        }

        private static String selected(Communicator comm, RandomCall call) {
            if (call.collective() == null) {
                return "point-to-point";
            }
            try {
                return comm.selectedAlgorithm(call.collective(), call.selectionBytes(), call.root()) + " (automatic,"
                        + " as asked by block size)";
            } catch (RuntimeException e) {
                return "automatic";
            }
        }

        /** Completes one or more requests in flight, in one of the ways a program may, and checks them. */
        private void completeSome() {
            int k = local.nextInt(inFlight.size());
            Pending p = inFlight.get(k);
            int way = local.nextInt(5);
            if (trace) {
                System.err.println("completing " + p.call().describe() + " way " + way + " of " + inFlight.size());
            }
            switch (way) {
                case 0 -> p.request().await();
                case 1 -> {
                    while (!p.request().test()) {
                        Thread.onSpinWait();
                    }
                }
                case 2 -> {
                    Request[] all = inFlight.stream().map(Pending::request).toArray(Request[]::new);
                    k = Request.awaitAny(all);
                    p = inFlight.get(k);
                    if (!p.request().test()) {
                        throw new AssertionError(p.call().describe() + ": awaitAny returned it unfinished");
                    }
                }
                case 3 -> {
                    List<Pending> order = new ArrayList<>(inFlight);
                    order.sort(Comparator.comparingInt(x -> local.nextInt()));
                    Request.awaitAll(order.stream().map(Pending::request).toArray(Request[]::new));
                    for (Pending q : order) {
                        q.call().check();
                    }
                    inFlight.clear();
                    inFlightOn = null;
                    return;
                }
                default -> {
                    // A future completes only while something drives the communicator (Request's contract): test
                    // another request in flight, or this one, until it is done.
                    var future = p.request().toCompletableFuture();
                    Request driver = inFlight.get(local.nextInt(inFlight.size())).request();
                    while (!future.isDone()) {
                        driver.test();
                    }
                    try {
                        future.get(1, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new AssertionError(p.call().ctx.where() + ", " + p.call().describe() + ": future: " + e, e);
                    }
                }
            }
            inFlight.remove(p);
            p.call().check();
            // Others may have finished meanwhile: test() says so without waiting.
            for (int i = inFlight.size() - 1; i >= 0; i--) {
                if (local.nextBoolean() && inFlight.get(i).request().test()) {
                    inFlight.remove(i).call().check();
                }
            }
            if (inFlight.isEmpty()) {
                inFlightOn = null;
            }
        }

        private void drain(int step) {
            while (!inFlight.isEmpty()) {
                completeSome();
            }
        }

        /**
         * This rank's communicator of {@code s}; one made by idup once its all-gather has finished (the calls in flight,
         * all on its parent, completed first if it has not).
         */
        private Communicator comm(Slot s) {
            if (s.dup != null) {
                if (inFlight.stream().anyMatch(p -> p.call() == s.dupCall)) {
                    drain(-1);
                }
                s.mine = s.dup.communicator();
                s.dup = null;
            }
            return s.mine;
        }

        /**
         * Makes a sub-communicator of a random open one: split (with a singleton now and then), dup, by node, create,
         * or idup (left in flight: the parent's next calls may run while it is).
         */
        private void derive(int step) {
            Slot parent = slots.get(shared.nextInt(slots.size()));
            int kind = shared.nextInt(5);
            List<int[]> groups = new ArrayList<>();
            Communicator mine = null;
            DupInFlight dup = null;
            IdupCall idups = null;
            String name = parent.name + "." + new String[] {"split", "dup", "node", "create", "idup"}[kind] + "@" + step;
            drain(step);
            for (int[] members : parent.groups) {
                int n = members.length;
                int me = indexOf(members, this.me);
                boolean member = parent.member() && me >= 0;
                switch (kind) {
                    case 0 -> {
                        int[] colour = new int[n];
                        int[] key = new int[n];
                        for (int i = 0; i < n; i++) {
                            colour[i] = shared.nextInt(-1, 3);
                            key[i] = shared.nextInt(3);
                        }
                        if (shared.nextBoolean()) {
                            colour[shared.nextInt(n)] = 7; // a singleton
                        }
                        for (int col = 0; col <= 7; col++) {
                            List<Integer> in = new ArrayList<>();
                            for (int i = 0; i < n; i++) {
                                if (colour[i] == col) {
                                    in.add(i);
                                }
                            }
                            if (!in.isEmpty()) {
                                in.sort(Comparator.<Integer>comparingInt(i -> key[i]).thenComparingInt(i -> i));
                                groups.add(in.stream().mapToInt(i -> members[i]).toArray());
                            }
                        }
                        if (member) {
                            Optional<Communicator> o = comm(parent).split(colour[me], key[me]);
                            if (o.isPresent() == (colour[me] < 0)) {
                                throw new AssertionError(name + ": split gave " + o + " for colour " + colour[me]);
                            }
                            mine = o.orElse(mine);
                        }
                    }
                    case 1 -> {
                        groups.add(members.clone());
                        if (member) {
                            mine = comm(parent).dup();
                        }
                    }
                    case 2 -> {
                        for (int node = 0; node < placement.nodeCount(); node++) {
                            final int nd = node;
                            int[] on = Arrays.stream(members).filter(w -> placement.nodeOf(w) == nd).toArray();
                            if (on.length > 0) {
                                groups.add(on);
                            }
                        }
                        if (member) {
                            mine = comm(parent).splitByNode();
                        }
                    }
                    case 4 -> {
                        groups.add(members.clone());
                        if (member) {
                            Communicator on = comm(parent);
                            dup = on.idup();
                            IdupCall call = new IdupCall(dup);
                            call.bind(new RandomCall.Ctx(on, on.size(), on.rank(), 0, local, null,
                                    "seed " + seed + ", step " + step + ", " + name));
                            inFlight.add(new Pending(dup.request(), call));
                            inFlightOn = on;
                            nonBlocking++;
                            idups = call;
                            idupsStarted++;
                        }
                    }
                    default -> {
                        int[] perm = new int[n];
                        Arrays.setAll(perm, i -> i);
                        for (int i = n - 1; i > 0; i--) {
                            int j = shared.nextInt(i + 1);
                            int t = perm[i];
                            perm[i] = perm[j];
                            perm[j] = t;
                        }
                        int[] chosen = Arrays.copyOf(perm, 1 + shared.nextInt(n));
                        groups.add(Arrays.stream(chosen).map(i -> members[i]).toArray());
                        if (member) {
                            Optional<Communicator> o = comm(parent).create(chosen);
                            if (o.isPresent() != (indexOf(chosen, me) >= 0)) {
                                throw new AssertionError(name + ": create gave " + o + " to parent rank " + me);
                            }
                            mine = o.orElse(mine);
                        }
                    }
                }
            }
            int[][] g = groups.toArray(new int[0][]);
            if (mine != null) {
                // The new communicator must be the group this rank's world rank is in, in that order.
                int[] group = Arrays.stream(g).filter(x -> indexOf(x, world.rank()) >= 0).findFirst().orElseThrow();
                if (mine.size() != group.length || mine.rank() != indexOf(group, world.rank())) {
                    throw new AssertionError("seed " + seed + ", " + name + ": rank " + mine.rank() + " of "
                            + mine.size() + ", expected " + indexOf(group, world.rank()) + " of " + Arrays.toString(group));
                }
            }
            Slot slot = new Slot(name, g, mine);
            slot.dup = dup;
            slot.dupCall = idups;
            slots.add(slot);
            made++;
            if (dry != null) {
                dry.println("seed " + seed + " step " + step + ": make " + name + " " + Arrays.deepToString(g));
            }
        }

        void finish() {
            drain(-1);
            for (int i = slots.size() - 1; i > 0; i--) {
                if (slots.get(i).member()) {
                    comm(slots.get(i)).close();
                }
            }
            world.barrier();
        }
    }

    static int indexOf(int[] a, int x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
