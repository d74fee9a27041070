package io.railcoll.select;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.Simulator;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Picks the algorithm for a shape, in this order:
 * <ol>
 *   <li>a forced id ({@code RAILCOLL_ALGORITHM_<COLLECTIVE>} or {@link #force}) runs, and must support the shape:
 *       otherwise the call fails saying why, never falling back;</li>
 *   <li>else the first rule of the {@link Tuning} that matches the shape and whose algorithm can run it;</li>
 *   <li>else the algorithm the cost model predicts fastest: every algorithm of the collective in the catalog that
 *       supports the shape is costed by {@link ModelCost} (most through the {@link Simulator}). The prediction is made once per power-of-two bucket
 *       of block sizes, at the bucket's lower edge, and remembered, so a call pays for it once.</li>
 * </ol>
 * An algorithm that needs a capability of the transports (a node region for node steps, single copy, a multicast
 * group) can run only when that capability is {@link #enableTransport enabled}; a multicast is priced with the
 * tuning's multicast parameters ({@link MulticastCost}). Every step is deterministic, so all ranks, given the same tuning and transports, choose alike. {@link #explain} shows the same
 * decision with every alternative's prediction. Thread-confined to its communicator.
 */
public final class AlgorithmSelector {
    /**
     * Ops one selection-time simulation may hold. It bounds the first call of a size bucket on very large jobs;
     * an algorithm over it is left out of the comparison, and the explanation says so.
     */
    public static final long SELECTION_MAX_OPS = 4_000_000L;
    private static final int REMEMBERED_CHOICES = 1024;

    /** {@code inOrder}: a reduction whose operator needs rank order, which fewer algorithms run. */
    private record ModelKey(Collective collective, int bucket, int root, int ports, int groups, boolean inOrder,
                            int totalBucket) {
    }

    private final AlgorithmCatalog catalog = AlgorithmCatalog.standard();
    private final Map<Collective, String> forced = new EnumMap<>(Collective.class);
    private final Tuning tuning;
    private final Map<ModelKey, Algorithm> modelChoices = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ModelKey, Algorithm> eldest) {
            return size() > REMEMBERED_CHOICES;
        }
    };
    private final Map<Collective, List<Rule>> rules = new EnumMap<>(Collective.class);
    private final Set<String> transports = new HashSet<>();
    /**
     * Whether every rank of the job has a processor of its own, for rules with {@code processors=} (decision 0196);
     * false (ranks may share) until the communicator's set-up says otherwise.
     */
    private boolean ownProcessors;
    /**
     * The last shape selected for, per collective, and its choice: a loop
     * of like calls (the communicator keeps its shape objects) finds it again by identity, allocating nothing.
     * Forgotten whenever forcing, clearing or the transports change.
     */
    private final Shape[] lastShape = new Shape[Collective.values().length];
    private final Algorithm[] lastChoice = new Algorithm[lastShape.length];
    /** The placement the remembered choices are for; a communicator's never changes, so identity suffices. */
    private Placement choicesFor;
    private int fewestPerNode;
    private int mostPerNode;
    /**
     * Reductions run only {@link Algorithm#deterministic()} algorithms, which otherwise are run only when forced or
     * named by a tuning rule (decision 0091).
     */
    private final boolean deterministic;

    public AlgorithmSelector(Map<Collective, String> forced, Tuning tuning) {
        this(forced, tuning, false);
    }

    /**
     * @param deterministic reductions combine in a fixed rank order (decision 0091): only deterministic algorithms
     *                      are chosen, and forcing another is refused
     */
    public AlgorithmSelector(Map<Collective, String> forced, Tuning tuning, boolean deterministic) {
        this.deterministic = deterministic;
        for (String id : forced.values()) {
            force(id);
        }
        this.tuning = tuning;
        for (Collective c : Collective.values()) {
            rules.put(c, tuning.rulesFor(c));
        }
    }

    /** Forced algorithms from the configuration, tuning from {@code RAILCOLL_TUNING} (see {@link SelectionSettings}). */
    public static AlgorithmSelector fromEnvironment(Map<Collective, String> forced, Map<String, String> env) {
        return fromEnvironment(forced, env, false);
    }

    /** As {@link #fromEnvironment(Map, Map)}, deterministic or not (decision 0091). */
    public static AlgorithmSelector fromEnvironment(Map<Collective, String> forced, Map<String, String> env,
                                                    boolean deterministic) {
        return new AlgorithmSelector(forced, SelectionSettings.fromEnvironment(env).load(), deterministic);
    }

    /** Whether reductions run only algorithms that combine in a fixed rank order (decision 0091). */
    public boolean deterministic() {
        return deterministic;
    }

    /** Why {@code a} may not run a reduction on a deterministic communicator, or empty when it may. */
    private Optional<String> notDeterministic(Algorithm a) {
        if (deterministic && a.collective().reduces() && !a.deterministic()) {
            return Optional.of("the communicator is deterministic (RAILCOLL_DETERMINISTIC=on), and " + a.id()
                    + " does not combine in a fixed rank order; " + a.collective().id() + " runs "
                    + a.collective().id() + ".deterministic there (decision 0091)");
        }
        return Optional.empty();
    }

    public Tuning tuning() {
        return tuning;
    }

    /** Lets algorithms carried out by {@code transport} (e.g. {@code multicast}) run; forgets remembered choices. */
    public void enableTransport(String transport) {
        transports.add(transport);
        java.util.Arrays.fill(lastShape, null);
        modelChoices.clear();
    }

    /**
     * Tells selection whether every rank of the job has a processor of its own, a placement fact for the rules that
     * name {@code processors=own} or {@code processors=shared} (decision 0196). Every rank must be told alike (the
     * communicator takes it from the job table all ranks hold); forgets remembered choices.
     */
    public void everyRankHasAProcessor(boolean own) {
        ownProcessors = own;
        java.util.Arrays.fill(lastShape, null);
    }

    /** What {@link #everyRankHasAProcessor(boolean)} last said; false until then. */
    public boolean everyRankHasAProcessor() {
        return ownProcessors;
    }

    /** Why {@code a} cannot run {@code shape} here: its own restrictions, or its transport is not enabled. */
    private Optional<String> unsupported(Algorithm a, Shape shape) {
        Optional<String> own = a.unsupportedReason(shape).or(() -> notDeterministic(a));
        if (own.isPresent()) {
            return own;
        }
        if (a instanceof io.railcoll.schedule.MulticastUser && !transports.contains(io.railcoll.schedule.MulticastUser.TRANSPORT)) {
            return Optional.of(io.railcoll.schedule.MulticastUser.transportOff());
        }
        if (a instanceof io.railcoll.schedule.NodeRegionUser && !transports.contains(io.railcoll.schedule.NodeRegionUser.TRANSPORT)) {
            return Optional.of("no node region here: shared memory between the ranks of a node is off"
                    + " (RAILCOLL_SHM=off) or this is a sub-communicator (decision 0101)");
        }
        if (a instanceof io.railcoll.schedule.PeerAccessUser && !transports.contains(
                io.railcoll.schedule.PeerAccessUser.TRANSPORT)) {
            return Optional.of("single copy is off here: the node did not agree at start-up that cross-memory attach"
                    + " (process_vm_readv/writev) works between every two of its ranks (RAILCOLL_CMA=off, the kernel's"
                    + " ptrace rules, or a sub-communicator; decision 0143)");
        }
        return Optional.empty();
    }

    /** The forced algorithm {@code id}, which must be able to run {@code shape} (never a silent fall-back). */
    private Algorithm require(String id, Shape shape) {
        Algorithm a = catalog.require(id, shape);
        unsupported(a, shape).ifPresent(reason -> {
            throw new IllegalArgumentException("algorithm " + id + " cannot run " + shape.collective().id() + " on N="
                    + shape.size() + " (" + shape.placement().describe() + "): " + reason);
        });
        return a;
    }

    /** Forces {@code id} for its collective; unknown ids are rejected at once. */
    public void force(String id) {
        Algorithm a = catalog.byId(id);
        notDeterministic(a).ifPresent(reason -> {
            throw new IllegalArgumentException("cannot force " + id + ": " + reason);
        });
        forced.put(a.collective(), a.id());
        java.util.Arrays.fill(lastShape, null);
    }

    public void clear(Collective collective) {
        forced.remove(collective);
        java.util.Arrays.fill(lastShape, null);
    }

    public Optional<String> forced(Collective collective) {
        return Optional.ofNullable(forced.get(collective));
    }

    /**
     * The algorithm for {@code shape}.
     *
     * @throws IllegalArgumentException if a forced algorithm cannot run the shape, saying why
     * @throws IllegalStateException    if no algorithm of the collective can
     */
    public Algorithm select(Shape shape) {
        int memo = shape.collective().ordinal();
        if (lastShape[memo] == shape) {
            return lastChoice[memo];
        }
        Algorithm a = choose(shape);
        lastShape[memo] = shape;
        lastChoice[memo] = a;
        return a;
    }

    private Algorithm choose(Shape shape) {
        return choose(shape, forced.get(shape.collective()));
    }

    /**
     * The algorithm for {@code shape} under the algorithm forced when its call started ({@code forcedAtStart}, null:
     * none), not the one forced now: a call whose shape is known only later (a non-blocking all-to-allv learns its
     * count matrix from its first part) runs what was forced when it started, as a blocking call on another rank
     * does (decision 0214).
     *
     * @throws IllegalArgumentException if the forced algorithm cannot run the shape, saying why
     */
    public Algorithm selectAsForced(Shape shape, String forcedAtStart) {
        return choose(shape, forcedAtStart);
    }

    private Algorithm choose(Shape shape, String f) {
        if (f != null) {
            return require(f, shape);
        }
        if (shape.placement() != choicesFor) {
            remember(shape.placement());
        }
        for (Rule rule : rules.get(shape.collective())) {
            if (rule.matches(shape, ownProcessors, fewestPerNode, mostPerNode)) {
                Algorithm a = catalog.byId(rule.algorithmId());
                if (unsupported(a, shape).isEmpty() && agreedNodeByNode(a, shape).isEmpty()) {
                    return a;
                }
            }
        }
        // A v-variant's choice is remembered by the buckets of its largest count and of its total.
        ModelKey key = new ModelKey(shape.collective(), bucket(shape.blockBytes()), shape.root(), shape.ports(),
                shape.groups(), !shape.commutative(), shape.counts() == null ? 0 : bucket(totalBytes(shape)));
        Algorithm a = modelChoices.get(key);
        if (a == null) {
            Ranking ranking = rank(costed(shape));
            if (ranking.chosen() == null) {
                throw new IllegalStateException("no " + shape.collective().id() + " algorithm supports " + shape + ": "
                        + ranking.candidates());
            }
            a = catalog.byId(ranking.chosen());
            modelChoices.put(key, a);
        }
        return a;
    }

    /** Forgets the choices made for another placement and notes this one's fewest and most ranks on a node. */
    private void remember(Placement placement) {
        modelChoices.clear();
        choicesFor = placement;
        fewestPerNode = Integer.MAX_VALUE;
        mostPerNode = 0;
        for (int n = 0; n < placement.nodeCount(); n++) {
            fewestPerNode = Math.min(fewestPerNode, placement.ranksOnNode(n));
            mostPerNode = Math.max(mostPerNode, placement.ranksOnNode(n));
        }
    }

    /** The decision {@link #select} makes for {@code shape}, why, and the model's prediction for every alternative. */
    public Explanation explain(Shape shape) {
        Shape costed = costed(shape);
        Ranking ranking = rank(costed);
        List<String> notes = new ArrayList<>();
        String source = "tuning " + tuning.source() + describeMeasured() + "; "
                + (ownProcessors ? "every rank has a processor of its own" : "ranks may share processors");
        String f = forced.get(shape.collective());
        if (f != null) {
            Optional<String> why = unsupported(catalog.byId(f), shape);
            String text = why.map(w -> "forced, but it cannot run this shape, so the call fails: " + w)
                    .orElse("forced (RAILCOLL_ALGORITHM_" + shape.collective().name() + " or forceAlgorithm)");
            return new Explanation(shape, f, Explanation.Reason.FORCED, text, costed.blockBytes(),
                    ranking.candidates(), notes, source);
        }
        for (Rule rule : rules.get(shape.collective())) {
            if (rule.matches(shape, ownProcessors)) {
                Optional<String> why = unsupported(catalog.byId(rule.algorithmId()), shape)
                        .or(() -> agreedNodeByNode(catalog.byId(rule.algorithmId()), shape));
                if (why.isEmpty()) {
                    return new Explanation(shape, rule.algorithmId(), Explanation.Reason.RULE, "rule " + rule.name()
                            + " (" + rule.origin() + "): " + rule.conditions() + " -> " + rule.algorithmId(),
                            costed.blockBytes(), ranking.candidates(), notes, source);
                }
                notes.add("rule " + rule.name() + " (" + rule.origin() + ") matches, but " + rule.algorithmId()
                        + " cannot run this shape: " + why.get());
            }
        }
        return new Explanation(shape, ranking.chosen() == null ? "none" : ranking.chosen(), Explanation.Reason.MODEL,
                ranking.why(), costed.blockBytes(), ranking.candidates(), notes, source);
    }

    private String describeMeasured() {
        String where = tuning.measured().get("placement");
        return where == null ? "" : " (measured on " + where + ", " + tuning.measured().getOrDefault("rails", "?")
                + " rails, " + tuning.measured().getOrDefault("network", "?") + ")";
    }

    private static long totalBytes(Shape shape) {
        long total = 0;
        for (long c : shape.counts().toArray()) {
            total += c;
        }
        return total;
    }

    /** Power-of-two bucket of a block size: 0 for 0 bytes, i+1 for [2^i, 2^(i+1)). */
    static int bucket(long blockBytes) {
        return blockBytes == 0 ? 0 : 64 - Long.numberOfLeadingZeros(blockBytes);
    }

    /** The shape with its block size moved to its bucket's lower edge, where the model is evaluated. */
    private static Shape costed(Shape shape) {
        if (shape.counts() != null) {
            return shape; // per-rank counts are costed as they are (the choice is remembered by their buckets)
        }
        long b = shape.blockBytes() == 0 ? 0 : Long.highestOneBit(shape.blockBytes());
        // Whole elements, and the reduction's commutativity kept: it decides which algorithms may run at all.
        b = b == 0 ? 0 : Math.max(shape.elementBytes(), b - b % shape.elementBytes());
        return b == shape.blockBytes() ? shape
                : new Shape(shape.collective(), shape.placement(), shape.ports(), b, shape.root(), shape.groups(),
                shape.elementBytes(), shape.commutative());
    }

    /**
     * A deterministic algorithm outside deterministic mode runs only when forced or named by a rule: the model never
     * picks it, so that a rank with the option and one without always differ in algorithm, which the engine reports
     * as a mismatch rather than combining in two orders (decision 0091). Nor an algorithm marked
     * {@link io.railcoll.schedule.ChosenByRuleOnly} (decision 0227).
     */
    private Optional<String> onlyByRequest(Algorithm a) {
        if (!deterministic && a.deterministic()) {
            return Optional.of("chosen only on a deterministic communicator (RAILCOLL_DETERMINISTIC=on) or when forced");
        }
        if (a instanceof io.railcoll.schedule.ChosenByRuleOnly) {
            return Optional.of("chosen only by a rule or when forced (its measured times stray far from the model's)");
        }
        return Optional.empty();
    }

    /**
     * A single-copy algorithm that spans several nodes runs only when forced: single copy is agreed node by node at
     * start-up (decision 0143), so where nodes agreed differently their ranks would choose differently and fail with a
     * mismatch. On one node every rank shares the one agreement, so one-node single-copy algorithms stay choosable
     * (decision 0207).
     */
    private static Optional<String> agreedNodeByNode(Algorithm a, Shape shape) {
        if (a instanceof io.railcoll.schedule.PeerAccessUser && shape.placement().nodeCount() > 1) {
            return Optional.of("chosen only when forced: it needs single copy on every node, which each node agrees on"
                    + " by itself");
        }
        return Optional.empty();
    }

    /** The model's choice (null when no algorithm can run the shape), why, and every candidate. */
    private record Ranking(String chosen, String why, List<Explanation.Candidate> candidates) {
    }

    /** Every algorithm of the collective with its prediction or why it has none; the fastest wins, catalog order on ties. */
    private Ranking rank(Shape shape) {
        List<Explanation.Candidate> candidates = new ArrayList<>();
        String best = null;
        String firstSupported = null;
        double bestNs = Double.POSITIVE_INFINITY;
        for (Algorithm a : catalog.forCollective(shape.collective())) {
            Optional<String> unsupported = unsupported(a, shape);
            if (unsupported.isPresent()) {
                candidates.add(new Explanation.Candidate(a.id(), OptionalDouble.empty(), "cannot run: " + unsupported.get()));
                continue;
            }
            Explanation.Candidate c = ModelCost.predict(a, shape, tuning.model(), SELECTION_MAX_OPS);
            Optional<String> notChosen = onlyByRequest(a).or(() -> agreedNodeByNode(a, shape));
            if (notChosen.isPresent()) {
                // Priced, for the explanation, but never the model's choice.
                candidates.add(new Explanation.Candidate(a.id(), c.predictedNs(), c.detail() + "; " + notChosen.get()));
                continue;
            }
            if (firstSupported == null) {
                firstSupported = a.id();
            }
            candidates.add(c);
            if (c.predictedNs().isPresent() && c.predictedNs().getAsDouble() < bestNs) {
                bestNs = c.predictedNs().getAsDouble();
                best = a.id();
            }
        }
        if (best != null) {
            return new Ranking(best, "no rule matches; the cost model predicts it fastest (" + Explanation.formatNs(bestNs)
                    + ")", candidates);
        }
        if (firstSupported != null) {
            return new Ranking(firstSupported, "no rule matches and no algorithm could be simulated within "
                    + SELECTION_MAX_OPS + " ops; the first in catalog order that can run the shape", candidates);
        }
        return new Ranking(null, "no " + shape.collective().id() + " algorithm can run this shape", candidates);
    }
}
