package io.railcoll.select;

import java.util.Arrays;

/**
 * A rule's condition on whether the job's ranks share processors ({@code processors=own} / {@code processors=shared}
 * in a tuning file, decision 0196): a placement fact, like the rank counts, that the job table settles at start-up
 * alike on every rank ({@link AlgorithmSelector#everyRankHasAProcessor(boolean)}). Single copy, for one, wins on
 * large blocks where every rank copies on a processor of its own and loses where ranks wait for each other's turn.
 */
public enum Processors {
    /** No condition. */
    ANY(""),
    /** Every rank of the job has a processor of its own (no node's ranks outnumber its processors). */
    OWN("own"),
    /** Some node's ranks outnumber its processors (on an emulated cluster: the host's ranks its processors). */
    SHARED("shared");

    private final String key;

    Processors(String key) {
        this.key = key;
    }

    /** How a tuning file writes it; empty for {@link #ANY}. */
    public String key() {
        return key;
    }

    /** Whether a job where every rank has a processor of its own ({@code own}) or not meets this condition. */
    public boolean holds(boolean own) {
        return this == ANY || own == (this == OWN);
    }

    /** {@code own} or {@code shared}. */
    public static Processors fromKey(String key) {
        for (Processors p : values()) {
            if (p != ANY && p.key.equals(key)) {
                return p;
            }
        }
        throw new IllegalArgumentException("processors=" + key + " is neither own (every rank has a processor of its"
                + " own) nor shared (some node's ranks outnumber its processors)");
    }

    static String keys() {
        return String.join("|", Arrays.stream(values()).filter(p -> p != ANY).map(Processors::key).toList());
    }
}
