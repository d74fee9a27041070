package io.railcoll.transport.tcp;

import io.railcoll.RailcollException;
import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The agent that drives a set of lanes through one selector: {@link #doWork} takes queued puts and hand-offs,
 * writes, reads, re-offers paused frames, sends heartbeats and gives up silent lanes, and returns how much it did
 * (Agrona style, with the time passed in). The non-threaded engine has one driver over every lane, run by the owner
 * thread (and by a keeper thread while the owner is away); the threaded engine has one per rail, each on its own
 * thread, fed by the owner through a {@link SpscRing}.
 *
 * <p>Threading: {@link #doWork} and {@link #await} by one thread at a time (the driving thread). {@link #handoff},
 * {@link #command}, {@link #requestResume}, {@link #requestQuiesceCheck}, {@link #recheckPaused} and {@link #wake}
 * from any thread. Lifetime: owned by its transport, which closes the selector.
 */
final class LaneDriver {
    private final String name;
    private final LaneSet lanes;
    final Selector selector;
    final List<TcpConnection> connections = new ArrayList<>();
    /** Puts from the owner (threaded engine only, else null). */
    final SpscRing<PutSlot> ring;
    private final ConcurrentLinkedQueue<OutFrame> handoffs = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Consumer<LaneDriver>> commands = new ConcurrentLinkedQueue<>();
    /** New connections of failed lanes, made by the {@link RailReconnector}, to take into use on this thread. */
    private final ConcurrentLinkedQueue<Adoption> adoptions = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean resumeRequested = new AtomicBoolean();
    private final AtomicBoolean quiesceCheck = new AtomicBoolean();
    private final Consumer<SelectionKey> onReady = this::handle;
    private volatile boolean sleeping;
    private boolean progressed;
    /** Whether a lane waits for another driver to close a lane before judging a re-sent copy. */
    private boolean anyAwaiting;
    private long nextHousekeepingNs;
    private long lastHousekeepingNs;
    private long nowNs;
    private int work;

    LaneDriver(String name, LaneSet lanes, SpscRing<PutSlot> ring) throws IOException {
        this.name = name;
        this.lanes = lanes;
        this.selector = Selector.open();
        this.ring = ring;
        lanes.addDriver(this);
    }

    /** A new connection of lane {@code lane} to {@code peer}, generation {@code generation}, authenticated. */
    record Adoption(int peer, int lane, int generation, SocketChannel channel) {
    }

    void add(TcpConnection c) throws IOException {
        c.key = c.channel.register(selector, SelectionKey.OP_READ, c);
        c.driver = this;
        // A connection that replaces another of its lane (given up, or about to be replaced) takes its place in the
        // list, which does not grow, and the frames the old one spilled and still holds (see retryPaused).
        for (int i = 0, n = connections.size(); i < n; i++) {
            TcpConnection o = connections.get(i);
            if (o != c && o.peer == c.peer && o.lane == c.lane) {
                c.takeSpilledFrom(o);
            }
        }
        connections.removeIf(o -> o != c && o.peer == c.peer && o.lane == c.lane);
        connections.add(c);
    }

    /** Brings the next housekeeping round forward to {@code dueNs} at the latest (an ACK falls due then). */
    void housekeepBy(long dueNs) {
        if (dueNs - nextHousekeepingNs < 0) {
            nextHousekeepingNs = dueNs;
        }
    }

    /** Marks that an ACK or a delivery happened, so the owner is woken once at the end of this round. */
    void noteProgress() {
        progressed = true;
    }

    /** One round of work; returns how much was done (0 = idle). Driving thread only. */
    int doWork(long now) {
        nowNs = now;
        work = 0;
        if (ring != null) {
            drainRing();
        }
        if (!handoffs.isEmpty()) {
            drainHandoffs();
        }
        if (!adoptions.isEmpty()) {
            adoptPending(true);
        }
        if (!commands.isEmpty()) {
            Consumer<LaneDriver> c;
            while ((c = commands.poll()) != null) {
                c.accept(this);
                work++;
            }
        }
        if (quiesceCheck.getAndSet(false)) {
            closeQuiescedLanes();
        }
        if (resumeRequested.getAndSet(false) || anyAwaiting) {
            retryPaused();
        }
        try {
            if (CallCounters.ON) {
                CallCounters.add(Event.SELECT_NOW);
            }
            selector.selectNow(onReady);
        } catch (IOException e) {
            lanes.fail(new RailcollException("rank " + lanes.rank + ": " + name + " selector failed: " + e.getMessage(), e));
        }
        if (now - nextHousekeepingNs >= 0) {
            housekeeping();
        }
        if (progressed) {
            progressed = false;
            lanes.sink.progressed();
        }
        return work;
    }

    /** Blocks in the selector up to {@code maxWaitNs} (handling what becomes ready), then does housekeeping. */
    void await(long now, long maxWaitNs) {
        nowNs = now;
        work = 0;
        long untilHousekeeping = Math.max(0, nextHousekeepingNs - now);
        long ms = TimeUnit.NANOSECONDS.toMillis(Math.min(maxWaitNs, untilHousekeeping));
        try {
            if (ms <= 0) {
                if (CallCounters.ON) {
                    CallCounters.add(Event.SELECT_NOW);
                }
                selector.selectNow(onReady);
            } else {
                selector.select(onReady, ms);
                if (CallCounters.ON) {
                    CallCounters.add(Event.SELECT_BLOCKING);
                }
            }
        } catch (IOException e) {
            lanes.fail(new RailcollException("rank " + lanes.rank + ": " + name + " selector failed: " + e.getMessage(), e));
        }
        nowNs = lanes.clock.getAsLong();
        if (nowNs - nextHousekeepingNs >= 0) {
            housekeeping();
        }
        if (progressed) {
            progressed = false;
            lanes.sink.progressed();
        }
    }

    /**
     * The rail thread's sleep: announces it sleeps, re-checks for queued work (so a producer that saw it awake and
     * one that sees it asleep both get served), then waits in the selector until the next heartbeat is due, I/O, or
     * a {@link #wake}. Short naps while a lane waits for another driver to close a lane.
     */
    void sleep(long now) {
        sleeping = true;
        try {
            if (hasQueuedWork()) {
                return;
            }
            long ns = anyAwaiting ? TimeUnit.MILLISECONDS.toNanos(1) : Math.max(0, nextHousekeepingNs - now);
            long ms = Math.max(1, TimeUnit.NANOSECONDS.toMillis(ns));
            nowNs = now;
            work = 0;
            selector.select(onReady, ms);
            if (CallCounters.ON) {
                CallCounters.add(Event.SELECT_BLOCKING);
            }
        } catch (IOException e) {
            lanes.fail(new RailcollException("rank " + lanes.rank + ": " + name + " selector failed: " + e.getMessage(), e));
        } finally {
            sleeping = false;
        }
    }

    private boolean hasQueuedWork() {
        return (ring != null && !ring.isEmpty()) || !handoffs.isEmpty() || !commands.isEmpty() || !adoptions.isEmpty()
                || resumeRequested.get() || quiesceCheck.get();
    }

    /** Wakes the driving thread if it sleeps in {@link #sleep}; call after publishing work (any thread). */
    void wake() {
        if (sleeping) {
            if (CallCounters.ON) {
                CallCounters.add(Event.SELECTOR_WAKEUP);
            }
            selector.wakeup();
        }
    }

    void handoff(OutFrame f) {
        if (CallCounters.ON) {
            CallCounters.add(Event.HANDOFF);
        }
        handoffs.add(f);
        wake();
    }

    /** Runs {@code c} on the driving thread at its next round (cold paths: abort, goodbye). */
    void command(Consumer<LaneDriver> c) {
        commands.add(c);
        wake();
    }

    /** Hands a new connection of a failed lane to this driver, which takes it into use at its next round (any thread). */
    void offerAdoption(Adoption a) {
        adoptions.add(a);
        selector.wakeup();
    }

    /**
     * Takes the offered connections into use. {@code mayMoveFrames} false (the keeper, which must not touch user
     * buffers): only those whose lane's old connection is gone, so that no frame moves; the others wait for the
     * owner.
     */
    private void adoptPending(boolean mayMoveFrames) {
        int n = adoptions.size();
        for (int i = 0; i < n; i++) {
            Adoption a = adoptions.poll();
            if (a == null) {
                return;
            }
            TcpConnection old = lanes.peer(a.peer()).lane(a.lane());
            if (!mayMoveFrames && old != null && !old.isBroken()) {
                adoptions.add(a);
                continue;
            }
            work++;
            boolean taken = false;
            try {
                a.channel().configureBlocking(false);
                TcpConnection c = new TcpConnection(a.peer(), a.lane(), lanes.railOf(a.lane()), a.generation(),
                        a.channel(), lanes, nowNs);
                taken = lanes.adopt(this, c, nowNs);
            } catch (IOException | java.io.UncheckedIOException e) {
                lanes.log("railcoll WARNING: rank " + lanes.rank + ": cannot take the new connection of "
                        + lanes.describeLane(a.lane()) + " to rank " + a.peer() + " into use: " + e.getMessage());
            }
            if (!taken) {
                RailMesh.closeQuietly(a.channel());
                // Given up by the peer before it could be used: if the lane is still down, dial it again.
                lanes.adoptionRefused(a.peer(), a.lane());
            }
        }
    }

    /** The owner posted a collective: paused lanes should offer their frame again. */
    void requestResume() {
        resumeRequested.set(true);
        wake();
    }

    /** A lane of this driver was asked to close (another driver received a REPLAY naming it). */
    void requestQuiesceCheck() {
        quiesceCheck.set(true);
        wake();
    }

    /** A lane closed somewhere: lanes waiting for that may now judge their re-sent copy. */
    void recheckPaused() {
        resumeRequested.set(true);
        wake();
    }

    long now() {
        return nowNs;
    }

    private void drainRing() {
        PutSlot s;
        while ((s = ring.peek()) != null) {
            TcpConnection c = lanes.peer(s.peer).lane(s.lane);
            if (c.isBroken()) {
                // The lane died after the owner chose it: the fragment goes on another lane as a new frame.
                OutFrame f = new OutFrame();
                f.set(s.header, s.source, s.sourceOffset, s.completion);
                lanes.redirect(this, s.peer, f, nowNs);
            } else {
                c.enqueue(s.header, s.source, s.sourceOffset, s.completion, nowNs);
            }
            s.clear();
            ring.release();
            work++;
        }
    }

    private void drainHandoffs() {
        OutFrame f;
        while ((f = handoffs.poll()) != null) {
            lanes.send(this, f.handoffPeer, f.handoffLane, f, nowNs);
            work++;
        }
    }

    private void retryPaused() {
        boolean still = false;
        for (int i = 0, n = connections.size(); i < n; i++) {
            TcpConnection c = connections.get(i);
            // A broken connection is still offered what it spilled: those frames were read and acknowledged, so
            // the peer never sends them again, and they are delivered when their collective is posted (decision
            // 0247). It holds nothing else (resume() on it only delivers spilled frames).
            if (!c.paused()) {
                continue;
            }
            try {
                if (c.resume()) {
                    work += 1 + c.readAvailable(nowNs);
                }
                still |= c.awaitingQuiesce();
            } catch (RailcollException e) {
                lanes.fail(e);
                c.haltReading();
            }
        }
        anyAwaiting = still;
    }

    private void closeQuiescedLanes() {
        for (int i = 0, n = connections.size(); i < n; i++) {
            TcpConnection c = connections.get(i);
            if (!c.isBroken() && c.quiesceRequested()) {
                lanes.breakLane(c, "rank " + c.peer + " gave this rail up and re-sent its frames on another", false, nowNs);
            }
        }
    }

    private void handle(SelectionKey key) {
        TcpConnection c = (TcpConnection) key.attachment();
        if (!key.isValid()) {
            return;
        }
        try {
            if (key.isWritable()) {
                work += c.writeQueued(nowNs);
                c.updateInterest();
            }
            if (key.isValid() && key.isReadable()) {
                work += c.readAvailable(nowNs);
                anyAwaiting |= c.awaitingQuiesce();
            }
        } catch (RailcollException e) {
            lanes.fail(e);
            c.haltReading();
        }
    }

    /**
     * Heartbeats on quiet lanes, and giving up lanes that stayed silent too long. If this driver itself did not run
     * for half a time-out (a stalled process: GC, an overloaded machine), silence is forgiven once: every lane gets
     * half a time-out more to show life, so a stall here is not taken for dead rails there.
     */
    private void housekeeping() {
        LanePolicy policy = lanes.policy;
        boolean stalled = lastHousekeepingNs != 0 && nowNs - lastHousekeepingNs > policy.timeoutNs() / 2;
        lastHousekeepingNs = nowNs;
        for (int i = 0, n = connections.size(); i < n; i++) {
            TcpConnection c = connections.get(i);
            if (c.isBroken()) {
                continue;
            }
            PeerLanes p = lanes.peer(c.peer);
            if (p.goodbye() || c.goodbyeReceived()) {
                continue;
            }
            if (c.quiesceRequested()) {
                lanes.breakLane(c, "rank " + c.peer + " gave this rail up and re-sent its frames on another", false, nowNs);
                continue;
            }
            if (stalled) {
                c.lastHeardNs = Math.max(c.lastHeardNs, nowNs - policy.timeoutNs() / 2);
            }
            if (!c.paused() && policy.silent(c.lastHeardNs, nowNs)) {
                // One silent lane while the peer is heard on another is a failed rail: given up, its frames re-sent
                // there. A peer silent on every lane is a stopped or descheduled process (SIGSTOP, a long GC pause,
                // a starved container) far more often than every rail failing at once, and a slow peer is not a
                // dead one: nothing is given up, and the collective waiting for it fails at its own deadline,
                // naming it (decision 0040). A peer that died resets its connections and is lost at once.
                if (lanes.peerHeardWithin(c, nowNs, policy.timeoutNs())) {
                    lanes.breakLane(c, "no acknowledgement or heartbeat for " + LaneSet.millis(nowNs - c.lastHeardNs)
                            + " (time-out " + LaneSet.millis(policy.timeoutNs()) + ") while rank " + c.peer
                            + " is heard on another lane", true, nowNs);
                }
                continue;
            }
            if (policy.heartbeatDue(c.lastSentNs, nowNs) || c.ackOwedLongerThan(nowNs, TcpConnection.ACK_DELAY_NS)) {
                c.queueAck(nowNs);
            }
        }
        nextHousekeepingNs = nowNs + Math.max(TimeUnit.MILLISECONDS.toNanos(1), policy.heartbeatNs() / 4);
        for (int i = 0, n = connections.size(); i < n; i++) {
            long due = connections.get(i).ackDueNs();
            if (due != 0) {
                housekeepBy(due);
            }
        }
    }

    /**
     * The keeper's round while the owner is away (non-threaded engine): only heartbeats, on lanes with nothing
     * queued. It reads nothing and writes no data, because user buffers may belong to a confined arena that only
     * the owner may touch; with nothing of the owner's in flight (its collectives finished, so all acknowledged)
     * heartbeats are all its peers need to keep knowing the rails are alive.
     */
    void heartbeatOnly(long now) {
        LanePolicy policy = lanes.policy;
        if (!adoptions.isEmpty()) {
            nowNs = now;
            adoptPending(false);
        }
        for (int i = 0, n = connections.size(); i < n; i++) {
            TcpConnection c = connections.get(i);
            if (c.isBroken() || c.hasOutput() || c.goodbyeReceived() || lanes.peer(c.peer).goodbye()) {
                continue;
            }
            if (policy.heartbeatDue(c.lastSentNs, now) || c.ackOwedLongerThan(now, TcpConnection.ACK_DELAY_NS)) {
                c.queueAck(now);
            }
        }
    }

    /** Whether any lane of this driver still has frames queued to write. */
    /** Whether some live lane has written a frame whose sender waits for the peer's ACK. */
    boolean awaitsAcks() {
        for (int i = 0, n = connections.size(); i < n; i++) {
            TcpConnection c = connections.get(i);
            if (!c.isBroken() && c.awaitsAck()) {
                return true;
            }
        }
        return false;
    }

    boolean hasPendingOutput() {
        for (int i = 0, n = connections.size(); i < n; i++) {
            TcpConnection c = connections.get(i);
            if (!c.isBroken() && c.hasOutput()) {
                return true;
            }
        }
        return false;
    }

    /** Closes every lane's socket and the selector (after the driving thread stopped). */
    void closeAll() {
        Adoption a;
        while ((a = adoptions.poll()) != null) {
            RailMesh.closeQuietly(a.channel());
        }
        for (TcpConnection c : connections) {
            if (!c.isBroken()) {
                c.stop();
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
