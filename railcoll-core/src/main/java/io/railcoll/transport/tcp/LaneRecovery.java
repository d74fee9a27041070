package io.railcoll.transport.tcp;

/**
 * Told by the {@link LaneSet} of every lane given up for a failure, so that it can be reconnected
 * ({@link RailReconnector}). Threading: any driver thread.
 */
interface LaneRecovery {
    /** Whether this rank dials the reconnections to {@code peer} (else it waits for the peer to dial). */
    boolean dials(int peer);

    /** Lane {@code lane} to {@code peer} was given up: reconnect it (when this rank dials), with back-off. */
    void laneDown(int peer, int lane);
}
