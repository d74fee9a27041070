package io.railcoll.bootstrap;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Where a rank learns who it is and how it meets the other ranks of its job: railcoll's own variables, a
 * launcher's key-value store (PMIx, PMI-1) or a launcher's environment with a rendezvous served by rank 0 (Slurm,
 * torchrun-style). {@link BootstrapSources#choose} picks one from the process environment.
 *
 * <p>Lifetime: opened by {@link BootstrapSources}; {@link #exchange} once; closed by whoever owns the communicator
 * (a key-value store is finalized then, a rendezvous served by this rank stops). One thread.
 */
public interface BootstrapSource extends AutoCloseable {

    /** The source's id: {@code railcoll}, {@code pmix}, {@code pmi1}, {@code slurm} or {@code torchrun}. */
    String name();

    /** Who this process is in its job. */
    RankIdentity identity();

    /** The rail addresses the user named for this node ({@code RAILCOLL_RAILS}); empty for the default. */
    List<InetAddress> railAddresses();

    /**
     * An address whose route tells which local address to use as the default rail (the rendezvous), or null when
     * the source has none (a key-value store).
     */
    InetSocketAddress routeHint();

    /** How the job secret is obtained, for messages and {@code railcoll info --env}. */
    String secretOrigin();

    /**
     * Publishes {@code mine} and returns every rank's record, waiting at most {@code timeoutNs}. Settles the job
     * secret: afterwards {@link #handshake()} proves membership on every connection.
     */
    JobTable exchange(RankRecord mine, long timeoutNs);

    /** The handshake under the job secret; for a key-value store only after {@link #exchange}. */
    Handshake handshake();

    /** Lines for {@code railcoll info --env}: what the launcher offered, beyond the identity. */
    List<String> details();

    @Override
    void close();
}
