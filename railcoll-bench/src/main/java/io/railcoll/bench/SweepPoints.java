package io.railcoll.bench;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.bench.report.Sizes;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.settings.RailcollSettings;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The (algorithm, size) points of a bench sweep, and which of them an algorithm refuses: an algorithm may run a
 * placement at small sizes and not at large ones ({@code allreduce.shm-doubling}'s slots must fit the node buffer: on
 * 1x2 up to 256 KiB, on 1x16 up to 16 KiB). The verdict per point is {@link Candidates#refusal} on the shape the
 * communicator builds for that call, the same check by which the engine refuses a forced algorithm, and it depends on
 * nothing but the collective, placement, rails, root, size and the job's settings: every rank and the CLI compute the
 * same points without a message between them (decision 0223).
 *
 * <p>{@code all} becomes every catalog algorithm of the collective that runs at least one size of the sweep; {@code
 * auto} runs every size. A named algorithm that is unknown, of another collective, or runs no size of the sweep is a
 * bad option ({@link IllegalArgumentException}), as is a sweep left with no algorithm. Immutable.
 */
public final class SweepPoints {
    private final Collective collective;
    private final Placement placement;
    private final int ports;
    private final int root;
    private final Map<String, String> env;
    private final List<String> algorithms;
    /** The catalog algorithm of each entry of {@link #algorithms}; null for {@code auto}. */
    private final List<Algorithm> catalogAlgorithms;
    private final long[] sizes;
    /** Per algorithm and size, why the algorithm refuses it; null where it runs. */
    private final String[][] refused;
    /** Algorithms that {@code all} left out though they run the placement: they refuse every size swept. */
    private final List<String> leftOut;

    private SweepPoints(Collective collective, Placement placement, int ports, int root, Map<String, String> env,
                        List<Algorithm> catalogAlgorithms, long[] sizes, String[][] refused, List<String> leftOut) {
        this.collective = collective;
        this.placement = placement;
        this.ports = ports;
        this.root = root;
        this.env = Map.copyOf(env);
        this.catalogAlgorithms = java.util.Collections.unmodifiableList(new ArrayList<>(catalogAlgorithms));
        this.algorithms = catalogAlgorithms.stream().map(a -> a == null ? "auto" : a.id()).toList();
        this.sizes = sizes.clone();
        this.refused = refused;
        this.leftOut = List.copyOf(leftOut);
    }

    /**
     * The points of sweeping {@code requested} (ids, {@code all}, {@code auto}) over {@code sizes}, with
     * {@code rails} rails per node and the job's settings {@code env}.
     *
     * @throws IllegalArgumentException for an unknown algorithm, one of another collective, one that runs no size of
     *                                  the sweep (naming why at the first), or an empty sweep
     */
    public static SweepPoints of(Collective collective, Placement placement, int rails, int root,
                                 List<String> requested, long[] sizes, Map<String, String> env) {
        // What the communicator takes for k: RAILCOLL_PORTS, 0 meaning one per rail.
        int ports = RailcollSettings.PORTS.read(env) == 0 ? rails : RailcollSettings.PORTS.read(env);
        if (sizes.length == 0) {
            throw new IllegalArgumentException("no sizes to sweep");
        }
        AlgorithmCatalog catalog = AlgorithmCatalog.standard();
        List<Algorithm> algorithms = new ArrayList<>();
        List<String[]> rows = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (String raw : requested) {
            String name = raw.strip();
            if (name.equals("auto")) {
                add(algorithms, rows, null, new String[sizes.length]);
            } else if (name.equals("all")) {
                for (Algorithm a : catalog.forCollective(collective)) {
                    String[] row = refusals(a, collective, placement, ports, root, sizes, env);
                    if (runsAny(row)) {
                        add(algorithms, rows, a, row);
                    } else if (Candidates.refusal(a, shape(collective, placement, ports, root, smallest(collective),
                            env), env).isEmpty() && leftOut.stream().noneMatch(l -> l.startsWith(a.id() + " "))) {
                        leftOut.add(a.id() + " (it refuses every size swept; at " + Sizes.label(sizes[0]) + ": "
                                + row[0] + ")");
                    }
                }
            } else {
                Algorithm a = known(catalog, collective, name);
                String[] row = refusals(a, collective, placement, ports, root, sizes, env);
                if (!runsAny(row)) {
                    throw new IllegalArgumentException(a.id() + " runs none of the sizes swept on " + placement.describe()
                            + " (at " + Sizes.label(sizes[0]) + ": " + row[0] + ")");
                }
                add(algorithms, rows, a, row);
            }
        }
        if (algorithms.isEmpty()) {
            throw new IllegalArgumentException("no " + collective.id() + " algorithm runs any size swept on "
                    + placement.describe() + (leftOut.isEmpty() ? "" : ": " + String.join("; ", leftOut)));
        }
        return new SweepPoints(collective, placement, ports, root, env, algorithms, sizes,
                rows.toArray(String[][]::new), leftOut);
    }

    private static void add(List<Algorithm> algorithms, List<String[]> rows, Algorithm a, String[] row) {
        if (!algorithms.contains(a)) {
            algorithms.add(a);
            rows.add(row);
        }
    }

    private static Algorithm known(AlgorithmCatalog catalog, Collective collective, String name) {
        for (Algorithm a : catalog.forCollective(collective)) {
            if (a.id().equals(name)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown " + collective.id() + " algorithm '" + name + "'; known: "
                + String.join(", ", catalog.forCollective(collective).stream().map(Algorithm::id).toList()));
    }

    private static String[] refusals(Algorithm a, Collective collective, Placement placement, int ports, int root,
                                     long[] sizes, Map<String, String> env) {
        String[] row = new String[sizes.length];
        for (int z = 0; z < sizes.length; z++) {
            row[z] = Candidates.refusal(a, shape(collective, placement, ports, root, sizes[z], env), env).orElse(null);
        }
        return row;
    }

    private static boolean runsAny(String[] row) {
        return Arrays.stream(row).anyMatch(r -> r == null);
    }

    /** The smallest size {@code collective} takes: one element of a reduction, else one byte. */
    private static long smallest(Collective collective) {
        return collective.reduces() ? TimedReduction.TYPE.sizeBytes() : 1;
    }

    /**
     * The shape of the bench's call at {@code size}, as the communicator builds it: a reduction's in the bench's
     * element type and operator with one master group; otherwise with the job's {@code RAILCOLL_GROUPS}. A rootless
     * collective's root is 0.
     */
    static Shape shape(Collective collective, Placement placement, int ports, int root, long size,
                       Map<String, String> env) {
        int r = collective.hasRoot() ? root : 0;
        if (collective.reduces()) {
            return Shape.reduction(collective, placement, ports, size, r, TimedReduction.TYPE.sizeBytes(),
                    TimedReduction.OPERATOR.commutative());
        }
        return new Shape(collective, placement, ports, size, r, RailcollSettings.GROUPS.read(env));
    }

    /** The algorithms swept, in order: ids, and {@code auto}. */
    public List<String> algorithms() {
        return algorithms;
    }

    public long[] sizes() {
        return sizes.clone();
    }

    /** Whether algorithm {@code a} (index into {@link #algorithms}) runs size {@code z} (index into the sizes). */
    public boolean runs(int a, int z) {
        return refused[a][z] == null;
    }

    /**
     * Whether algorithm {@code a} runs {@code size}, a size the sweep may not list (the JIT warm-up's); computed
     * afresh, so for setting up, not for a timed loop.
     */
    public boolean runsAt(int a, long size) {
        Algorithm alg = catalogAlgorithms.get(a);
        return alg == null || Candidates.refusal(alg, shape(collective, placement, ports, root, size, env), env).isEmpty();
    }

    /** Why algorithm {@code a} refuses size {@code z}; empty where it runs. */
    public Optional<String> refusal(int a, int z) {
        return Optional.ofNullable(refused[a][z]);
    }

    /** The points that run. */
    public int runnable() {
        int n = 0;
        for (String[] row : refused) {
            for (String r : row) {
                n += r == null ? 1 : 0;
            }
        }
        return n;
    }

    /** Algorithm {@code a}'s sizes that run. */
    public long[] sizesRun(int a) {
        List<Long> out = new ArrayList<>();
        for (int z = 0; z < sizes.length; z++) {
            if (runs(a, z)) {
                out.add(sizes[z]);
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * One note per refused point, for the report: {@code n/a (allreduce.shm-doubling refuses 1 MiB on 1x2: reason)};
     * then one per algorithm that {@code all} left out though it runs the placement.
     */
    public List<String> notes() {
        List<String> out = new ArrayList<>();
        for (int a = 0; a < algorithms.size(); a++) {
            for (int z = 0; z < sizes.length; z++) {
                if (!runs(a, z)) {
                    out.add("n/a (" + algorithms.get(a) + " refuses " + Sizes.label(sizes[z]) + " on "
                            + placement.describe() + ": " + refused[a][z] + ")");
                }
            }
        }
        for (String l : leftOut) {
            out.add("left out of all: " + l);
        }
        return out;
    }

    /** The refused sizes of each algorithm with any, in bytes: what the result tables mark n/a. */
    public Map<String, List<Long>> refusedSizes() {
        Map<String, List<Long>> out = new java.util.LinkedHashMap<>();
        for (int a = 0; a < algorithms.size(); a++) {
            for (int z = 0; z < sizes.length; z++) {
                if (!runs(a, z)) {
                    out.computeIfAbsent(algorithms.get(a), k -> new ArrayList<>()).add(sizes[z]);
                }
            }
        }
        return out;
    }

    public Collective collective() {
        return collective;
    }
}
