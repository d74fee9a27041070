package io.railcoll.launcher;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

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

    /** One line saying what this network is, for the job banner. */
    String describe();

    @Override
    void close();
}
