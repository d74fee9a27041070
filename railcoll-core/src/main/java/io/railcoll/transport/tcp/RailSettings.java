package io.railcoll.transport.tcp;

/**
 * How the rails are used; filled from {@link io.railcoll.Config} by the composition root.
 *
 * @param rails                rails (networks) per node
 * @param connectionsPerRail   TCP connections per (peer, rail): several let one rail's thread keep more bytes in
 *                             flight (paper 002, NCCL's sockets per thread)
 * @param stripeThresholdBytes puts longer than this are split over every live connection
 * @param railTimeoutNs        a connection silent this long (no data, acknowledgement or heartbeat) is given up
 * @param eagerBytes           a DATA frame of at most this many bytes is copied when queued and completes once
 *                             written; larger ones complete when the receiver acknowledges them
 */
public record RailSettings(int rails, int connectionsPerRail, long stripeThresholdBytes, long railTimeoutNs,
                           int eagerBytes) {
    public RailSettings {
        if (eagerBytes < 0) {
            throw new IllegalArgumentException("eager limit must be >= 0");
        }
        if (rails < 1 || connectionsPerRail < 1 || rails * connectionsPerRail > 64) {
            throw new IllegalArgumentException("need 1..64 connections per peer, got " + rails + " rails x "
                    + connectionsPerRail + " connections");
        }
        if (stripeThresholdBytes < 0 || railTimeoutNs <= 0) {
            throw new IllegalArgumentException("bad stripe threshold or rail time-out");
        }
    }

    public int lanes() {
        return rails * connectionsPerRail;
    }
}
