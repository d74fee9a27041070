package io.railcoll;

/**
 * A reduction's operator (a user function) threw while combining: the call fails with this exception, its cause
 * the operator's, and every peer is aborted so none waits for this rank until its deadline.
 */
public class OperatorFailedException extends RailcollException {
    public OperatorFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
