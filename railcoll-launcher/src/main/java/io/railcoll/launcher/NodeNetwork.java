package io.railcoll.launcher;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.OptionalLong;

/**
 * The network an emulated cluster's nodes live on: each node's address per rail, how to start a process on a
 * node, and where the rendezvous is served. Closed by the launcher when the job ends, whatever happened.
 */
public interface NodeNetwork extends AutoCloseable {

    /** Local address of rail {@code rail} on node {@code node}. */
    InetAddress railAddress(int node, int rail);

    /** Words put in front of a rank's command to run it on {@code node} (empty when no namespace is needed). */
    List<String> commandPrefix(int node);

    /**
     * Where the ranks find the rendezvous, or null when the launcher serves it itself on loopback. When not
     * null, rank 0 serves it at this address (the launcher cannot reach into the nodes' namespaces).
     */
    InetSocketAddress rankServedRendezvous();

    /** The rate every rail is limited to in each direction, in bit/s, or empty when rails run as fast as they can. */
    default OptionalLong railRateBitsPerSecond() {
        return OptionalLong.empty();
    }

    /** With a rail rate: the bytes the limiter lets through at once before the rate applies (its token bucket). */
    default OptionalLong railBurstBytes() {
        return OptionalLong.empty();
    }

    /** One line saying what this network is, for the job banner. */
    String describe();

    @Override
    void close();
}
