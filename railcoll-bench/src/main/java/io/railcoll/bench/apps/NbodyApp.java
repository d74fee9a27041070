package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * N-BODY of paper 000's Table 1, as direct summation: bodies are split evenly over ranks; every step each rank
 * integrates its bodies and all-gathers positions ({@code 24 * ceil(n/ranks)} bytes per rank, padded to equal
 * blocks, see {@link BlockSplit}), then computes the forces on its bodies from all positions. The timed section runs
 * once with the baseline all-gather and once with the compared one; options in {@link NbodyConfig}.
 *
 * <p>Checks, so that a fast wrong answer fails the job: total momentum conserved to rounding (forces are exactly
 * pairwise antisymmetric), energy drift bounded, every rank holding bit-identical final states, both algorithms
 * giving bit-identical states (an all-gather only moves bytes, so the choice must not change a bit), and, up to
 * {@code reference-max-bodies}, equality with a single-process run of the same arithmetic on rank 0.
 */
public final class NbodyApp implements RankApp {

    /** One run's timing and what the checks need of it. */
    private record Outcome(String name, RunTiming timing, NbodyTotals start, NbodyTotals end, double[] state,
                           long stateHash, long viewHash) {
    }

    @Override
    public void run(Communicator comm, List<String> args) throws Exception {
        NbodyConfig c = NbodyConfig.parse(args);
        Bodies bodies = Bodies.generate(c.bodies(), c.seed());
        BlockSplit split = new BlockSplit(c.bodies(), comm.size());
        long blockBytes = 3L * Double.BYTES * split.block();
        if (comm.rank() == 0) {
            System.out.println("nbody: " + c.problem() + " on " + comm.size() + " ranks (" + comm.placement().describe()
                    + "), all-gather of " + blockBytes + " B per rank per step (" + split.block() + " bodies, "
                    + split.paddingSlots() + " padding)");
        }
        for (int w = 0; w < c.warmup(); w++) {
            simulate(comm, c, bodies, split, "warm-up", c.baseline(), false);
            simulate(comm, c, bodies, split, "warm-up", c.compared(), false);
        }
        List<Outcome> outcomes = new ArrayList<>();
        RunTiming baseline = null;
        RunTiming compared = null;
        for (int rep = 0; rep < c.repeats(); rep++) {
            String repeat = c.repeats() > 1 ? " (repeat " + (rep + 1) + ")" : "";
            Outcome b = simulate(comm, c, bodies, split, "baseline" + repeat, c.baseline(), false);
            Outcome k = simulate(comm, c, bodies, split, "compared" + repeat, c.compared(), c.corruptStep() > 0);
            baseline = b.timing().best(baseline);
            compared = k.timing().best(compared);
            outcomes.add(b);
            outcomes.add(k);
            if (comm.rank() == 0) {
                System.out.printf(Locale.ROOT, "nbody: repeat %d: %s %.4f s, %s %.4f s%n", rep + 1,
                        b.timing().label(), b.timing().totalSeconds(), k.timing().label(), k.timing().totalSeconds());
            }
        }
        c.baseline().apply(comm);
        List<String> problems = RankVerdicts.gather(comm, check(comm, c, bodies, outcomes));
        String checks = problems.isEmpty() ? passedText(c, comm.size(), outcomes) : String.join("; ", problems);
        AppResult result = new AppResult("nbody", comm.placement().describe(), comm.size(), comm.rails(), c.problem(), "allgather",
                blockBytes, baseline, compared, problems.isEmpty(), checks);
        AppReporting.report(comm, result, c.result(), c.summary());
    }

    private static Outcome simulate(Communicator comm, NbodyConfig c, Bodies bodies, BlockSplit split, String role,
                                    AlgorithmChoice choice, boolean corrupt) {
        choice.apply(comm);
        String label = choice.label(comm, 3L * Double.BYTES * split.block());
        NbodyState s = NbodyState.start(bodies, split, comm.rank(), c.eps());
        NbodyTotals start = totals(comm, s);
        MemorySegment send = MemorySegment.ofArray(s.position);
        MemorySegment recv = MemorySegment.ofArray(s.all);
        int victim = comm.size() - 1;
        RunTiming timing = RunTiming.measure(comm, choice, label, timed -> NbodySimulation.run(s, c.steps(), c.dt(),
                (pos, all, step) -> {
                    timed.allgather(send, recv);
                    if (corrupt && step == c.corruptStep() && comm.rank() == victim) {
                        // As if the exchange had delivered body 0 one length unit away from where its owner put it.
                        all[3 * GravityKernel.slot(split, 0)] += 1.0;
                    }
                }));
        NbodyTotals end = totals(comm, s);
        double[] blocks = new double[6 * split.block() * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(s.finalBlock()), MemorySegment.ofArray(blocks));
        double[] state = NbodyState.unpad(split, blocks);
        return new Outcome(role + " " + label, timing, start, end, state, Hashing.of(state), Hashing.of(s.all));
    }

    private static NbodyTotals totals(Communicator comm, NbodyState s) {
        double[] all = new double[NbodyTotals.DOUBLES * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(s.localTotals().toArray()), MemorySegment.ofArray(all));
        return NbodyTotals.sum(all, comm.size());
    }

    /** This rank's findings; global quantities (identical on every rank) are reported by rank 0 only. */
    private static List<String> check(Communicator comm, NbodyConfig c, Bodies bodies, List<Outcome> outcomes) {
        List<String> problems = new ArrayList<>();
        long[] mine = new long[2 * outcomes.size()];
        for (int i = 0; i < outcomes.size(); i++) {
            mine[2 * i] = outcomes.get(i).stateHash();
            mine[2 * i + 1] = outcomes.get(i).viewHash();
        }
        long[] all = new long[mine.length * comm.size()];
        Staging.allgather(comm, MemorySegment.ofArray(mine), MemorySegment.ofArray(all));
        for (int i = 0; i < outcomes.size(); i++) {
            String run = outcomes.get(i).name();
            for (int r = 0; r < comm.size(); r++) {
                if (all[r * mine.length + 2 * i] != mine[2 * i] || all[r * mine.length + 2 * i + 1] != mine[2 * i + 1]) {
                    problems.add(run + ": final state or last exchanged positions differ from rank " + r + "'s");
                    break;
                }
            }
        }
        if (comm.rank() != 0) {
            return problems;
        }
        Outcome first = outcomes.getFirst();
        for (Outcome o : outcomes) {
            String run = o.name();
            double dp = o.end().momentumDrift(o.start());
            if (!(dp <= c.momentumTolerance())) {
                problems.add(String.format(Locale.ROOT, "%s: momentum not conserved: drift %.3e > %.1e", run, dp, c.momentumTolerance()));
            }
            double de = o.end().energyDrift(o.start());
            if (!(de <= c.energyTolerance())) {
                problems.add(String.format(Locale.ROOT, "%s: energy drift %.3e > %.1e", run, de, c.energyTolerance()));
            }
            if (o.stateHash() != first.stateHash()) {
                problems.add(run + ": final state differs from " + first.name() + "'s: "
                        + StateDiff.describe(first.state(), o.state()));
            }
        }
        if (c.bodies() <= c.referenceMaxBodies()) {
            double[] reference = NbodySimulation.reference(bodies, c.steps(), c.dt(), c.eps());
            for (Outcome o : outcomes) {
                String diff = StateDiff.describe(reference, o.state());
                if (diff != null) {
                    problems.add(o.name() + ": differs from the single-process reference: " + diff);
                }
            }
        }
        return problems;
    }

    private static String passedText(NbodyConfig c, int ranks, List<Outcome> outcomes) {
        double dp = 0;
        double de = 0;
        for (Outcome o : outcomes) {
            dp = Math.max(dp, o.end().momentumDrift(o.start()));
            de = Math.max(de, o.end().energyDrift(o.start()));
        }
        return String.format(Locale.ROOT,
                "momentum drift %.1e (limit %.0e), energy drift %.1e (limit %.0e), %d ranks agree bit for bit, "
                        + "both algorithms give the same bits, %s", dp, c.momentumTolerance(), de, c.energyTolerance(), ranks,
                c.bodies() <= c.referenceMaxBodies() ? "single-process reference matches"
                        : "reference skipped (more than " + c.referenceMaxBodies() + " bodies)");
    }
}
