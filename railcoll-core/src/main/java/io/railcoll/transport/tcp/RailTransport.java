package io.railcoll.transport.tcp;

import io.railcoll.RailDownException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.RailCounters;
import io.railcoll.transport.SendCompletion;
import io.railcoll.transport.Transport;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What both rail engines share: striping a put over the live lanes of its peer ({@link Striper}), building each
 * fragment's header, and the lanes with their fail-over ({@link LaneSet}). Subclasses decide who writes: the
 * owner itself ({@link TcpRailTransport}) or a thread per rail ({@link ThreadedRailTransport}).
 *
 * <p>Threading: {@link #put} and the other {@link Transport} calls on the owner thread, except {@link #abortAll}
 * (any thread: the engine calls it from wherever it found a mismatch).
 */
abstract class RailTransport implements Transport {
    final LaneSet lanes;
    final int rank;
    private final Striper striper;
    private final int[] planLane;
    private final long[] planOffset;
    private final long[] planLength;

    RailTransport(LaneSet lanes, long stripeThresholdBytes) {
        this.lanes = lanes;
        this.rank = lanes.rank;
        this.striper = new Striper(lanes.lanesPerPeer, stripeThresholdBytes);
        this.planLane = new int[lanes.lanesPerPeer];
        this.planOffset = new long[lanes.lanesPerPeer];
        this.planLength = new long[lanes.lanesPerPeer];
    }

    /** Wraps {@code channels[peer][lane]} into connections of {@code lanes}, giving each to a driver. */
    static void register(LaneSet lanes, SocketChannel[][] channels, LaneDriver[] driverOfRail) throws IOException {
        long now = lanes.clock.getAsLong();
        for (int peer = 0; peer < channels.length; peer++) {
            for (int lane = 0; lane < lanes.lanesPerPeer; lane++) {
                SocketChannel ch = channels[peer][lane];
                if (ch == null) {
                    continue;
                }
                ch.configureBlocking(false);
                // The start-up connection of lane l is generation l (see PeerLanes).
                TcpConnection c = new TcpConnection(peer, lane, lanes.railOf(lane), lane, ch, lanes, now);
                lanes.peer(peer).install(lane, c);
                driverOfRail[lanes.railOf(lane)].add(c);
            }
        }
    }

    /** The driver of {@code rail}'s lanes. */
    abstract LaneDriver driverOfRail(int rail);

    /**
     * A new connection of lane {@code lane} to {@code peer} ({@link RailReconnector}'s thread): its driver takes it
     * into use at its next round ({@link LaneSet#adopt}), or closes it.
     */
    final void adopt(int peer, int lane, int generation, SocketChannel channel) {
        driverOfRail(lanes.railOf(lane)).offerAdoption(new LaneDriver.Adoption(peer, lane, generation, channel));
    }

    public int rails() {
        return lanes.rails;
    }

    @Override
    public boolean reaches(int peer) {
        return peer != rank && lanes.peer(peer).lane(0) != null;
    }

    /**
     * Lanes to {@code peer} whose goodbye the engine should wait for before it takes the peer for gone: every lane
     * but those that failed before saying goodbye (they never will).
     */
    @Override
    public int connectionsTo(int peer) {
        // At least one: a peer whose every lane failed did not say goodbye; the failure reports it instead.
        return Math.max(1, lanes.peer(peer).lanesThatSayGoodbye());
    }

    @Override
    public String silentPeers() {
        try {
            return lanes.silentPeers();
        } catch (RuntimeException e) {
            return ""; // a diagnostic must never hide the failure it decorates
        }
    }

    @Override
    public final void put(int peer, FrameHeader meta, MemorySegment src, long offset, long length, SendCompletion completion) {
        long t0 = System.nanoTime();
        lanes.throwIfFailed();
        checkSource(src);
        int frames = striper.plan(lanes.peer(peer).liveMask(), length, planLane, planOffset, planLength);
        if (frames == 0) {
            throw new RailDownException("rank " + rank + ": no rail to rank " + peer + " is left");
        }
        completion.add(frames);
        boolean held = beginPuts();
        try {
            for (int i = 0; i < frames; i++) {
                long fragLength = planLength[i];
                if (fragLength > Integer.MAX_VALUE - FrameHeader.BYTES) {
                    throw new IllegalArgumentException("fragment of " + fragLength + " bytes exceeds the frame limit; lower the stripe size");
                }
                // No view of the fragment here: the frame that carries it views SRC itself (OutFrame#set).
                submit(peer, planLane[i], meta, length, planOffset[i], fragLength, src, offset + planOffset[i],
                        completion);
            }
        } finally {
            endPuts(held);
            lanes.counters.posted(System.nanoTime() - t0);
        }
    }

    /** Fills a DATA fragment header from the collective's fields in {@code meta}. */
    final void fill(FrameHeader h, FrameHeader meta, long putLength, long fragOffset, long fragLength) {
        h.copyFrom(meta);
        h.type = FrameHeader.DATA;
        h.sourceRank = rank;
        h.putLength = putLength;
        h.fragOffset = fragOffset;
        h.fragLength = (int) fragLength;
    }

    /** Throws {@link IllegalArgumentException} when the engine's threads could not read {@code src}. */
    void checkSource(MemorySegment src) {
    }

    /** Before the fragments of one put; returns what {@link #endPuts} needs. */
    abstract boolean beginPuts();

    /** Sends one fragment: {@code fragLength} bytes of {@code src} at {@code srcOffset}. */
    abstract void submit(int peer, int lane, FrameHeader meta, long putLength, long fragOffset, long fragLength,
                         MemorySegment src, long srcOffset, SendCompletion completion);

    abstract void endPuts(boolean held);

    /** Builds an ABORT frame header and its payload (the reason, cut to 60,000 bytes). */
    final FrameHeader abortHeader(String reason, ByteBuffer[] payloadOut) {
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 60_000) {
            bytes = Arrays.copyOf(bytes, 60_000);
        }
        FrameHeader h = new FrameHeader();
        h.type = FrameHeader.ABORT;
        h.sourceRank = rank;
        h.fragLength = bytes.length;
        h.putLength = bytes.length;
        payloadOut[0] = ByteBuffer.wrap(bytes);
        return h;
    }

    final FrameHeader goodbyeHeader() {
        FrameHeader bye = new FrameHeader();
        bye.type = FrameHeader.GOODBYE;
        bye.sourceRank = rank;
        return bye;
    }

    /** The first live lane to {@code peer}, or null. */
    final TcpConnection firstLiveLane(int peer) {
        long live = lanes.peer(peer).liveMask();
        return live == 0 ? null : lanes.peer(peer).lane(Long.numberOfTrailingZeros(live));
    }

    @Override
    public RailCounters counters() {
        return lanes.counters;
    }

    @Override
    public String toString() {
        return lanes.rails == 1 ? "rail 0 (tcp)" : "rails 0-" + (lanes.rails - 1) + " (tcp)";
    }
}
