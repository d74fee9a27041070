package io.railcoll.select;

import io.railcoll.schedule.Collective;

/**
 * For {@code collective}, blocks of at most {@code maxBlockBytes} (inclusive) use {@code algorithmId} when it supports
 * the shape. Rules are tried in order; the first that applies wins.
 */
public record SizeRule(Collective collective, long maxBlockBytes, String algorithmId) {
    public SizeRule {
        if (!algorithmId.startsWith(collective.id() + ".")) {
            throw new IllegalArgumentException("rule for " + collective.id() + " names " + algorithmId);
        }
    }
}
