package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.bench.CheckApp;
import io.railcoll.launcher.RankApp;

import java.util.ArrayList;
import java.util.List;

/**
 * Several {@link CheckApp} runs in one job, one after the other on the same communicator, so that checks which need
 * the same placement, rails and settings pay JVM start-up once. Arguments: each pass's {@link CheckApp} arguments,
 * passes separated by {@value #THEN}. Rank 0 prints {@code PASS i: arguments} before each pass; each pass prints
 * its own {@code CHECKED} line, and a wrong byte fails the job naming its case as {@link CheckApp} does.
 */
public final class CheckPasses implements RankApp {
    static final String THEN = "then";

    @Override
    public void run(Communicator comm, List<String> args) {
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
            if (comm.rank() == 0) {
                System.out.println("PASS " + (i + 1) + ": " + String.join(" ", passes.get(i)));
            }
            new CheckApp().run(comm, passes.get(i));
        }
    }
}
