package io.railcoll.transport.shm;

import io.railcoll.memory.Idler;

/**
 * The deadline-and-liveness half of a wait loop on shared flags, around an {@link Idler}:
 *
 * <pre>{@code
 * wait.begin(timeoutNs);
 * try {
 *     while (!condition()) wait.idle(peer, site);   // throws on time-out or a lost peer
 * } finally {
 *     wait.end();
 * }
 * }</pre>
 *
 * <p>The timeout bounds a <em>stall</em>: {@link #progressed} restarts it, so a large transfer
 * that keeps moving never times out, while a peer that stops for {@code timeoutNs} does. Peer
 * liveness is checked every {@link #LIVENESS_INTERVAL_NS}: the awaited peer, or every local rank
 * when the waiter depends on all of them (node collectives).
 *
 * <p>Threading: one thread (it carries that thread's idler). Lifetime: that of its region.
 */
final class PeerWait {
    /**
     * How often a waiting rank looks at its peers' processes; bounds how late it notices a death. A look reads
     * {@code /proc}, which a blocked rank pays for at every beat: at 20 ms it cost 3-5% of a core, at 100 ms well
     * under 1%, and a death is still named in a tenth of a second.
     */
    static final long LIVENESS_INTERVAL_NS = 100_000_000L;

    private final Idler idler;
    private final PeerWatch peers;
    private final boolean watchAllPeers;
    private long timeoutNs;
    private long startNs;
    private long nextCheckNs;

    PeerWait(Idler idler, PeerWatch peers, boolean watchAllPeers) {
        this.idler = idler;
        this.peers = peers;
        this.watchAllPeers = watchAllPeers;
    }

    void begin(long timeoutNs) {
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("timeoutNs must be positive, got " + timeoutNs);
        }
        this.timeoutNs = timeoutNs;
        progressed();
    }

    /** Something moved: back to spinning and restart the stall clock. */
    void progressed() {
        idler.reset();
        startNs = System.nanoTime();
        nextCheckNs = startNs + LIVENESS_INTERVAL_NS;
    }

    /** One idle step while waiting on {@code peer}; throws if the wait timed out or a peer is gone. */
    void idle(int peer, WaitSite site) {
        long now = System.nanoTime();
        long waited = now - startNs;
        if (now - nextCheckNs >= 0) {
            nextCheckNs = now + LIVENESS_INTERVAL_NS;
            if (watchAllPeers) {
                peers.requireAllAliveInTurn(peer, site, waited);
            } else {
                peers.requireAlive(peer, site, waited);
            }
        }
        if (waited >= timeoutNs) {
            // One last look: a peer that died just now should be reported as lost, not as slow.
            if (watchAllPeers) {
                peers.requireAllAlive(peer, site, waited);
            } else {
                peers.requireAlive(peer, site, waited);
            }
            throw new ShmException(ShmException.Reason.TIMED_OUT, peers.where() + ": timed out after "
                    + PeerWatch.millis(waited) + " ms without progress awaiting " + site.awaited(peer)
                    + " from " + peers.describe(peer));
        }
        idler.idle();
    }

    /** Futex sleeps of this wait's idler so far. */
    long sleeps() {
        return idler.sleeps();
    }

    void end() {
        idler.reset();
    }
}
