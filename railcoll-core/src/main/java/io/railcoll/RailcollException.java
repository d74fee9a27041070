package io.railcoll;

/**
 * Root of every run-time failure of a collective or of start-up: a peer lost, a rail down, a time-out,
 * ranks that disagree on a collective or its sizes, a rejected handshake. Programming errors (bad sizes,
 * bad root, closed communicator) are {@link IllegalArgumentException}/{@link IllegalStateException} instead,
 * thrown before anything is sent. Messages say what was awaited, from which rank, on which rail, for how long.
 */
public class RailcollException extends RuntimeException {
    public RailcollException(String message) {
        super(message);
    }

    public RailcollException(String message, Throwable cause) {
        super(message, cause);
    }
}
