package io.railcoll.bootstrap;

import io.railcoll.HandshakeRejectedException;
import io.railcoll.RailcollException;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A bootstrap whose identity comes from environment variables and whose records meet at a rendezvous
 * ({@link RendezvousServer}, served by the launcher or by rank 0): railcoll's own variables, Slurm's environment
 * and torchrun-style variables. The job secret is the user's ({@link UserSecret}) or the launcher's.
 *
 * <p>Lifetime: the rendezvous rank 0 serves lives until {@link #close}, so late ranks still get their table.
 */
final class RendezvousSource implements BootstrapSource {
    private final String name;
    private final JobIdentity job;
    private final RankIdentity identity;
    private final InetSocketAddress bind;
    private final String secretOrigin;
    private final List<String> details;
    private final PrintStream log;
    private final Handshake handshake;
    private RendezvousServer server;

    /**
     * @param bind where rank 0 binds the rendezvous it serves (the wildcard address where the job names a host,
     *             which may resolve to another of this node's addresses); ignored unless {@code job} says rank 0 serves
     */
    RendezvousSource(String name, JobIdentity job, int localRank, int localSize, InetSocketAddress bind,
                     String secretOrigin, List<String> details, PrintStream log) {
        this.name = name;
        this.job = job;
        this.identity = new RankIdentity(job.rank(), job.size(), localRank, localSize, job.nodeKey(), job.jobId());
        this.bind = bind;
        this.secretOrigin = secretOrigin;
        this.details = List.copyOf(details);
        this.log = log;
        this.handshake = new Handshake(job.jobId(), job.secret());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public RankIdentity identity() {
        return identity;
    }

    @Override
    public List<InetAddress> railAddresses() {
        return job.railAddresses();
    }

    @Override
    public InetSocketAddress routeHint() {
        return job.rendezvous();
    }

    @Override
    public String secretOrigin() {
        return secretOrigin;
    }

    @Override
    public JobTable exchange(RankRecord mine, long timeoutNs) {
        if (job.servesRendezvous() && job.rank() == 0) {
            try {
                server = RendezvousServer.start(bind, job.size(), handshake, timeoutNs, log);
            } catch (BindException e) {
                throw new RailcollException("rank 0: cannot serve the rendezvous at " + bind + " (" + e.getMessage()
                        + "): another program holds the port; " + portAdvice(), e);
            } catch (IOException e) {
                throw new RailcollException("rank 0: cannot serve the rendezvous at " + bind + ": " + e.getMessage(), e);
            }
        }
        try {
            return RendezvousClient.exchange(job.rendezvous(), handshake, mine, timeoutNs);
        } catch (HandshakeRejectedException e) {
            throw new HandshakeRejectedException("rank " + job.rank() + ": the rendezvous " + e.getMessage()
                    + " (this rank's job secret came from " + secretOrigin + "; every rank of a job must be given the"
                    + " same one)", e);
        }
    }

    private String portAdvice() {
        return switch (name) {
            case "torchrun" -> "under torchrun its agent holds MASTER_PORT: set RAILCOLL_RENDEZVOUS_PORT to a free port"
                    + " on every rank";
            case "slurm" -> "the port is derived from SLURM_JOB_ID and SLURM_STEP_ID; set RAILCOLL_RENDEZVOUS_PORT to"
                    + " choose another on every rank";
            default -> "choose another port in RAILCOLL_RENDEZVOUS";
        };
    }

    @Override
    public Handshake handshake() {
        return handshake;
    }

    @Override
    public List<String> details() {
        List<String> lines = new ArrayList<>(details);
        lines.add("rendezvous: " + job.rendezvous().getHostString() + ":" + job.rendezvous().getPort()
                + (job.servesRendezvous() ? ", served by rank 0" : ", served by the launcher"));
        return lines;
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
