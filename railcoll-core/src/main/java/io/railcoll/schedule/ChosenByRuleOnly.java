package io.railcoll.schedule;

/**
 * An algorithm the selector's model never picks: it runs where a tuning rule names it or where it is forced. For an
 * algorithm whose measured times swing far from what the model predicts (decision 0227: the single-copy prefixes on a
 * host whose processors the ranks share, 0.5x to 20x of the node-buffer ones from one run to the next), so that only
 * the measured rules choose it; the model still prices it for the explanation.
 */
public interface ChosenByRuleOnly extends Algorithm {
}
