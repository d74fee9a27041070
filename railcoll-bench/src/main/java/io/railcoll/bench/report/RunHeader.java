package io.railcoll.bench.report;

import java.util.Locale;

/**
 * The lines printed above the console tables: the machine, its load before and after, the kernel, JDK and commit,
 * how the JIT warm-up ended and which peers ran, so a table copied from a terminal carries what its report says.
 * Stateless.
 */
public final class RunHeader {
    private RunHeader() {
    }

    public static String render(RunFacts facts) {
        MachineFacts m = facts.machine();
        StringBuilder sb = new StringBuilder();
        sb.append("machine: ").append(m.cpu()).append(", ").append(m.cores()).append(" processors; ").append(m.os())
                .append("; JDK ").append(m.jdk()).append('\n');
        if (!facts.loadBefore().isEmpty()) {
            sb.append("load: before ").append(facts.loadBefore()).append("; after ").append(facts.loadAfter()).append('\n');
        }
        if (!facts.commit().isEmpty()) {
            sb.append("railcoll commit: ").append(facts.commit()).append('\n');
        }
        for (String w : facts.jitWarmup()) {
            sb.append("JIT warm-up: ").append(w).append('\n');
        }
        for (String a : facts.sampling()) {
            sb.append("samples auto: ").append(a).append('\n');
        }
        for (String p : facts.peers()) {
            sb.append("peer ").append(p).append('\n');
        }
        for (String r : facts.refusals()) {
            sb.append("not run: ").append(r).append('\n');
        }
        if (!facts.accounts().scope().isEmpty()) {
            sb.append("rail accounting: ").append(facts.accounts().scope()).append('\n');
        }
        if (!Double.isNaN(m.wakeUpRoundTripUs())) {
            sb.append(String.format(Locale.ROOT, "thread wake-up round trip: %.1f us%n", m.wakeUpRoundTripUs()));
        }
        return sb.toString();
    }
}
