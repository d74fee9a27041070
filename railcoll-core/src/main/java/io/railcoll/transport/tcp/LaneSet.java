package io.railcoll.transport.tcp;

import io.railcoll.RailDownException;
import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.RailCounters;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.function.LongSupplier;

/**
 * Every lane of one rank and what the two engines share about them: the per-peer lane state, the counters, the
 * liveness policy and, above all, what happens when a lane fails: its unacknowledged frames move to the peer's
 * other lanes (preferring other rails), a warning names the rail, and when no lane to the peer is left the
 * transport fails: {@link RailDownException} when the last lane went silent, {@link io.railcoll.PeerLostException}
 * (through the sink) when it was reset or closed, as when the peer process died.
 *
 * <p>Threading: the methods that touch a connection run on that connection's driver thread; the failure and the
 * per-peer state are safe from any thread. Lifetime: lives as long as its transport.
 */
final class LaneSet {
    final int rank;
    final int rails;
    final int lanesPerPeer;
    final FrameSink sink;
    final RailCounters counters;
    final LanePolicy policy;
    final LongSupplier clock;
    /** DATA frames up to this size complete once written (see {@link RailSettings#eagerBytes()}). */
    final int eagerBytes;
    private final PrintStream log;
    /** The most bytes one connection holds spilled ({@link TcpConnection#MAX_SPILL_BYTES}; lowered by tests only). */
    long spillLimitBytes = TcpConnection.MAX_SPILL_BYTES;
    private final PeerLanes[] peers;
    private final List<LaneDriver> drivers = new ArrayList<>();
    private volatile RailcollException failure;
    /** Told of every lane given up, so it can be reconnected (null: lanes stay given up). */
    private volatile LaneRecovery recovery;
    private volatile boolean closing;
    /** Eager frames (complete once written) of every lane not acknowledged yet: closing waits for them. */
    private final java.util.concurrent.atomic.AtomicInteger eagerUnacknowledged = new java.util.concurrent.atomic.AtomicInteger();

    LaneSet(int rank, int size, int rails, int connectionsPerRail, int eagerBytes, FrameSink sink, LanePolicy policy,
            LongSupplier clock, PrintStream log) {
        if (rails * connectionsPerRail > 64) {
            throw new IllegalArgumentException("at most 64 connections per peer (rails x connections per rail), got "
                    + rails * connectionsPerRail);
        }
        this.rank = rank;
        this.rails = rails;
        this.lanesPerPeer = rails * connectionsPerRail;
        this.sink = sink;
        this.counters = new RailCounters(rails);
        this.policy = policy;
        this.clock = clock;
        this.eagerBytes = eagerBytes;
        this.log = log;
        this.peers = new PeerLanes[size];
        for (int p = 0; p < size; p++) {
            peers[p] = new PeerLanes(p, lanesPerPeer);
        }
    }

    int railOf(int lane) {
        return lane % rails;
    }

    PeerLanes peer(int p) {
        return peers[p];
    }

    int size() {
        return peers.length;
    }

    /** From now on every lane given up for a failure is offered to {@code r} to be reconnected. */
    void recoverLanesWith(LaneRecovery r) {
        recovery = r;
    }

    boolean isClosing() {
        return closing;
    }

    void addDriver(LaneDriver d) {
        drivers.add(d);
    }

    List<LaneDriver> drivers() {
        return drivers;
    }

    void eagerSent() {
        eagerUnacknowledged.incrementAndGet();
    }

    void eagerAcknowledged() {
        eagerUnacknowledged.decrementAndGet();
    }

    /** Eager frames written (their collectives may have returned) whose receiver has not acknowledged them yet. */
    int eagerUnacknowledged() {
        return eagerUnacknowledged.get();
    }

    /** Frames that will never be delivered: the eager ones among them no longer hold up closing. */
    private void dropped(List<OutFrame> frames) {
        for (OutFrame f : frames) {
            if (f.eager) {
                eagerUnacknowledged.decrementAndGet();
            }
        }
    }

    /** From now on lanes that break are this rank's own goodbye: nothing is reported. */
    void closing() {
        closing = true;
    }

    /** Says, on the log, what a lane still holds when this rank closes (a collective failed with data in flight). */
    void reportPending(TcpConnection c) {
        String s = c.pendingSummary();
        if (s != null) {
            log.println("railcoll: rank " + rank + " closes with data in flight: " + s);
        }
    }

    RailcollException failure() {
        return failure;
    }

    /** Records the transport's failure (the first one wins) and wakes the owner so it sees it. */
    void fail(RailcollException e) {
        if (failure == null) {
            failure = e;
        }
        sink.progressed();
    }

    /** Throws the recorded failure, if any (owner thread, at every entry point). */
    void throwIfFailed() {
        RailcollException f = failure;
        if (f != null) {
            throw f;
        }
    }

    String describeLane(TcpConnection c) {
        return describeLane(c.lane);
    }

    String describeLane(int lane) {
        return "rail " + railOf(lane) + (lanesPerPeer > rails ? " (connection " + lane / rails + ")" : "");
    }

    void log(String line) {
        log.println(line);
    }

    /**
     * Gives up lane {@code c} (its driver thread): closes it, and moves what it held to the peer's other lanes, or
     * fails the transport when none is left. {@code silent} says the lane timed out rather than broke.
     */
    void breakLane(TcpConnection c, String cause, boolean silent, long nowNs) {
        if (c.isBroken()) {
            return;
        }
        PeerLanes p = peers[c.peer];
        List<OutFrame> frames = c.breakAndTakeFrames();
        int data = dataFrames(frames);
        long live = p.markDead(c.lane, nowNs);
        wakeDrivers();
        if (closing || p.goodbye() && data == 0) {
            dropped(frames);
            return; // this rank or the peer is leaving: lanes closing is expected
        }
        counters.railFailed(c.peer, c.rail, cause);
        long bytes = 0;
        for (OutFrame f : frames) {
            bytes += f.payloadBytes;
        }
        String lane = "rank " + rank + ": " + describeLane(c) + " to rank " + c.peer;
        if (live == 0) {
            dropped(frames);
            String lost = data == 0 ? "" : "; " + data + " frames (" + bytes + " bytes) cannot be delivered";
            if (silent) {
                fail(new RailDownException(lane + " failed (" + cause + ") and no rail to rank " + c.peer
                        + " is left" + lost + earlierFailures(c.peer)));
            } else {
                try {
                    sink.onPeerLost(c.peer, c.rail, cause + ", and no other rail to it is left" + lost);
                } catch (RailcollException e) {
                    fail(e);
                }
            }
            return;
        }
        long liveRails = 0;
        for (long m = live; m != 0; m &= m - 1) {
            liveRails |= 1L << railOf(Long.numberOfTrailingZeros(m));
        }
        StringJoiner to = new StringJoiner(", ");
        for (long m = liveRails; m != 0; m &= m - 1) {
            to.add(Integer.toString(Long.numberOfTrailingZeros(m)));
        }
        LaneRecovery r = recovery;
        log.println("railcoll WARNING: " + lane + " failed: " + cause + "; "
                + (data == 0 ? "its traffic moves to" : "re-sending " + data + " unacknowledged frames ("
                + bytes + " bytes) on") + " the remaining rail(s) " + to
                + (r == null ? "" : r.dials(c.peer) ? "; reconnecting it" : "; rank " + c.peer + " reconnects it")
                + " (see Communicator.railCounters().failures())");
        resend(frames, c, live, nowNs);
        if (r != null) {
            r.laneDown(c.peer, c.lane);
        }
    }

    /**
     * Takes {@code c}, a new connection of its lane made after the lane failed (or while this side still used the
     * old one, which the peer had given up), into use on driver {@code d} (its thread): from now on puts are
     * striped onto it again. The old connection, if still open, is closed and its unacknowledged frames re-sent
     * (on other lanes, or on the new one). One line on the log says the rail is back. False when the connection
     * was refused (this rank or the peer is closing, or the peer gave this connection up already): then the caller
     * closes its socket.
     */
    boolean adopt(LaneDriver d, TcpConnection c, long nowNs) {
        PeerLanes p = peers[c.peer];
        if (closing || failure != null || p.goodbye()) {
            return false;
        }
        List<List<OutFrame>> taken = new ArrayList<>(1);
        List<TcpConnection> replaced = new ArrayList<>(1);
        long downNs = p.adopt(c, () -> {
            // Under the peer's lock, so a REPLAY judged meanwhile sees either the old connection or the new one.
            // Registered first: if that fails, the old connection is left as it was.
            try {
                d.add(c);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            TcpConnection old = p.lane(c.lane);
            if (old != null && !old.isBroken()) {
                replaced.add(old);
                taken.add(old.replaceAndTakeFrames());
            }
        }, nowNs);
        if (downNs < 0) {
            return false;
        }
        List<OutFrame> frames = taken.isEmpty() ? List.of() : taken.getFirst();
        int data = dataFrames(frames);
        if (data > 0) {
            counters.railFailed(c.peer, c.rail, "rank " + c.peer + " gave this rail up and reconnected it");
        }
        if (!replaced.isEmpty()) {
            // The peer closed the old connection when it made this one: it waits for this side's REPLAYS_DONE.
            resend(frames, replaced.getFirst(), c, p.liveMask(), nowNs);
        }
        counters.railRecovered(c.peer, c.rail, downNs / 1_000_000);
        log.println("railcoll: rank " + rank + ": " + describeLane(c) + " to rank " + c.peer + " is back"
                + (downNs > 0 ? " after " + String.format(Locale.ROOT, "%.1f s", downNs / 1e9) + " down" : "")
                + ": reconnected, it carries traffic again"
                + (data == 0 ? "" : " (re-sending the " + data + " unacknowledged frames of the "
                + "connection it replaces)") + " (see Communicator.railCounters().recoveries())");
        wakeDrivers();
        return true;
    }

    /** DATA frames among {@code frames} (the rest are REPLAYS_DONE frames that go again with them). */
    private static int dataFrames(List<OutFrame> frames) {
        int n = 0;
        for (OutFrame f : frames) {
            n += f.type == FrameHeader.DATA ? 1 : 0;
        }
        return n;
    }

    /** A new connection of {@code lane} was not taken into use: if that lane is still down, it is dialled again. */
    void adoptionRefused(int peer, int lane) {
        LaneRecovery r = recovery;
        PeerLanes p = peers[peer];
        if (r != null && !closing && failure == null && !p.goodbye() && (p.deadMask() & (1L << lane)) != 0) {
            r.laneDown(peer, lane);
        }
    }

    private String earlierFailures(int peer) {
        StringJoiner j = new StringJoiner("; ", "; earlier: ", "");
        j.setEmptyValue("");
        for (RailCounters.RailFailure f : counters.failures()) {
            if (f.peer() == peer) {
                j.add("rail " + f.rail() + ": " + f.cause());
            }
        }
        return j.toString();
    }

    /**
     * Whether {@code c}'s peer showed life on another live lane within {@code windowNs}: heard from, or paused on a
     * frame it sent (any thread; reads other drivers' lanes, a slightly stale view only delays a verdict).
     */
    /**
     * For time-out messages: the peers none of whose live lanes was heard from (data, acknowledgement or heartbeat)
     * for a whole rail time-out, each as "rank P (nothing on any rail for S s)", comma-separated; "" when none. A
     * paused lane counts as heard (its peer sent a later collective's data). Best effort from any thread.
     */
    String silentPeers() {
        long now = clock.getAsLong();
        StringBuilder sb = new StringBuilder();
        for (PeerLanes p : peers) {
            if (p == null || p.peer == rank || p.goodbye() || p.laneCount() == 0 || p.lane(0) == null) {
                continue;
            }
            long latest = Long.MIN_VALUE;
            boolean anyLive = false;
            for (int l = 0; l < p.laneCount(); l++) {
                TcpConnection o = p.lane(l);
                if (o == null || o.isBroken()) {
                    continue;
                }
                anyLive = true;
                latest = o.paused() ? now : Math.max(latest, o.lastHeardNs);
                if (o.paused()) {
                    break;
                }
            }
            if (anyLive && now - latest > policy.timeoutNs()) {
                sb.append(sb.isEmpty() ? "" : ", ").append("rank ").append(p.peer).append(" (nothing on any rail for ")
                        .append(String.format(java.util.Locale.ROOT, "%.1f s", (now - latest) / 1e9)).append(')');
            }
        }
        return sb.toString();
    }

    boolean peerHeardWithin(TcpConnection c, long nowNs, long windowNs) {
        PeerLanes p = peers[c.peer];
        for (int l = 0; l < p.laneCount(); l++) {
            TcpConnection o = p.lane(l);
            if (o != null && o != c && !o.isBroken() && (o.paused() || nowNs - o.lastHeardNs <= windowNs)) {
                return true;
            }
        }
        return false;
    }

    /** As below, for a connection that failed: its frames go to another of the peer's live lanes. */
    private void resend(List<OutFrame> frames, TcpConnection from, long live, long nowNs) {
        resend(frames, from, from, live, nowNs);
    }

    /**
     * Re-sends {@code frames}, what connection {@code from} held, on one live lane of its peer (preferring another
     * rail), on {@code via}'s driver thread, and then a REPLAYS_DONE naming {@code from}: the peer, which closed
     * {@code from} or will, reads paused frames into memory of its own until it has that REPLAYS_DONE, because a
     * copy may be behind a frame of a later collective (decision 0246). All on one lane, so the REPLAYS_DONE comes
     * after every copy; a fail-over is rare, and spreading its copies over rails bought nothing worth that order.
     */
    private void resend(List<OutFrame> frames, TcpConnection from, TcpConnection via, long live, long nowNs) {
        long preferred = 0;
        for (long m = live; m != 0; m &= m - 1) {
            int l = Long.numberOfTrailingZeros(m);
            if (railOf(l) != from.rail) {
                preferred |= 1L << l;
            }
        }
        int l = Long.numberOfTrailingZeros(preferred != 0 ? preferred : live);
        for (OutFrame f : frames) {
            send(via.driver, from.peer, l, f, nowNs);
        }
        FrameHeader done = new FrameHeader();
        done.type = FrameHeader.REPLAYS_DONE;
        done.sourceRank = rank;
        done.tag = from.lane;
        done.root = from.generation;
        OutFrame marker = new OutFrame();
        marker.set(done, null, null);
        send(via.driver, from.peer, l, marker, nowNs);
    }

    /** Queues a moved frame on lane {@code l} of {@code peer}: directly on this driver, else through a hand-off. */
    void send(LaneDriver current, int peer, int l, OutFrame f, long nowNs) {
        TcpConnection target = peers[peer].lane(l);
        if (target.driver == current) {
            if (target.isBroken()) {
                redirect(current, peer, f, nowNs);
            } else {
                target.enqueueMoved(f, nowNs);
            }
        } else {
            f.handoffPeer = peer;
            f.handoffLane = l;
            target.driver.handoff(f);
        }
    }

    /** A frame meant for a lane that died meanwhile: sends it on another live lane, or drops it once all failed. */
    void redirect(LaneDriver current, int peer, OutFrame f, long nowNs) {
        long live = peers[peer].liveMask();
        if (live == 0) {
            dropped(List.of(f));
            return; // the transport has failed already; the collective cannot complete
        }
        send(current, peer, Long.numberOfTrailingZeros(live), f, nowNs);
    }

    /**
     * Whether every connection to {@code c}'s peer that the peer gave up (lanes in {@code mask}, up to generation
     * {@code throughGen}; connections a newer one of their lane replaced; the origin's connection {@code originGen})
     * is closed on this side, so a re-sent copy can be judged. Those on {@code c}'s own driver are closed at once;
     * others are asked to close and their drivers woken.
     */
    boolean quiesced(TcpConnection c, long mask, int throughGen, int originLane, int originGen) {
        boolean all = true;
        List<TcpConnection> open = peers[c.peer].giveUp(mask, throughGen, originLane, originGen, c);
        if (open == null) {
            throw new RailcollException("rank " + c.peer + " re-sent a frame on rail " + c.rail + " naming connection "
                    + originGen + " of lane " + originLane + ", which was never made (corrupt stream)");
        }
        for (TcpConnection other : open) {
            if (other.driver == c.driver) {
                breakLane(other, "rank " + c.peer + " gave this rail up and re-sent its frames on rail " + c.rail,
                        false, clock.getAsLong());
            } else {
                other.requestQuiesce();
                other.driver.requestQuiesceCheck();
                all = false;
            }
        }
        return all;
    }

    void wakeDrivers() {
        for (LaneDriver d : drivers) {
            d.recheckPaused();
        }
    }

    static String millis(long ns) {
        return String.format(Locale.ROOT, "%.0f ms", ns / 1e6);
    }
}
