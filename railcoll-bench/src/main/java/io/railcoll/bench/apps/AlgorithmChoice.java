package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;

import java.util.stream.Collectors;

/**
 * Which algorithm of an app's compared collective a run uses: a forced catalog id, or {@code auto} (the
 * communicator's selection). Only that collective is steered (all-gather for the N-body and radix apps, as paper
 * 000's Table 1; all-reduce for k-means); other collectives an app calls keep automatic selection in both runs, so
 * the comparison isolates it.
 *
 * @param collective the compared collective
 * @param id         one of its catalog ids, or {@code null} for automatic selection
 */
public record AlgorithmChoice(Collective collective, String id) {
    static final String AUTO = "auto";

    static AlgorithmChoice automatic(Collective collective) {
        return new AlgorithmChoice(collective, null);
    }

    /** Parses {@code auto} or an all-gather id; see {@link #parse(Collective, String)}. */
    public static AlgorithmChoice parse(String text) {
        return parse(Collective.ALLGATHER, text);
    }

    /** Parses {@code auto} or an id of {@code collective}; unknown ids fail here, before any rank sends anything. */
    public static AlgorithmChoice parse(Collective collective, String text) {
        if (text.equals(AUTO)) {
            return automatic(collective);
        }
        Algorithm a;
        try {
            a = AlgorithmCatalog.standard().byId(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown algorithm '" + text + "'; " + collective.id() + " algorithms: "
                    + known(collective) + ", auto");
        }
        if (a.collective() != collective) {
            throw new IllegalArgumentException("'" + text + "' is a " + a.collective().id() + " algorithm; this app compares "
                    + collective.id() + " algorithms: " + known(collective) + ", auto");
        }
        return new AlgorithmChoice(collective, text);
    }

    /** The all-gather ids. */
    public static String known() {
        return known(Collective.ALLGATHER);
    }

    public static String known(Collective collective) {
        return AlgorithmCatalog.standard().forCollective(collective).stream().map(Algorithm::id)
                .collect(Collectors.joining(", "));
    }

    /** The all-reduce apps' default baseline: the ring, or in a deterministic job the one that adds in rank order. */
    public static String allreduceBaseline(boolean deterministic) {
        return deterministic ? "allreduce.deterministic" : "allreduce.ring";
    }

    /**
     * Refuses, in a deterministic job (RAILCOLL_DETERMINISTIC=on, decision 0091), a forced algorithm that does not add
     * in rank order: every rank would refuse it at its first call, after the launch.
     */
    static void requireDeterministic(String app, boolean deterministic, AlgorithmChoice... choices) {
        if (!deterministic) {
            return;
        }
        for (AlgorithmChoice c : choices) {
            if (c.id() != null && !AlgorithmCatalog.standard().byId(c.id()).deterministic()) {
                throw new IllegalArgumentException(app + ": " + c.id() + " does not add in rank order, and this job is "
                        + "deterministic (RAILCOLL_DETERMINISTIC=on, decision 0091): use allreduce.deterministic or auto");
            }
        }
    }

    boolean auto() {
        return id == null;
    }

    /** Makes {@code comm}'s calls of the collective use this choice; every rank calls it at the same point. */
    void apply(Communicator comm) {
        if (auto()) {
            comm.clearForcedAlgorithm(collective);
        } else {
            comm.forceAlgorithm(id);
        }
    }

    /**
     * The label a report shows: the id, or {@code auto:<what selection picks>} for the app's main block size (for a
     * reduction, the vector's bytes), so a reader sees which algorithm the speedup is about.
     */
    String label(Communicator comm, long blockBytes) {
        if (!auto()) {
            return id;
        }
        try {
            return AUTO + ":" + comm.selectedAlgorithm(collective, blockBytes, 0);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalStateException("automatic " + collective.id() + " selection failed for " + blockBytes
                    + "-byte blocks (" + e.getMessage() + "); force an algorithm instead: " + known(collective), e);
        }
    }

    @Override
    public String toString() {
        return auto() ? AUTO : id;
    }
}
