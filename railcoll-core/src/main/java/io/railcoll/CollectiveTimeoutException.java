package io.railcoll;

/** A wait passed its deadline; the message names what was awaited, from whom, on which rails, for how long. */
public class CollectiveTimeoutException extends RailcollException {
    public CollectiveTimeoutException(String message) {
        super(message);
    }
}
