package io.railcoll;

/** Every rail to a peer is down, so a transfer cannot complete on any of them. */
public class RailDownException extends RailcollException {
    public RailDownException(String message) {
        super(message);
    }
}
