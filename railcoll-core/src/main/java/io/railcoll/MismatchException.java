package io.railcoll;

/**
 * Ranks disagree on a collective: a different operation, root, algorithm or size at the same point of the
 * program. Detected from frame headers by the receiving rank, which also tells the sender (and every other
 * peer) so the mismatch fails loudly on both sides instead of hanging.
 */
public class MismatchException extends RailcollException {
    public MismatchException(String message) {
        super(message);
    }
}
