package io.railcoll.transport.tcp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What every lane to one peer shares: the connection each lane has now, which lanes this rank has given up (a bit
 * per lane, read by the owner when it stripes and by drivers when they re-send), whether the peer said goodbye,
 * and which re-sent frames were delivered (by origin), so a frame re-sent twice is delivered once.
 *
 * <p><b>Generations</b> (decision 0055). A lane that failed is reconnected later with a new TCP connection. Every
 * connection to the peer has a <em>generation</em>: the start-up connection of lane {@code l} has generation
 * {@code l}; each reconnection gets the next number of a per-pair counter kept by the side that dials (the higher
 * rank), so generations grow in the order connections are made. A DATA frame's origin is (generation, position),
 * and each generation has its own {@link DeliveryGate}, kept here after its connection is gone, so a re-sent copy
 * of a frame first written on a connection that was since replaced is judged against that connection's final
 * count. {@code closedThrough[l]}: connections of lane {@code l} up to that generation are given up by the peer
 * (learnt from a REPLAY, or from a newer connection of that lane being made); one of them is closed before a
 * re-sent copy is judged, and refused if it had not been taken into use yet.
 *
 * <p><b>Re-sent frames still on their way</b> (decision 0246). When a connection this side took into use closes
 * without the peer's goodbye on it, the peer re-sends what it held of it on its other lanes, possibly behind frames
 * of later collectives that this side would pause on. From that close until the peer's {@link
 * io.railcoll.transport.FrameHeader#REPLAYS_DONE} for that connection arrives, {@link #replaysPending} is true and
 * lanes read such frames into memory of their own instead of pausing. A REPLAYS_DONE that comes before this side
 * closed the connection is remembered, so the close then leaves nothing pending.
 *
 * <p>Threading: any thread. The mask and lane slots are atomic; the generation book-keeping is guarded by this
 * object's monitor (it changes only when a lane fails or comes back); the delivered set is guarded by itself.
 */
final class PeerLanes {
    /** Generations are carried with the lane in the handshake's rail field: {@code generation * 64 + lane}. */
    static final int LANE_FIELD = 64;
    /** The last generation that still fits the handshake's rail field. */
    static final int MAX_GENERATION = Integer.MAX_VALUE / LANE_FIELD;

    /** Where a DATA frame was first written completely: a connection's generation and the frame's position on it. */
    record Origin(int generation, long position) {
    }

    final int peer;
    private final AtomicReferenceArray<TcpConnection> lanes;
    private final int laneCount;
    private final AtomicLong deadMask = new AtomicLong();
    private final Set<Origin> replayedOrigins = new HashSet<>();
    private volatile boolean goodbye;
    private final AtomicInteger lostWithoutGoodbye = new AtomicInteger();
    private final Map<Integer, DeliveryGate> gates = new HashMap<>();
    private final int[] closedThrough;
    private final long[] downSinceNs;
    /** The highest generation made (dialled or accepted) with this peer. Guarded by this. */
    private int highestKnown;
    /** The highest generation taken into use on this side; read before the dead mask when a REPLAY is written. */
    private volatile int highestAdopted;
    /** Generations closed here whose REPLAYS_DONE has not arrived. Guarded by this. */
    private final Set<Integer> awaitingReplaysDone = new HashSet<>();
    /** Generations whose REPLAYS_DONE arrived before this side closed them. Guarded by this. */
    private final Set<Integer> replaysDoneEarly = new HashSet<>();
    /** {@code !awaitingReplaysDone.isEmpty()}, readable without the lock on a lane's pause path. */
    private volatile boolean replaysPending;

    PeerLanes(int peer, int lanes) {
        this.peer = peer;
        this.laneCount = lanes;
        this.lanes = new AtomicReferenceArray<>(lanes);
        this.closedThrough = new int[lanes];
        java.util.Arrays.fill(closedThrough, -1);
        this.downSinceNs = new long[lanes];
        this.highestKnown = lanes - 1;
        this.highestAdopted = lanes - 1;
    }

    int laneCount() {
        return laneCount;
    }

    /** The connection lane {@code l} has now (null before start-up filled it, or for this rank itself). */
    TcpConnection lane(int l) {
        return lanes.get(l);
    }

    /** Start-up: lane {@code l}'s first connection (generation {@code l}). */
    void install(int l, TcpConnection c) {
        lanes.set(l, c);
    }

    long deadMask() {
        return deadMask.get();
    }

    private long all() {
        return laneCount == 64 ? -1L : (1L << laneCount) - 1;
    }

    /** Marks {@code lane} given up; returns the mask of lanes still alive afterwards. */
    long markDead(int lane, long nowNs) {
        long before = deadMask.getAndUpdate(m -> m | (1L << lane));
        if ((before & (1L << lane)) == 0) {
            synchronized (this) {
                downSinceNs[lane] = nowNs;
            }
        }
        return ~(before | (1L << lane)) & all();
    }

    long liveMask() {
        return ~deadMask.get() & all();
    }

    /** A lane failed before its goodbye came: no goodbye will ever come on it. */
    void laneLostWithoutGoodbye() {
        lostWithoutGoodbye.incrementAndGet();
    }

    /** Lanes that will still say goodbye when the peer closes (or already did): all but those that failed first. */
    int lanesThatSayGoodbye() {
        return laneCount - lostWithoutGoodbye.get();
    }

    boolean goodbye() {
        return goodbye;
    }

    void sawGoodbye() {
        goodbye = true;
    }

    /** The highest generation taken into use on this side (see the REPLAY frame's {@code putLength}). */
    int highestAdopted() {
        return highestAdopted;
    }

    /** The delivery gate of generation {@code gen} (made on first use). */
    synchronized DeliveryGate gate(int gen) {
        return gates.computeIfAbsent(gen, g -> new DeliveryGate());
    }

    /** Dialling side: the generation of the next connection to the peer, or -1 when none is left. */
    synchronized int nextGeneration() {
        if (highestKnown >= MAX_GENERATION) {
            return -1;
        }
        return ++highestKnown;
    }

    /**
     * A connection of {@code lane} and generation {@code gen} was made (this side dialled it and the peer accepted,
     * or the peer dialled it and it is being accepted): every older connection of that lane is given up from now
     * on. On the accepting side, false when {@code gen} is not newer than every connection made before.
     */
    synchronized boolean made(int lane, int gen, boolean accepting) {
        if (accepting) {
            if (gen <= highestKnown) {
                return false;
            }
            highestKnown = gen;
        }
        closedThrough[lane] = Math.max(closedThrough[lane], gen - 1);
        gates.computeIfAbsent(gen, g -> new DeliveryGate());
        return true;
    }

    /**
     * Takes {@code c} into use as its lane's connection, unless the peer gave its generation up meanwhile; {@code
     * register} runs (on the lane's driver thread) under the same lock, so a REPLAY judged at the same time either
     * sees the new connection or makes this refuse it. Returns how long the lane was down, or -1 when refused.
     */
    synchronized long adopt(TcpConnection c, Runnable register, long nowNs) {
        if (c.generation <= closedThrough[c.lane] || c.gate.isClosed()) {
            return -1;
        }
        TcpConnection old = lanes.get(c.lane);
        if (old != null && old.countedLost()) {
            lostWithoutGoodbye.decrementAndGet(); // the new connection will say goodbye in its place
        }
        register.run();
        lanes.set(c.lane, c);
        boolean wasDead = (deadMask.getAndUpdate(m -> m & ~(1L << c.lane)) & (1L << c.lane)) != 0;
        highestAdopted = Math.max(highestAdopted, c.generation);
        return wasDead ? nowNs - downSinceNs[c.lane] : 0;
    }

    /**
     * A REPLAY names the frame's origin and the connections the sender gave up ({@code mask}: lanes dead at the
     * sender, every connection of theirs up to {@code throughGen}). Records that, closes the origin's gate when no
     * live connection holds it, and returns the live connections (other than {@code reader}) that must close before
     * the copy can be judged: those given up, and those a newer connection of their lane replaced. Null when the
     * origin names a connection that was never made.
     */
    synchronized List<TcpConnection> giveUp(long mask, int throughGen, int originLane, int originGen,
                                            TcpConnection reader) {
        if (originGen < 0 || originGen > highestKnown || originLane < 0 || originLane >= laneCount) {
            return null;
        }
        for (long m = mask & all(); m != 0; m &= m - 1) {
            int l = Long.numberOfTrailingZeros(m);
            closedThrough[l] = Math.max(closedThrough[l], Math.min(throughGen, highestKnown));
        }
        List<TcpConnection> open = new ArrayList<>(2);
        for (int l = 0; l < laneCount; l++) {
            TcpConnection cur = lanes.get(l);
            if (cur != null && cur != reader && !cur.isBroken()
                    && (cur.generation <= closedThrough[l] || cur.generation == originGen)) {
                open.add(cur);
            }
        }
        TcpConnection holder = lanes.get(originLane);
        if (holder == null || holder.generation != originGen || holder.isBroken()) {
            gate(originGen).close(); // not taken into use here (or closed already): nothing more will arrive on it
        }
        return open;
    }

    /**
     * Connection {@code gen}, taken into use here, closed without the peer's goodbye: until its REPLAYS_DONE comes,
     * frames the peer re-sends from it may travel behind frames this side would pause on.
     */
    synchronized void closedAwaitingReplays(int gen) {
        if (!replaysDoneEarly.remove(gen) && awaitingReplaysDone.add(gen)) {
            replaysPending = true;
        }
    }

    /** The peer's REPLAYS_DONE for connection {@code gen}; false when no such connection was ever made (corrupt). */
    synchronized boolean replaysDone(int gen) {
        if (gen < 0 || gen > highestKnown) {
            return false;
        }
        if (!awaitingReplaysDone.remove(gen)) {
            replaysDoneEarly.add(gen);
        }
        replaysPending = !awaitingReplaysDone.isEmpty();
        return true;
    }

    /** Whether frames the peer re-sends from a connection closed here may still be on their way (see above). */
    boolean replaysPending() {
        return replaysPending;
    }

    /** Whether a re-sent frame with this origin was already delivered. */
    boolean replayDelivered(Origin origin) {
        synchronized (replayedOrigins) {
            return replayedOrigins.contains(origin);
        }
    }

    /** Records a re-sent frame's delivery; false when another copy got there first (then drop this one). */
    boolean claimReplay(Origin origin) {
        synchronized (replayedOrigins) {
            return replayedOrigins.add(origin);
        }
    }
}
