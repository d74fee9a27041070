package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.bench.CheckApp;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Collective;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Several check programs in one job, one after the other on the same communicator, so that checks which need the
 * same placement, rails and settings pay JVM start-up and warm-up once (decisions 0100 and 0082). Arguments: each
 * pass's arguments, passes separated by {@value #THEN}. A pass whose first argument is one of {@link #APPS}' names
 * runs that program with the rest of its arguments; any other pass is a {@link CheckApp} pass with all of them.
 * Rank 0 prints {@code PASS i: arguments} before each pass; each pass prints its own summary line ({@code CHECKED},
 * {@code ALLREDUCE-CHECKED}, ...), and a wrong result fails the job naming its case as the program does, and the pass.
 * Between passes every collective returns to automatic selection, as in a job of its own.
 */
public final class CheckPasses implements RankApp {
    static final String THEN = "then";
    /** The check programs a pass may name. */
    static final Map<String, Supplier<RankApp>> APPS = Map.of(
            "collectives", CheckApp::new,
            "allreduce", AllreduceApps.Check::new,
            "reductions", ReductionApps.Check::new,
            "subcomm", SubcommApps.Check::new);

    @Override
    public void run(Communicator comm, List<String> args) throws Exception {
        List<List<String>> passes = new ArrayList<>();
        passes.add(new ArrayList<>());
        for (String a : args) {
            if (a.equals(THEN)) {
                passes.add(new ArrayList<>());
            } else {
                passes.getLast().add(a);
            }
        }
        for (int i = 0; i < passes.size(); i++) {
            List<String> pass = passes.get(i);
            String name = !pass.isEmpty() && APPS.containsKey(pass.getFirst()) ? pass.getFirst() : "collectives";
            List<String> appArgs = name.equals(pass.isEmpty() ? "" : pass.getFirst()) ? pass.subList(1, pass.size()) : pass;
            if (comm.rank() == 0) {
                System.out.println("PASS " + (i + 1) + ": " + String.join(" ", pass));
            }
            try {
                APPS.get(name).get().run(comm, appArgs);
            } catch (AssertionError e) {
                throw new AssertionError("pass " + (i + 1) + " (" + String.join(" ", pass) + "): " + e.getMessage(), e);
            }
            for (Collective c : Collective.values()) {
                comm.clearForcedAlgorithm(c);
            }
        }
    }
}
