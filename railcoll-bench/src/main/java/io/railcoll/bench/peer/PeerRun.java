package io.railcoll.bench.peer;

import io.railcoll.bench.TimedReduction;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One peer sweep: a collective over a list of sizes on a number of ranks, with OSU-style counts.
 *
 * <p>{@code placement} gives the rank count and labels the results so they share a table with the
 * railcoll sweep they are compared with; without {@code extraMpirunArgs} that place ranks elsewhere,
 * every rank runs on this host and Open MPI uses its shared-memory path whatever the placement says,
 * which {@code engineLabel} records ({@value #ONE_HOST_ENGINE}). Immutable; made by {@link #of} with OSU's defaults,
 * or by a {@link Builder} ({@link #builder}, or {@link #toBuilder} to derive one run from another).
 *
 * @param largeFromBytes  sizes at or above this use {@code largeWarmup}/{@code largeIterations} (OSU: 8 KiB)
 * @param samples         repeated measurements per size; results keep their min/median/max
 * @param check           verify every received byte once per size before timing
 * @param budgetMicros    0 for the fixed counts; otherwise the counts of {@code railcoll bench} with this time per
 *                        sample: warm-up and iterations per size cut to what fits it, from the fastest of 3 calls,
 *                        so both sides of a comparison average the same number of calls per sample
 * @param timeout         the whole mpirun's deadline; past it the process tree is killed
 * @param extraMpirunArgs inserted before the program, e.g. a launcher agent for network namespaces
 * @param railInterfaces  rail interfaces whose kernel byte counters every rank reads around each size, in its own
 *                        network namespace (rail accounting, {@code io.railcoll.bench.rails}); empty for none
 * @param addedBelowBytes sizes below this also measure what a call adds to a loop of barriers (decision 0232); 0 for
 *                        none
 */
public record PeerRun(Collective collective, Placement placement, int rails, String engineLabel, List<Long> sizes,
                      int warmup, int iterations, int largeWarmup, int largeIterations, long largeFromBytes,
                      int samples, boolean check, long budgetMicros, Duration timeout, List<String> extraMpirunArgs,
                      List<String> railInterfaces, long addedBelowBytes) {

    public static final String ONE_HOST_ENGINE = "one-host shm";

    public PeerRun {
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(engineLabel, "engineLabel");
        Objects.requireNonNull(timeout, "timeout");
        sizes = List.copyOf(sizes);
        extraMpirunArgs = List.copyOf(extraMpirunArgs);
        railInterfaces = List.copyOf(railInterfaces);
        if (!TimedReduction.peersRun(collective)) {
            throw new IllegalArgumentException("the peers do not run " + collective.id() + " yet");
        }
        String sizeProblem = TimedReduction.sizeProblem(collective, sizes);
        if (sizeProblem != null) {
            throw new IllegalArgumentException(sizeProblem);
        }
        if (collective != Collective.BARRIER && sizes.isEmpty()) {
            throw new IllegalArgumentException("a " + collective.id() + " sweep needs at least one size");
        }
        if (sizes.size() > 64) {
            throw new IllegalArgumentException("peer_bench takes at most 64 sizes, got " + sizes.size());
        }
        for (long size : sizes) {
            if (size < 0 || size > Integer.MAX_VALUE / placement.size()) {
                throw new IllegalArgumentException("size " + size + " x " + placement.size()
                        + " ranks must be within 0..2^31-1 bytes (MPI counts are ints)");
            }
        }
        if (warmup < 0 || largeWarmup < 0 || iterations < 1 || largeIterations < 1 || samples < 1
                || largeFromBytes < 0 || rails < 0 || budgetMicros < 0 || addedBelowBytes < 0) {
            throw new IllegalArgumentException("need warmups >= 0, iterations >= 1, samples >= 1, rails >= 0, budget >= 0,"
                    + " added-below >= 0: "
                    + this);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    /** OSU's default counts (1000/200 below 8 KiB, 100/10 above), 5 samples, no check, 1 rail, 10 minutes. */
    public static PeerRun of(Collective collective, Placement placement, List<Long> sizes) {
        return builder(collective, placement, sizes).build();
    }

    /** A run with {@link #of}'s defaults, to change before {@link Builder#build}. */
    public static Builder builder(Collective collective, Placement placement, List<Long> sizes) {
        return new Builder(collective, placement, sizes);
    }

    /** This run's settings, to derive another run from. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * A peer run's settings, changed one at a time; {@link #build} checks them all (the record's constructor), so a
     * setter checks nothing. A new setting is a record component, a field and a setter here, and one line in the
     * copying constructor and in {@link #build}, however many setters there are.
     * Not thread-safe; one per run being built.
     */
    public static final class Builder {
        private final Collective collective;
        private final Placement placement;
        private final List<Long> sizes;
        private int rails = 1;
        private String engineLabel = ONE_HOST_ENGINE;
        private int warmup = 200;
        private int iterations = 1000;
        private int largeWarmup = 10;
        private int largeIterations = 100;
        private long largeFromBytes = 8192;
        private int samples = 5;
        private boolean check;
        private long budgetMicros;
        private Duration timeout = Duration.ofMinutes(10);
        private List<String> extraMpirunArgs = List.of();
        private List<String> railInterfaces = List.of();
        private long addedBelowBytes;

        private Builder(Collective collective, Placement placement, List<Long> sizes) {
            this.collective = collective;
            this.placement = placement;
            this.sizes = sizes;
        }

        private Builder(PeerRun run) {
            this(run.collective, run.placement, run.sizes);
            rails = run.rails;
            engineLabel = run.engineLabel;
            warmup = run.warmup;
            iterations = run.iterations;
            largeWarmup = run.largeWarmup;
            largeIterations = run.largeIterations;
            largeFromBytes = run.largeFromBytes;
            samples = run.samples;
            check = run.check;
            budgetMicros = run.budgetMicros;
            timeout = run.timeout;
            extraMpirunArgs = run.extraMpirunArgs;
            railInterfaces = run.railInterfaces;
            addedBelowBytes = run.addedBelowBytes;
        }

        /** Warm-up calls and timed calls per sample, below {@code largeFromBytes} and at or above it. */
        public Builder counts(int warmup, int iterations, int largeWarmup, int largeIterations) {
            this.warmup = warmup;
            this.iterations = iterations;
            this.largeWarmup = largeWarmup;
            this.largeIterations = largeIterations;
            return this;
        }

        /** railcoll bench's counts: as many calls per sample, up to the counts, as fit {@code perSample}. */
        public Builder budgetPerSample(Duration perSample) {
            this.budgetMicros = perSample.toNanos() / 1000;
            return this;
        }

        /** Sizes at or above {@code largeFromBytes} use the large counts. */
        public Builder largeFromBytes(long largeFromBytes) {
            this.largeFromBytes = largeFromBytes;
            return this;
        }

        public Builder samples(int samples) {
            this.samples = samples;
            return this;
        }

        public Builder check(boolean check) {
            this.check = check;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Labels only: the rails the compared railcoll sweep used. */
        public Builder rails(int rails) {
            this.rails = rails;
            return this;
        }

        /** Extra mpirun arguments and the engine label that says what they change (e.g. {@code netns}). */
        public Builder mpirunArgs(List<String> extraMpirunArgs, String engineLabel) {
            this.extraMpirunArgs = extraMpirunArgs;
            this.engineLabel = engineLabel;
            return this;
        }

        /** Rail accounting: the interfaces every rank counts around each size. */
        public Builder railInterfaces(List<String> railInterfaces) {
            this.railInterfaces = railInterfaces;
            return this;
        }

        /** Sizes below {@code bytes} also measure what a call adds to a loop of barriers (0: none; decision 0232). */
        public Builder addedToBarrierBelowBytes(long bytes) {
            this.addedBelowBytes = bytes;
            return this;
        }

        /** The run, checked as every {@link PeerRun} is. */
        public PeerRun build() {
            return new PeerRun(collective, placement, rails, engineLabel, sizes, warmup, iterations, largeWarmup,
                    largeIterations, largeFromBytes, samples, check, budgetMicros, timeout, extraMpirunArgs,
                    railInterfaces, addedBelowBytes);
        }
    }

    public int ranks() {
        return placement.size();
    }

    /** MPI's name for the collective, as peer_bench takes and prints it. */
    static String mpiName(Collective collective) {
        return collective == Collective.BROADCAST ? "bcast" : collective.id();
    }

    /** peer_bench's arguments for this run. */
    public List<String> programArgs() {
        List<String> args = new ArrayList<>(List.of("--collective", mpiName(collective)));
        if (collective != Collective.BARRIER) {
            args.add("--sizes");
            args.add(String.join(",", sizes.stream().map(String::valueOf).toList()));
        }
        args.addAll(List.of("--warmup", Integer.toString(warmup), "--iterations", Integer.toString(iterations),
                "--large-warmup", Integer.toString(largeWarmup), "--large-iterations", Integer.toString(largeIterations),
                "--large-from", Long.toString(largeFromBytes), "--samples", Integer.toString(samples)));
        if (budgetMicros > 0) {
            args.add("--budget-us");
            args.add(Long.toString(budgetMicros));
        }
        if (check) {
            args.add("--check");
        }
        if (!railInterfaces.isEmpty()) {
            args.add("--rail-interfaces");
            args.add(String.join(",", railInterfaces));
        }
        if (addedBelowBytes > 0) {
            args.add("--added-below");
            args.add(Long.toString(addedBelowBytes));
        }
        return args;
    }
}
