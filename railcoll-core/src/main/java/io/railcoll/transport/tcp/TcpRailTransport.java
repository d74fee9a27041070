package io.railcoll.transport.tcp;

import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The non-threaded rail engine (paper 004's non-threaded approach): the owner thread drives every lane through one
 * selector while it waits in a collective, so a small message crosses no hand-off between threads.
 *
 * <p>Heartbeats must flow even while the owner computes outside the library, or peers would take a busy rank for a
 * dead rail; so a <em>keeper</em> thread writes heartbeats (and nothing else: it touches no user buffer) whenever
 * the owner has not driven the lanes for half a heartbeat interval. The two never drive at once: whoever drives
 * holds {@code driving} (one uncontended compare-and-set per call on the owner's path). Calls from inside a drive
 * (the engine's frame checks aborting everyone) see that they already hold it.
 *
 * <p>Threading: the {@link io.railcoll.transport.Transport} calls on the owner thread. Lifetime: built by
 * {@link #start} from connected channels, closed by its owner (which stops the keeper).
 */
public final class TcpRailTransport extends RailTransport {
    private final LaneDriver driver;
    private final AtomicReference<Thread> driving = new AtomicReference<>();
    private final FrameHeader fragment = new FrameHeader();
    private final Thread keeper;
    private volatile long lastDrivenNs;
    private volatile boolean closing;
    private RailReconnector reconnector;

    private TcpRailTransport(LaneSet lanes, long stripeThresholdBytes, LaneDriver driver, boolean withKeeper) {
        super(lanes, stripeThresholdBytes);
        this.driver = driver;
        this.lastDrivenNs = lanes.clock.getAsLong();
        this.keeper = withKeeper
                ? Thread.ofPlatform().daemon().name("railcoll-keeper-" + lanes.rank).unstarted(this::keep)
                : null;
    }

    /** Takes ownership of {@code channels[peer][lane]} (blocking, authenticated) and starts the keeper. */
    public static TcpRailTransport start(int rank, SocketChannel[][] channels, RailSettings settings, FrameSink sink,
                                         PrintStream log) throws IOException {
        return start(rank, channels, settings, sink, log, System::nanoTime, true);
    }

    /**
     * As above, and reconnects lanes that fail through {@code reconnector}, which this transport owns from now on
     * (closed first when it closes, or here if starting fails).
     */
    public static TcpRailTransport start(int rank, SocketChannel[][] channels, RailSettings settings, FrameSink sink,
                                         PrintStream log, RailReconnector reconnector) throws IOException {
        TcpRailTransport t;
        try {
            t = start(rank, channels, settings, sink, log, System::nanoTime, true);
        } catch (IOException | RuntimeException e) {
            reconnector.close();
            throw e;
        }
        t.reconnectWith(reconnector, settings);
        return t;
    }

    /** For tests: an injected clock, and optionally no keeper (the test drives by hand). */
    static TcpRailTransport start(int rank, SocketChannel[][] channels, RailSettings settings, FrameSink sink,
                                  PrintStream log, LongSupplier clock, boolean withKeeper) throws IOException {
        LaneSet lanes = new LaneSet(rank, channels.length, settings.rails(), settings.connectionsPerRail(), settings.eagerBytes(), sink,
                LanePolicy.forTimeout(settings.railTimeoutNs()), clock, log);
        LaneDriver driver = new LaneDriver("rails", lanes, null);
        LaneDriver[] byRail = new LaneDriver[settings.rails()];
        Arrays.fill(byRail, driver);
        try {
            register(lanes, channels, byRail);
        } catch (IOException | RuntimeException e) {
            driver.closeAll();
            throw e;
        }
        TcpRailTransport t = new TcpRailTransport(lanes, settings.stripeThresholdBytes(), driver, withKeeper);
        if (t.keeper != null) {
            t.keeper.start();
        }
        return t;
    }

    /** From now on failed lanes are reconnected through {@code r} (closed with this transport, or now on failure). */
    void reconnectWith(RailReconnector r, RailSettings settings) throws IOException {
        reconnector = r;
        try {
            r.start(this, settings);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    LaneDriver driverOfRail(int rail) {
        return driver;
    }

    /** The reconnector (null when failed lanes stay given up), for tests. */
    RailReconnector reconnector() {
        return reconnector;
    }

    /** Takes the right to drive; false when this thread already holds it (a nested call), true otherwise. */
    private boolean acquire() {
        Thread me = Thread.currentThread();
        if (driving.get() == me) {
            return false;
        }
        while (!driving.compareAndSet(null, me)) {
            Thread.onSpinWait();
        }
        return true;
    }

    private void release(boolean acquired) {
        if (acquired) {
            lastDrivenNs = lanes.clock.getAsLong();
            driving.set(null);
        }
    }

    /** The keeper: heartbeats while the owner has been away for half a heartbeat interval. */
    private void keep() {
        long interval = lanes.policy.heartbeatNs() / 2;
        while (!closing) {
            try {
                Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(interval)));
            } catch (InterruptedException e) {
                return;
            }
            long now = lanes.clock.getAsLong();
            if (now - lastDrivenNs < interval || closing || !driving.compareAndSet(null, Thread.currentThread())) {
                continue;
            }
            try {
                driver.heartbeatOnly(now);
            } catch (RuntimeException e) {
                lanes.fail(e instanceof RailcollException re ? re
                        : new RailcollException("rank " + rank + ": rail keeper failed: " + e, e));
            } finally {
                driving.set(null);
            }
        }
    }

    @Override
    boolean beginPuts() {
        return acquire();
    }

    @Override
    void submit(int peer, int lane, FrameHeader meta, long putLength, long fragOffset, long fragLength,
                MemorySegment src, long srcOffset, SendCompletion completion) {
        fill(fragment, meta, putLength, fragOffset, fragLength);
        TcpConnection c = lanes.peer(peer).lane(lane);
        long now = lanes.clock.getAsLong();
        if (c.isBroken()) {
            OutFrame f = new OutFrame();
            f.set(fragment, src, srcOffset, completion);
            lanes.redirect(driver, peer, f, now);
        } else {
            c.enqueue(fragment, src, srcOffset, completion, now);
        }
    }

    @Override
    void endPuts(boolean held) {
        release(held);
    }

    @Override
    public int poll() {
        boolean held = acquire();
        try {
            return driver.doWork(lanes.clock.getAsLong());
        } finally {
            release(held);
            lanes.throwIfFailed();
        }
    }

    @Override
    public void await(long maxWaitNs) {
        boolean held = acquire();
        try {
            driver.await(lanes.clock.getAsLong(), maxWaitNs);
        } finally {
            release(held);
            lanes.throwIfFailed();
        }
    }

    @Override
    public boolean hasPendingOutput() {
        boolean held = acquire();
        try {
            return driver.hasPendingOutput();
        } finally {
            release(held);
        }
    }

    @Override
    public boolean awaitsDelivery() {
        boolean held = acquire();
        try {
            return driver.awaitsAcks();
        } finally {
            release(held);
        }
    }

    @Override
    public void resume() {
        boolean held = acquire();
        try {
            driver.requestResume();
            driver.doWork(lanes.clock.getAsLong());
        } finally {
            release(held);
        }
    }

    @Override
    public void abortAll(String reason) {
        boolean held = acquire();
        try {
            ByteBuffer[] payload = new ByteBuffer[1];
            FrameHeader h = abortHeader(reason, payload);
            SendCompletion done = new SendCompletion();
            long now = lanes.clock.getAsLong();
            for (int p = 0; p < lanes.size(); p++) {
                TcpConnection c = p == rank ? null : firstLiveLane(p);
                if (c != null) {
                    done.add(1);
                    c.enqueue(h, payload[0].duplicate(), done, now);
                }
            }
            if (held) {
                // Not nested inside a drive: push the aborts out (best effort, bounded).
                drain(done, TimeUnit.SECONDS.toNanos(2));
            }
        } finally {
            release(held);
        }
    }

    private void drain(SendCompletion done, long maxNs) {
        drainUntil(() -> done.pending() == 0, maxNs);
    }

    private void drainUntil(java.util.function.BooleanSupplier finished, long maxNs) {
        long deadline = System.nanoTime() + maxNs;
        while (!finished.getAsBoolean() && System.nanoTime() - deadline < 0) {
            if (driver.doWork(lanes.clock.getAsLong()) == 0) {
                driver.await(lanes.clock.getAsLong(), TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /**
     * Small frames completed once written; before saying goodbye, their receivers' acknowledgements are awaited
     * (reading meanwhile, so nothing unread makes the close a reset), for as long as a rail may stay silent.
     */
    private void awaitEagerAcknowledged(boolean held) {
        if (!held || lanes.eagerUnacknowledged() == 0) {
            return;
        }
        try {
            drainUntil(() -> lanes.eagerUnacknowledged() == 0 || lanes.failure() != null, 2 * lanes.policy.timeoutNs());
        } catch (RuntimeException ignored) {
            // a failure while closing: what is still unacknowledged is reported below
        }
    }

    @Override
    public void close() {
        closing = true;
        if (reconnector != null) {
            reconnector.close(); // a goodbye is not a failure: nothing is reconnected from here on
        }
        if (keeper != null) {
            keeper.interrupt();
            try {
                keeper.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        boolean held = acquire();
        try {
            awaitEagerAcknowledged(held);
            lanes.closing();
            FrameHeader bye = goodbyeHeader();
            SendCompletion done = new SendCompletion();
            long now = lanes.clock.getAsLong();
            for (TcpConnection c : driver.connections) {
                if (!c.isBroken()) {
                    lanes.reportPending(c);
                    c.queueAck(now);
                    done.add(1);
                    c.enqueue(bye, null, done, now);
                }
            }
            try {
                drain(done, TimeUnit.SECONDS.toNanos(2));
            } catch (RuntimeException ignored) {
                // closing anyway
            }
        } finally {
            driver.closeAll();
            release(held);
        }
    }
}
