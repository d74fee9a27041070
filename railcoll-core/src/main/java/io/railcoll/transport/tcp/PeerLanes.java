package io.railcoll.transport.tcp;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What every lane to one peer shares: which lanes this rank has given up (a bit per lane, read by the owner when
 * it stripes and by drivers when they re-send), whether the peer said goodbye, and which re-sent frames were
 * delivered (by origin), so a frame re-sent twice is delivered once.
 *
 * <p>Threading: any thread; the mask is atomic, the delivered set is guarded by itself (it is touched only after
 * a fail-over).
 */
final class PeerLanes {
    final int peer;
    final TcpConnection[] lanes;
    private final AtomicLong deadMask = new AtomicLong();
    private final Set<Long> replayedOrigins = new HashSet<>();
    private volatile boolean goodbye;
    private final AtomicInteger lostWithoutGoodbye = new AtomicInteger();

    PeerLanes(int peer, int lanes) {
        this.peer = peer;
        this.lanes = new TcpConnection[lanes];
    }

    long deadMask() {
        return deadMask.get();
    }

    /** Marks {@code lane} given up; returns the mask of lanes still alive afterwards. */
    long markDead(int lane) {
        long dead = deadMask.updateAndGet(m -> m | (1L << lane));
        return ~dead & ((lanes.length == 64) ? -1L : (1L << lanes.length) - 1);
    }

    long liveMask() {
        return ~deadMask.get() & ((lanes.length == 64) ? -1L : (1L << lanes.length) - 1);
    }

    /** A lane failed before its goodbye came: no goodbye will ever come on it. */
    void laneLostWithoutGoodbye() {
        lostWithoutGoodbye.incrementAndGet();
    }

    /** Lanes that will still say goodbye when the peer closes (or already did): all but those that failed first. */
    int lanesThatSayGoodbye() {
        return lanes.length - lostWithoutGoodbye.get();
    }

    boolean goodbye() {
        return goodbye;
    }

    void sawGoodbye() {
        goodbye = true;
    }

    /** Whether a re-sent frame with this origin was already delivered. */
    boolean replayDelivered(long origin) {
        synchronized (replayedOrigins) {
            return replayedOrigins.contains(origin);
        }
    }

    /** Records a re-sent frame's delivery; false when another copy got there first (then drop this one). */
    boolean claimReplay(long origin) {
        synchronized (replayedOrigins) {
            return replayedOrigins.add(origin);
        }
    }
}
