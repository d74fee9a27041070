package io.railcoll.bench.apps;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * What one application job measured and whether its output was right: rank 0 writes it as a small properties file
 * that {@code bin/railcoll app} reads to print its table. Speedups are baseline time over compared time, as in paper
 * 000's Table 1 (above 1: the compared algorithm is faster).
 *
 * @param app        {@code nbody}, {@code radix}, {@code kmeans} or {@code cg}
 * @param placement  ranks per node, e.g. {@code 4x4} or {@code 2,1,2}
 * @param problem    the problem size in words, e.g. {@code 2000 bodies, 10 steps}
 * @param mainCollective the collective the runs compare ({@code allgather}, {@code allreduce})
 * @param blockBytes the block size of the app's main collective (positions, digit counts; a reduction's vector)
 * @param checks     what was verified when it passed, or the problems found when it failed
 * @param otherCommunication what the communication time holds beside the main collective, as reports name it
 *                   ({@code halo point-to-point}); empty when nothing is reported apart
 */
public record AppResult(String app, String placement, int ranks, int rails, String problem, String mainCollective,
                        long blockBytes,
                        RunTiming baseline, RunTiming compared, boolean checkPassed, String checks,
                        String otherCommunication) {

    /** A result whose communication time is not broken down beyond the main collective. */
    public AppResult(String app, String placement, int ranks, int rails, String problem, String mainCollective,
                     long blockBytes, RunTiming baseline, RunTiming compared, boolean checkPassed, String checks) {
        this(app, placement, ranks, rails, problem, mainCollective, blockBytes, baseline, compared, checkPassed, checks, "");
    }

    public double appSpeedup() {
        return (double) baseline.totalNs() / Math.max(1, compared.totalNs());
    }

    public double commSpeedup() {
        return (double) baseline.commNs() / Math.max(1, compared.commNs());
    }

    /** Speedup of the compared collective alone (for the radix sort, without the key exchange both runs share). */
    public double mainSpeedup() {
        return (double) baseline.mainNs() / Math.max(1, compared.mainNs());
    }

    /** The lines rank 0 prints at the end of a job. */
    public List<String> summary() {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "%s: %s on %d ranks (%s), %d rails; compared %s of %d B",
                app, problem, ranks, placement, rails, mainCollective, blockBytes));
        out.add(line("baseline", baseline, mainCollective));
        out.add(line("compared", compared, mainCollective));
        out.addAll(perStep());
        out.add(String.format(Locale.ROOT,
                "  speedup of compared over baseline: application %.2f, communication %.2f, compared %s %.2f",
                appSpeedup(), commSpeedup(), mainCollective, mainSpeedup()));
        out.add((checkPassed ? "  check passed: " : "  CHECK FAILED: ") + checks);
        return out;
    }

    /**
     * Per-step lines (one per run, when the app counted its steps): the time of one step, and how much of it each
     * part of the communication took. Times are the runs' maxima over ranks divided by the steps.
     */
    public List<String> perStep() {
        List<String> out = new ArrayList<>();
        for (RunTiming t : List.of(baseline, compared)) {
            if (t.steps() <= 0) {
                continue;
            }
            double us = 1e6 / t.steps();
            String other = otherCommunication.isEmpty() ? "" : String.format(Locale.ROOT, ", %s %.1f us",
                    otherCommunication, t.otherSeconds() * us);
            out.add(String.format(Locale.ROOT, "  per iteration (%d) with %s: total %.1f us, comm %.1f us (%s %.1f us%s)",
                    t.steps(), t.label(), t.totalSeconds() * us, t.commSeconds() * us, mainCollective,
                    t.mainSeconds() * us, other));
        }
        return out;
    }

    private static String line(String role, RunTiming t, String mainCollective) {
        return String.format(Locale.ROOT,
                "  %s %-28s total %9.4f s   comm %9.4f s (%4.1f%%; compared %s %.4f s; %d collectives per rank)",
                role, t.label(), t.totalSeconds(), t.commSeconds(), 100.0 * t.commNs() / Math.max(1, t.totalNs()),
                mainCollective, t.mainSeconds(), t.calls());
    }

    public void write(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("app", app);
        p.setProperty("placement", placement);
        p.setProperty("ranks", Integer.toString(ranks));
        p.setProperty("rails", Integer.toString(rails));
        p.setProperty("problem", problem);
        p.setProperty("mainCollective", mainCollective);
        p.setProperty("blockBytes", Long.toString(blockBytes));
        put(p, "baseline", baseline);
        put(p, "compared", compared);
        p.setProperty("checkPassed", Boolean.toString(checkPassed));
        p.setProperty("checks", checks);
        p.setProperty("otherCommunication", otherCommunication);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, "railcoll application result");
        }
    }

    public static AppResult read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return new AppResult(get(p, "app"), get(p, "placement"), Integer.parseInt(get(p, "ranks")),
                Integer.parseInt(get(p, "rails")), get(p, "problem"), get(p, "mainCollective"),
                Long.parseLong(get(p, "blockBytes")),
                timing(p, "baseline"), timing(p, "compared"), Boolean.parseBoolean(get(p, "checkPassed")), get(p, "checks"),
                p.getProperty("otherCommunication", ""));
    }

    private static void put(Properties p, String role, RunTiming t) {
        p.setProperty(role + ".label", t.label());
        p.setProperty(role + ".totalNs", Long.toString(t.totalNs()));
        p.setProperty(role + ".commNs", Long.toString(t.commNs()));
        p.setProperty(role + ".mainNs", Long.toString(t.mainNs()));
        p.setProperty(role + ".otherNs", Long.toString(t.otherNs()));
        p.setProperty(role + ".calls", Long.toString(t.calls()));
        p.setProperty(role + ".steps", Long.toString(t.steps()));
    }

    private static RunTiming timing(Properties p, String role) {
        long commNs = Long.parseLong(get(p, role + ".commNs"));
        long mainNs = Long.parseLong(get(p, role + ".mainNs"));
        // Files written before the breakdown lack otherNs and steps.
        return new RunTiming(get(p, role + ".label"), Long.parseLong(get(p, role + ".totalNs")), commNs, mainNs,
                Long.parseLong(p.getProperty(role + ".otherNs", Long.toString(Math.max(0, commNs - mainNs)))),
                Long.parseLong(get(p, role + ".calls")), Long.parseLong(p.getProperty(role + ".steps", "0")));
    }

    private static String get(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException("application result file lacks '" + key + "'");
        }
        return v;
    }
}
