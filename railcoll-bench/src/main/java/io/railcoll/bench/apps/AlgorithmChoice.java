package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;

import java.util.stream.Collectors;

/**
 * Which all-gather algorithm a run uses: a forced catalog id, or {@code auto} (the communicator's selection).
 * Only all-gather is steered; other collectives an app calls (the radix sort's all-to-all) keep automatic
 * selection in both runs, so the comparison isolates the all-gather, as paper 000's Table 1 does.
 *
 * @param id an {@code allgather.*} catalog id, or {@code null} for automatic selection
 */
public record AlgorithmChoice(String id) {
    static final String AUTO = "auto";

    static AlgorithmChoice automatic() {
        return new AlgorithmChoice(null);
    }

    /** Parses {@code auto} or an all-gather id; unknown ids fail here, before any rank sends anything. */
    public static AlgorithmChoice parse(String text) {
        if (text.equals(AUTO)) {
            return new AlgorithmChoice(null);
        }
        Algorithm a;
        try {
            a = AlgorithmCatalog.standard().byId(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown algorithm '" + text + "'; all-gather algorithms: " + known() + ", auto");
        }
        if (a.collective() != Collective.ALLGATHER) {
            throw new IllegalArgumentException("'" + text + "' is a " + a.collective().id()
                    + " algorithm; the apps compare all-gather algorithms: " + known() + ", auto");
        }
        return new AlgorithmChoice(text);
    }

    public static String known() {
        return AlgorithmCatalog.standard().forCollective(Collective.ALLGATHER).stream().map(Algorithm::id).collect(Collectors.joining(", "));
    }

    boolean auto() {
        return id == null;
    }

    /** Makes {@code comm}'s all-gathers use this choice; every rank calls it at the same point. */
    void apply(Communicator comm) {
        if (auto()) {
            comm.clearForcedAlgorithm(Collective.ALLGATHER);
        } else {
            comm.forceAlgorithm(id);
        }
    }

    /**
     * The label a report shows: the id, or {@code auto:<what selection picks>} for the app's main all-gather block
     * size, so a reader sees which algorithm the speedup is about.
     */
    String label(Communicator comm, long blockBytes) {
        if (!auto()) {
            return id;
        }
        try {
            return AUTO + ":" + comm.selectedAlgorithm(Collective.ALLGATHER, blockBytes, 0);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalStateException("automatic all-gather selection failed for " + blockBytes
                    + "-byte blocks (" + e.getMessage() + "); force an algorithm instead: " + known(), e);
        }
    }

    @Override
    public String toString() {
        return auto() ? AUTO : id;
    }
}
