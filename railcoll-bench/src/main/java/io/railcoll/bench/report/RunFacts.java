package io.railcoll.bench.report;

import io.railcoll.bench.rails.RailAccounts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Everything a reader needs to judge a run's figures beyond the machine: the load before and after
 * ({@code /proc/loadavg}), the railcoll commit, how the JIT warm-up ended, which peers ran (version and path) or why
 * not, and the rail accounting. Immutable.
 *
 * @param loadBefore {@code /proc/loadavg} when the run began ("unknown" where unreadable)
 * @param loadAfter  {@code /proc/loadavg} when the report was written
 * @param commit     the railcoll commit the run was built from, {@code -dirty} when the tree had changes
 * @param jitWarmup  what the warm-up said, and whether it reached quiet compilers or stopped at its cap; empty if none
 * @param sampling   what {@code --samples auto} did (extra passes, points left unsteady); empty without it
 * @param peers      one line per peer: its name, version and launcher path, or why it did not run
 * @param accounts   the rail accounting
 * @param refusals   one line per (algorithm, size) point the algorithm refused to run, saying why (its table cell
 *                   reads n/a), and per algorithm {@code all} left out for refusing every size; empty if none
 */
public record RunFacts(MachineFacts machine, String loadBefore, String loadAfter, String commit, List<String> jitWarmup,
                       List<String> sampling, List<String> peers, RailAccounts accounts, List<String> refusals) {

    public RunFacts {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(loadBefore, "loadBefore");
        Objects.requireNonNull(loadAfter, "loadAfter");
        Objects.requireNonNull(commit, "commit");
        jitWarmup = List.copyOf(jitWarmup);
        sampling = List.copyOf(sampling);
        peers = List.copyOf(peers);
        Objects.requireNonNull(accounts, "accounts");
        refusals = List.copyOf(refusals);
    }

    public RunFacts(MachineFacts machine, String loadBefore, String loadAfter, String commit, List<String> jitWarmup,
                    List<String> sampling, List<String> peers, RailAccounts accounts) {
        this(machine, loadBefore, loadAfter, commit, jitWarmup, sampling, peers, accounts, List.of());
    }

    /** These facts with the sweep's refused points ({@code io.railcoll.bench.SweepPoints#notes}). */
    public RunFacts withRefusals(List<String> refusals) {
        return new RunFacts(machine, loadBefore, loadAfter, commit, jitWarmup, sampling, peers, accounts, refusals);
    }

    /** Only the machine: a report rebuilt from a CSV, or a test. */
    public static RunFacts of(MachineFacts machine) {
        return new RunFacts(machine, "", "", "", List.of(), List.of(), List.of(), RailAccounts.none());
    }

    /** The first three fields of {@code /proc/loadavg} (1, 5, 15 minutes) and the runnable/total task count. */
    public static String loadNow() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
            return f.length >= 4 ? f[0] + " " + f[1] + " " + f[2] + " (runnable/tasks " + f[3] + ")" : String.join(" ", f);
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /**
     * The commit of the git work tree that holds {@code start} (a jar or classes directory), with {@code -dirty}
     * when tracked files differ from it; "unknown" outside a work tree or without git.
     */
    public static String commitOf(Path start) {
        for (Path p = start.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".git"))) {
                String head = git(p, "rev-parse", "--short=12", "HEAD");
                if (head.isEmpty()) {
                    return "unknown (git rev-parse failed in " + p + ")";
                }
                String dirty = git(p, "status", "--porcelain", "--untracked-files=no");
                return head + (dirty.isEmpty() ? "" : "-dirty");
            }
        }
        return "unknown (not built from a git work tree)";
    }

    private static String git(Path dir, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "";
            }
            return p.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
