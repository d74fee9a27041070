package io.railcoll.sim;

/** A simulation would hold more ops than its budget allows; the message says how many and why no symmetry helped. */
public final class SimulationTooLargeException extends RuntimeException {
    public SimulationTooLargeException(String message) {
        super(message);
    }
}
