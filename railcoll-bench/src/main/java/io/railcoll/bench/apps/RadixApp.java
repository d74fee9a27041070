package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Collective;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * RADIX of paper 000's Table 1: a parallel radix sort of seeded random unsigned keys spread evenly over ranks, which
 * all-gathers each pass's digit histograms ({@code 4 * 2^digitBits} bytes per rank) and then moves keys to their
 * owners ({@link RadixSorter}). The timed section (the whole sort) runs once with the baseline all-gather and once
 * with the compared one; options in {@link RadixConfig}; checks in {@link RadixChecks}.
 */
public final class RadixApp implements RankApp {

    @Override
    public void run(Communicator comm, List<String> args) throws Exception {
        RadixConfig c = RadixConfig.parse(args);
        BlockSplit split = new BlockSplit(c.keys(), comm.size());
        KeySource source = new KeySource(c.seed(), c.keyBits());
        String exchange = resolveExchange(comm, c.exchange());
        long blockBytes = RadixSorter.histogramBytes(c.digitBits());
        String problem = c.problem(KeyRedistribution.of(exchange).description());
        if (comm.rank() == 0) {
            System.out.println("radix: " + problem + " on " + comm.size() + " ranks (" + comm.placement().describe()
                    + "), all-gather of " + blockBytes + " B of digit counts per rank per pass");
        }
        for (int w = 0; w < c.warmup(); w++) {
            sortOnce(comm, c, split, source, exchange, "warm-up", c.baseline(), RadixSorter.Fault.NONE);
            sortOnce(comm, c, split, source, exchange, "warm-up", c.compared(), RadixSorter.Fault.NONE);
        }
        RadixSorter.Fault fault = c.corruptPass() > 0 ? new RadixSorter.Fault(c.corruptPass(), comm.size() - 1)
                : RadixSorter.Fault.NONE;
        List<RadixChecks.Outcome> outcomes = new ArrayList<>();
        RunTiming baseline = null;
        RunTiming compared = null;
        for (int rep = 0; rep < c.repeats(); rep++) {
            String repeat = c.repeats() > 1 ? " (repeat " + (rep + 1) + ")" : "";
            RadixChecks.Outcome b = sortOnce(comm, c, split, source, exchange, "baseline" + repeat, c.baseline(),
                    RadixSorter.Fault.NONE);
            RadixChecks.Outcome k = sortOnce(comm, c, split, source, exchange, "compared" + repeat, c.compared(), fault);
            baseline = b.timing().best(baseline);
            compared = k.timing().best(compared);
            outcomes.add(b);
            outcomes.add(k);
            if (comm.rank() == 0) {
                System.out.printf(Locale.ROOT, "radix: repeat %d: %s %.4f s, %s %.4f s%n", rep + 1,
                        b.timing().label(), b.timing().totalSeconds(), k.timing().label(), k.timing().totalSeconds());
            }
        }
        c.baseline().apply(comm);
        RadixChecks checks = new RadixChecks(comm, split, source, c.referenceMaxKeys());
        List<String> problems = RankVerdicts.gather(comm, checks.check(outcomes));
        String text = problems.isEmpty() ? checks.passedText() : String.join("; ", problems);
        AppResult result = new AppResult("radix", comm.placement().describe(), comm.size(), comm.rails(), problem, "allgather",
                blockBytes, baseline, compared, problems.isEmpty(), text);
        AppReporting.report(comm, result, c.result(), c.summary());
    }

    private static RadixChecks.Outcome sortOnce(Communicator comm, RadixConfig c, BlockSplit split, KeySource source,
                                                String exchange, String role, AlgorithmChoice choice,
                                                RadixSorter.Fault fault) {
        choice.apply(comm);
        String label = choice.label(comm, RadixSorter.histogramBytes(c.digitBits()));
        long[] keys = source.keysOf(split, comm.rank());
        RadixSorter sorter = new RadixSorter(c.keyBits(), c.digitBits(), split, comm.rank(),
                KeyRedistribution.of(exchange), fault);
        long[][] out = new long[1][];
        RunTiming timing = RunTiming.measure(comm, choice, label, timed -> out[0] = sorter.sort(keys, timed));
        return new RadixChecks.Outcome(role + " " + label, timing, out[0]);
    }

    /**
     * {@code auto} takes all-to-all when the communicator can select an algorithm for it, else the all-gather
     * fallback. Every rank asks the same catalog with the same placement, so all ranks decide alike.
     */
    static String resolveExchange(Communicator comm, String requested) {
        boolean alltoallAvailable;
        String why = "";
        try {
            comm.selectedAlgorithm(Collective.ALLTOALL, Long.BYTES, 0);
            alltoallAvailable = true;
        } catch (IllegalArgumentException | IllegalStateException e) {
            alltoallAvailable = false;
            why = e.getMessage();
        }
        return switch (requested) {
            case "auto" -> alltoallAvailable ? "alltoall" : "allgather";
            case "alltoall" -> {
                if (!alltoallAvailable) {
                    throw new IllegalStateException("radix: exchange=alltoall, but no all-to-all algorithm can be selected ("
                            + why + "); use exchange=allgather");
                }
                yield "alltoall";
            }
            default -> requested;
        };
    }
}
