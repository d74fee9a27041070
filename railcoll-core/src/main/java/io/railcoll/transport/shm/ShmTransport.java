package io.railcoll.transport.shm;

import io.railcoll.RailcollException;
import io.railcoll.memory.Doorbell;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.RailCounters;
import io.railcoll.transport.SendCompletion;
import io.railcoll.transport.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Shared memory as a {@link Transport} between the ranks of one node: a put is one frame streamed through the
 * ring from this rank to the peer (pipelined in quarter-ring chunks, no size ceiling), the same frames the rails
 * carry. Driven by the owner thread; it sleeps on its own {@link Doorbell}, which every local sender rings after
 * publishing data and every local reader rings after freeing ring space. A peer whose process is gone is reported
 * as lost at once rather than at the deadline.
 *
 * <p>Threading: owner thread only (progress threads of other transports may ring the doorbell). Lifetime: owns
 * its links and its arena, not the {@link NodeRegion}, which the communicator closes after it.
 */
public final class ShmTransport implements Transport {
    /** How often, in idle sleeps, the liveness of local peers is checked. */
    private static final long LIVENESS_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final int rank;
    private final NodeRegion region;
    private final int[] localRankOf;
    private final ShmLink[] links;
    private final ShmLink[] active;
    private final Doorbell doorbell;
    private final Arena arena = Arena.ofShared();
    private final RailCounters counters = new RailCounters(1);
    private final FrameSink sink;
    private long lastLivenessCheckNs = System.nanoTime();
    private final Pulls pulls;
    /** Whether single-copy is on and this rank may read every node-mate's memory (set once at start-up). */
    private boolean readsEveryNodeMate = true;

    /** A transport without single-copy puts (every put goes through the rings). */
    public ShmTransport(int rank, int[] ranksOnNode, int worldSize, NodeRegion region, FrameSink sink) {
        this(rank, ranksOnNode, worldSize, region, sink, false, Long.MAX_VALUE, TimeUnit.SECONDS.toNanos(60));
    }

    /**
     * @param ranksOnNode  the global ranks of this node in local-rank order
     * @param cma          whether puts of native memory may go single-copy ({@code RAILCOLL_CMA}); each pair still
     *                     uses it only if the receiver's probe read of the sender succeeded
     * @param cmaThreshold smallest put sent single-copy ({@code RAILCOLL_CMA_THRESHOLD})
     * @param startTimeoutNs how long to wait for every node-mate's PULL_OFFER (all ranks build their transport
     *                     during start-up)
     */
    public ShmTransport(int rank, int[] ranksOnNode, int worldSize, NodeRegion region, FrameSink sink, boolean cma,
                        long cmaThreshold, long startTimeoutNs) {
        this.rank = rank;
        this.region = region;
        this.sink = sink;
        this.pulls = new Pulls(arena, cma, cmaThreshold);
        this.doorbell = region.ownDoorbell();
        this.localRankOf = new int[worldSize];
        java.util.Arrays.fill(localRankOf, -1);
        this.links = new ShmLink[worldSize];
        this.active = new ShmLink[ranksOnNode.length - 1];
        int i = 0;
        for (int local = 0; local < ranksOnNode.length; local++) {
            int peer = ranksOnNode[local];
            localRankOf[peer] = local;
            if (peer == rank) {
                continue;
            }
            ShmLink link = new ShmLink(rank, peer, region.peers().pid(local), region.channelTo(local),
                    region.channelFrom(local), sink, arena, pulls);
            links[peer] = link;
            active[i++] = link;
        }
        offerPulls(ranksOnNode, cma, startTimeoutNs);
    }

    /**
     * Tells every node-mate whether this rank may pull from it (probing each once) and waits for every node-mate's
     * answer, so the first collective already knows which pairs go single-copy. Prints one line when this rank
     * pulls from nobody or not from everyone.
     */
    private void offerPulls(int[] ranksOnNode, boolean cma, long timeoutNs) {
        StringBuilder denied = new StringBuilder();
        String why = null;
        for (int local = 0; local < ranksOnNode.length; local++) {
            ShmLink l = links[ranksOnNode[local]];
            if (l == null) {
                continue;
            }
            boolean ok = false;
            if (cma) {
                try {
                    ok = region.cmaUsableWith(local);
                } catch (ShmException e) {
                    why = e.getMessage();
                }
                if (!ok) {
                    denied.append(denied.isEmpty() ? "" : ", ").append(l.peer);
                }
            }
            l.offer(ok);
            readsEveryNodeMate &= ok;
        }
        if (!cma && region.localRank() == 0) {
            System.err.println("railcoll: node " + region.nodeId() + ": single-copy shared-memory puts are off"
                    + " (RAILCOLL_CMA=off); puts between node-mates go through the rings");
        } else if (!denied.isEmpty()) {
            System.err.println("railcoll: rank " + rank + ": cannot read the memory of rank(s) " + denied
                    + " with process_vm_readv (" + (why != null ? why : Cma.ptraceDiagnosis())
                    + "); their puts to this rank go through the shared-memory rings");
        }
        long deadline = System.nanoTime() + timeoutNs;
        for (;;) {
            boolean all = true;
            for (ShmLink l : active) {
                all &= l.offerReceived();
            }
            if (all) {
                return;
            }
            if (poll() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    StringBuilder missing = new StringBuilder();
                    for (ShmLink l : active) {
                        if (!l.offerReceived()) {
                            missing.append(missing.isEmpty() ? "" : ", ").append(l.peer);
                        }
                    }
                    throw new RailcollException("rank " + rank + ": timed out after " + timeoutNs / 1_000_000
                            + " ms awaiting the first shared-memory frame (PULL_OFFER) of rank(s) " + missing);
                }
                await(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
    }

    /** Puts sent single-copy, their bytes, puts pulled from node-mates, their bytes (since start). */
    public long[] singleCopyCounts() {
        return new long[] {pulls.putsSent(), pulls.bytesSent(), pulls.putsPulled(), pulls.bytesPulled()};
    }

    @Override
    public boolean railBased() {
        return false;
    }

    /**
     * Whether single-copy transfers are on and this rank may read every node-mate's memory with process_vm_readv
     * (probed at start-up), as the node collectives' single-copy calls need.
     */
    public boolean readsEveryNodeMate() {
        return readsEveryNodeMate;
    }

    @Override
    public boolean reaches(int peer) {
        return links[peer] != null;
    }

    @Override
    public void put(int peer, FrameHeader meta, MemorySegment src, long offset, long length, SendCompletion completion) {
        FrameHeader h = meta;
        h.type = FrameHeader.DATA;
        h.sourceRank = rank;
        h.putLength = length;
        h.fragOffset = 0;
        h.fragLength = Math.toIntExact(length);
        completion.add(1);
        ShmLink link = links[peer];
        if (link.peerPulls() && pulls.eligible(src, length)) {
            h.type = FrameHeader.PULL;
            link.enqueuePull(h, src.address() + offset, length, completion);
            pulls.sent(length);
        } else {
            link.enqueue(h, src, offset, length, completion);
        }
        counters.sent(0, length);
    }

    @Override
    public int poll() {
        int work = 0;
        boolean pulling = false;
        for (ShmLink l : active) {
            if (l.awaitingPulls()) {
                pulling = true;
                work += l.completePulls();
            }
            if (l.hasOutput()) {
                work += l.write();
            }
            if (l.hasInput()) {
                work += l.read();
            }
        }
        if (pulling) {
            // A node-mate reads this rank's buffers: if it dies, nothing in the rings would say so.
            checkLiveness();
        }
        return work;
    }

    @Override
    public void await(long maxWaitNs) {
        int key = doorbell.arm();
        try {
            // Re-check after announcing: a ring that came before the announcement found no sleeper.
            for (ShmLink l : active) {
                if (l.hasInput() || l.pullsToComplete() || (l.hasOutput() && l.write() > 0)) {
                    return;
                }
            }
            doorbell.await(key, maxWaitNs);
        } finally {
            doorbell.disarm();
        }
        checkLiveness();
    }

    @Override
    public String inFlightWith(int peer) {
        try {
            ShmLink l = peer >= 0 && peer < links.length ? links[peer] : null;
            return l == null ? "" : l.pullActivity();
        } catch (RuntimeException raced) {
            return ""; // read from another thread while the owner changed the link: only a message is lost
        }
    }

    /** The doorbell this rank sleeps on; other transports' progress threads ring it to wake the owner. */
    public Doorbell doorbell() {
        return doorbell;
    }

    private void checkLiveness() {
        long now = System.nanoTime();
        if (now - lastLivenessCheckNs < LIVENESS_CHECK_NS) {
            return;
        }
        lastLivenessCheckNs = now;
        for (ShmLink l : active) {
            String loss = l.goodbyeReceived() ? null : region.peers().crashOf(localRankOf[l.peer]);
            if (loss != null) {
                sink.onPeerLost(l.peer, -1, "its process (pid " + region.peers().pid(localRankOf[l.peer])
                        + ") on this node " + loss + l.pullActivity());
            }
        }
    }

    @Override
    public boolean awaitsDelivery() {
        for (ShmLink l : active) {
            if (l.awaitingPulls()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean hasPendingOutput() {
        for (ShmLink l : active) {
            if (l.hasOutput()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void resume() {
        for (ShmLink l : active) {
            if (l.paused() && l.resume()) {
                l.read();
            }
        }
    }

    @Override
    public void abortAll(String reason) {
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 60_000) {
            bytes = java.util.Arrays.copyOf(bytes, 60_000);
        }
        broadcastControl(FrameHeader.ABORT, bytes);
    }

    private void broadcastControl(byte type, byte[] payload) {
        FrameHeader h = new FrameHeader();
        h.type = type;
        h.sourceRank = rank;
        h.fragLength = payload.length;
        h.putLength = payload.length;
        MemorySegment msg = MemorySegment.ofArray(payload);
        SendCompletion done = new SendCompletion();
        for (ShmLink l : active) {
            done.add(1);
            l.enqueue(h, msg, 0, payload.length, done);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (done.pending() > 0 && System.nanoTime() < deadline) {
            for (ShmLink l : active) {
                if (l.hasOutput()) {
                    l.write();
                }
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public RailCounters counters() {
        return counters;
    }

    @Override
    public String toString() {
        return "shared memory";
    }

    @Override
    public void close() {
        try {
            broadcastControl(FrameHeader.GOODBYE, new byte[0]);
        } catch (RailcollException ignored) {
            // closing anyway
        }
        arena.close();
    }

}
