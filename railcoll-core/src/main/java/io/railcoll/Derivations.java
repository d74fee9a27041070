package io.railcoll;

import io.railcoll.engine.CollectiveEngine;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static io.railcoll.Communicator.UNDEFINED;
import static io.railcoll.RailcollCommunicator.requireNonNull;

/**
 * How a communicator derives new ones from itself (decisions 0070, 0125, 0149): {@code split}, {@code dup},
 * {@code idup}, {@code splitByNode}, {@code create} and {@code createGroup}. Each but {@code createGroup} is one
 * all-gather on the parent of every rank's (color, key) and a check block, after which every rank computes the same
 * {@link SplitPlan}; {@code createGroup}'s members derive the context alone and then check one another on the new
 * communicator. It counts the communicators made here (part of their contexts) and opens each over the rank's shared
 * transports. Moved out of {@link RailcollCommunicator}, which delegates to it, unchanged (decision 0211); it runs its
 * all-gathers through the communicator's {@link CallPlumbing}.
 *
 * <p>Threading: any thread the communicator's gate admits. Made and owned by its communicator; nothing to close.
 */
final class Derivations {
    /** The first block of every split's exchange, so that a split run against another all-gather is caught. */
    private static final int SPLIT_MAGIC = 0x53504c54;
    /** Magic, derivation (or the ranks' hash), colour (or tag), key (or rank count), args: ints; the count: a long. */
    private static final int SPLIT_BLOCK_BYTES = 5 * Integer.BYTES + Long.BYTES;

    /** How a communicator is derived from its parent; the ordinal travels in the split's exchange. */
    private enum Derivation {
        SPLIT("split"), DUP("dup"), NODE("splitByNode"), CREATE("create");

        final String call;

        Derivation(String call) {
            this.call = call;
        }
    }

    private final CallGate gate;
    /** The communicator's open check, shapes and way to run a call and make its request. */
    private final CallPlumbing plumbing;
    /** Awaits a derivation's all-gather; tells the peers of a mismatch. */
    private final CollectiveEngine engine;
    /** The rank's transports, engines and open communicators, which every derived communicator shares. */
    private final RankTransports shared;
    private final int rank;
    private final int size;
    private final Placement placement;
    /** The communicator's context, from which its derivations' are mixed. */
    private final long context;
    /** How messages name the communicator; its derivations' names start with it. */
    private final String name;
    /** The job rank of each of the communicator's ranks. */
    private final int[] jobRanks;
    /** How many communicators this one has made (split, dup, ...): part of their contexts. */
    private long creations;
    /** How many communicators {@code createGroup} made here, per members and tag: part of their contexts. */
    private final Map<String, Long> groupCreations = new HashMap<>();

    Derivations(CallGate gate, CallPlumbing plumbing, CollectiveEngine engine, RankTransports shared, int rank,
                Placement placement, long context, String name, int[] jobRanks) {
        this.gate = gate;
        this.plumbing = plumbing;
        this.engine = engine;
        this.shared = shared;
        this.rank = rank;
        this.size = placement.size();
        this.placement = placement;
        this.context = context;
        this.name = name;
        this.jobRanks = jobRanks;
    }


    Optional<Communicator> split(int color, int key) {
        return derive(Derivation.SPLIT, color < 0 ? UNDEFINED : color, key, 0);
    }

    Communicator dup() {
        return derive(Derivation.DUP, 0, rank, 0).orElseThrow();
    }

    Communicator splitByNode() {
        return derive(Derivation.NODE, nodeId(), rank, 0).orElseThrow();
    }

    Optional<Communicator> create(int[] ranks) {
        requireNonNull(ranks, "create: ranks");
        boolean[] seen = new boolean[size];
        int index = -1;
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r < 0 || r >= size) {
                throw new IllegalArgumentException("create: rank " + r + " (at " + i + ") is out of range: " + name
                        + " has size " + size);
            }
            if (seen[r]) {
                throw new IllegalArgumentException("create: rank " + r + " is listed twice");
            }
            seen[r] = true;
            if (r == rank) {
                index = i;
            }
        }
        return derive(Derivation.CREATE, index < 0 ? UNDEFINED : 0, index, Arrays.hashCode(ranks));
    }

    /**
     * MPI_Comm_create_group (decision 0125): the members alone agree on the new communicator's context, each
     * computing it from this one's, the members, the tag and how many such communicators of those members and tag
     * it made here before ({@link SplitPlan#groupContext}); no message to a non-member, no count the non-members keep.
     * The members then all-gather (members, tag, sequence) on the new communicator, which both checks that they
     * agree and waits until every one has made it; members that passed other ranks or another tag compute another
     * context, and the wait ends at the deadline with a message naming this call.
     */
    Communicator createGroup(int[] ranks, int tag) {
        requireNonNull(ranks, "createGroup: ranks");
        if (tag < 0) {
            throw new IllegalArgumentException("createGroup: tag " + tag + " is negative");
        }
        boolean[] seen = new boolean[size];
        boolean member = false;
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r < 0 || r >= size) {
                throw new IllegalArgumentException("createGroup: rank " + r + " (at " + i + ") is out of range: "
                        + name + " has size " + size);
            }
            if (seen[r]) {
                throw new IllegalArgumentException("createGroup: rank " + r + " is listed twice");
            }
            seen[r] = true;
            member |= r == rank;
        }
        if (!member) {
            throw new IllegalArgumentException("createGroup: rank " + rank + " of " + name + " is not among the ranks "
                    + Arrays.toString(ranks) + "; only the members call it");
        }
        RailcollCommunicator child;
        long sequence;
        gate.enter("createGroup");
        try {
            plumbing.requireOpen();
            synchronized (groupCreations) {
                sequence = groupCreations.merge(Arrays.toString(ranks) + " tag " + tag, 1L, Long::sum) - 1;
            }
            SplitPlan plan = SplitPlan.of(ranks, rank, placement,
                    SplitPlan.groupContext(context, ranks, tag, sequence));
            child = opened(plan, name + ".createGroup#" + sequence + "(tag " + tag + ")");
        } finally {
            gate.exit();
        }
        agreeOnGroup(child, ranks, tag, sequence);
        return child;
    }

    /**
     * The members' check of a {@code createGroup}, run on the new communicator {@code child} (so the messages name its
     * rank and name): the same ranks, tag and sequence everywhere, or a mismatch.
     */
    private static void agreeOnGroup(Communicator child, int[] ranks, int tag, long sequence) {
        ByteBuffer mine = ByteBuffer.allocate(SPLIT_BLOCK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        mine.putInt(SPLIT_MAGIC).putInt(Arrays.hashCode(ranks)).putInt(tag).putInt(ranks.length).putInt(0)
                .putLong(sequence);
        byte[] all = new byte[SPLIT_BLOCK_BYTES * child.size()];
        try {
            child.allgather(MemorySegment.ofArray(mine.array()), MemorySegment.ofArray(all));
        } catch (CollectiveTimeoutException e) {
            child.close();
            throw new CollectiveTimeoutException("rank " + child.rank() + ": createGroup(ranks " + Arrays.toString(
                    ranks) + ", tag " + tag + ") waited for every member to call createGroup with the same ranks and"
                    + " tag, in the same order as its other createGroup calls with them: " + e.getMessage());
        }
        for (int r = 0; r < child.size(); r++) {
            if (!Arrays.equals(all, r * SPLIT_BLOCK_BYTES, (r + 1) * SPLIT_BLOCK_BYTES, mine.array(), 0,
                    SPLIT_BLOCK_BYTES)) {
                child.close();
                throw new MismatchException("rank " + child.rank() + " of " + child.name() + ": mismatch: the members"
                        + " of createGroup(ranks " + Arrays.toString(ranks) + ", tag " + tag + ") disagree: rank " + r
                        + " passed other ranks, another tag or is at another createGroup of them");
            }
        }
    }

    /**
     * Makes a communicator of the ranks of this one that pass the same {@code color}, ordered by {@code key} then
     * rank: one all-gather of every rank's (color, key) on this communicator, checked, then a context derived alike
     * on every member (decision 0070). {@code args} is what every rank must agree on besides (the ranks of a create).
     */
    private Optional<Communicator> derive(Derivation how, int color, int key, int args) {
        gate.enter(how.call);
        try {
            plumbing.requireOpen();
            long creation = creations;
            byte[] mine = derivationBlock(how, color, key, creation, args);
            byte[] all = new byte[SPLIT_BLOCK_BYTES * size];
            // Started as idup starts it, then awaited: the non-blocking selection may pick another all-gather than the
            // blocking one, and a rank's dup must pair with another's idup (decision 0149).
            engine.await(plumbing.run(plumbing.shape(Collective.ALLGATHER, SPLIT_BLOCK_BYTES, 0),
                    MemorySegment.ofArray(mine), MemorySegment.ofArray(all), true), Long.MAX_VALUE);
            creations++;
            int[] colors = new int[size];
            int[] keys = new int[size];
            checkDerivation(how, creation, args, all, colors, keys);
            SplitPlan plan = SplitPlan.of(colors, keys, rank, placement, context, creation);
            return plan == null ? Optional.empty() : Optional.of(child(plan, how, creation, color));
        } finally {
            gate.exit();
        }
    }

    /**
     * MPI_Comm_idup: {@link #dup()}'s all-gather started as a non-blocking collective on this communicator, in its
     * order of collectives (a rank's {@code idup} pairs with another's {@code dup} or {@code idup}). A dup's context
     * depends on nothing the other ranks send, so the new communicator is made now (frames for it that arrive early
     * wait for it, as after a {@code dup}); the all-gather's answer is checked when the request has finished.
     */
    DupInFlight idup() {
        gate.enter("idup");
        try {
            plumbing.requireOpen();
            long creation = creations;
            byte[] all = new byte[SPLIT_BLOCK_BYTES * size];
            long seq = plumbing.run(plumbing.shape(Collective.ALLGATHER, SPLIT_BLOCK_BYTES, 0),
                    MemorySegment.ofArray(derivationBlock(Derivation.DUP, 0, rank, creation, 0)),
                    MemorySegment.ofArray(all), true);
            creations++;
            int[] keys = new int[size];
            Arrays.setAll(keys, r -> r);
            SplitPlan plan = SplitPlan.of(new int[size], keys, rank, placement, context, creation);
            RailcollCommunicator made = child(plan, Derivation.DUP, creation, 0);
            return new DupInFlight(plumbing.request(seq, "idup"), made, () -> {
                gate.enter("idup", ".check");
                try {
                    checkDerivation(Derivation.DUP, creation, 0, all, new int[size], new int[size]);
                } finally {
                    gate.exit();
                }
            });
        } finally {
            gate.exit();
        }
    }

    /** This rank's block of a derivation's all-gather: what every rank must agree on, and its colour and key. */
    private static byte[] derivationBlock(Derivation how, int color, int key, long creation, int args) {
        ByteBuffer mine = ByteBuffer.allocate(SPLIT_BLOCK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        mine.putInt(SPLIT_MAGIC).putInt(how.ordinal()).putInt(color).putInt(key).putInt(args).putLong(creation);
        return mine.array();
    }

    /**
     * Reads every rank's block of a derivation's all-gather into {@code colors} and {@code keys}; a rank that called
     * something else is a {@link MismatchException}, sent to the other ranks too.
     */
    private void checkDerivation(Derivation how, long creation, int args, byte[] all, int[] colors, int[] keys) {
        ByteBuffer in = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < size; r++) {
            int magic = in.getInt();
            int derivation = in.getInt();
            colors[r] = in.getInt();
            keys[r] = in.getInt();
            int theirArgs = in.getInt();
            long theirCreation = in.getLong();
            if (magic != SPLIT_MAGIC || derivation != how.ordinal() || theirCreation != creation
                    || theirArgs != args) {
                MismatchException e = new MismatchException("rank " + rank + " of " + name + ": mismatch: this rank"
                        + " called " + how.call + " (communicator #" + creation + " made from " + name + ") but rank "
                        + r + " " + (magic != SPLIT_MAGIC ? "called an all-gather of " + SPLIT_BLOCK_BYTES
                        + "-byte blocks" : derivation != how.ordinal() ? "called " + Derivation.values()[
                        Math.floorMod(derivation, Derivation.values().length)].call : theirCreation != creation
                        ? "is at communicator #" + theirCreation : "passed other ranks to create"));
                engine.abortPeers(e);
                throw e;
            }
        }
    }

    /** The communicator {@code plan} describes, made by this one's {@code creation}-th derivation, and opened. */
    private RailcollCommunicator child(SplitPlan plan, Derivation how, long creation, int color) {
        return opened(plan, name + "." + how.call + "#" + creation + switch (how) {
            case SPLIT -> "(color " + color + ")";
            case NODE -> "(node " + nodeId() + ")";
            default -> "";
        });
    }

    /**
     * The communicator {@code plan} describes, named {@code childName}: its engine over the rank's shared transports,
     * registered among the rank's open communicators (the world closes those still open first).
     */
    private RailcollCommunicator opened(SplitPlan plan, String childName) {
        int[] members = new int[plan.parentRanks().length];
        for (int i = 0; i < members.length; i++) {
            members[i] = jobRanks[plan.parentRanks()[i]];
        }
        CollectiveEngine childEngine = shared.engine(plan.rank(), plan.placement(), plan.context(), childName, members);
        RailcollCommunicator child = new RailcollCommunicator(shared, plan, childName, members, childEngine);
        shared.open.add(child);
        return child;
    }

    /** Which node this rank is on, as {@link Communicator#nodeId()} answers for the communicator. */
    private int nodeId() {
        return placement.nodeOf(rank);
    }
}
