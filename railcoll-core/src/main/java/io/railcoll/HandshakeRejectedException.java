package io.railcoll;

/** A connection's handshake failed: wrong job secret, another job, a bad rank or rail, or not a railcoll peer. */
public class HandshakeRejectedException extends RailcollException {
    public HandshakeRejectedException(String message) {
        super(message);
    }

    public HandshakeRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
