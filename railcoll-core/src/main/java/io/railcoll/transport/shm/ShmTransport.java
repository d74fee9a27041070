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

    /**
     * @param ranksOnNode the global ranks of this node in local-rank order
     */
    public ShmTransport(int rank, int[] ranksOnNode, int worldSize, NodeRegion region, FrameSink sink) {
        this.rank = rank;
        this.region = region;
        this.sink = sink;
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
            ShmLink link = new ShmLink(peer, region.channelTo(local), region.channelFrom(local), sink, arena);
            links[peer] = link;
            active[i++] = link;
        }
    }

    @Override
    public boolean railBased() {
        return false;
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
        links[peer].enqueue(h, src, offset, length, completion);
        counters.sent(0, length);
    }

    @Override
    public int poll() {
        int work = 0;
        for (ShmLink l : active) {
            if (l.hasOutput()) {
                work += l.write();
            }
            if (l.hasInput()) {
                work += l.read();
            }
        }
        return work;
    }

    @Override
    public void await(long maxWaitNs) {
        int key = doorbell.arm();
        try {
            // Re-check after announcing: a ring that came before the announcement found no sleeper.
            for (ShmLink l : active) {
                if (l.hasInput() || (l.hasOutput() && l.write() > 0)) {
                    return;
                }
            }
            doorbell.await(key, maxWaitNs);
        } finally {
            doorbell.disarm();
        }
        checkLiveness();
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
                        + ") on this node " + loss);
            }
        }
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
