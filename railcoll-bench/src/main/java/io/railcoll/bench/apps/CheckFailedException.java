package io.railcoll.bench.apps;

/**
 * An application's output failed verification (unsorted keys, momentum not conserved, ranks that disagree, a
 * result that differs from the single-process reference). Thrown by rank 0 after it has reported, so the job fails
 * and {@code bin/railcoll app} exits non-zero with this message.
 */
public final class CheckFailedException extends RuntimeException {
    public CheckFailedException(String message) {
        super(message);
    }
}
