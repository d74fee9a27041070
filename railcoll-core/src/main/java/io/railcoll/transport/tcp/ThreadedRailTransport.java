package io.railcoll.transport.tcp;

import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;
import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The threaded rail engine (paper 004's threaded approach): one progress thread per rail, each with its own
 * selector over that rail's lanes to every peer, so the rails' transfers, checksums and completion handling run in
 * parallel. The owner's {@link #put} stripes as the non-threaded engine does and hands each fragment to its rail's
 * thread through a single-producer ring of reusable slots: no lock, no allocation beyond the payload view, and a
 * selector wake-up only when that thread sleeps. Rail threads deliver frames to the engine directly (its frame
 * methods are thread-safe) and wake the owner through {@link FrameSink#progressed()}.
 *
 * <p>Rail thread loop: work while there is work; when idle spin briefly, yield, then sleep in the selector until
 * I/O, a wake-up or the next heartbeat. Frames paused on a collective not posted yet are re-offered when the
 * owner's {@link #resume} raises a flag the thread checks before every select, so a post that races with a pause is
 * never missed.
 *
 * <p>Threading: {@link io.railcoll.transport.Transport} calls on the owner thread, {@link #abortAll} on any.
 * Lifetime: built by {@link #start}, threads stopped and sockets closed by {@link #close}.
 */
public final class ThreadedRailTransport extends RailTransport {
    /** Fragments in flight from the owner to one rail thread; that thread empties it without waiting for the network. */
    static final int RING_SLOTS = 4096;
    private static final int SPIN_ROUNDS = 64;
    private static final int YIELD_ROUNDS = 8;

    private final LaneDriver[] drivers;
    private final Thread[] threads;
    private final long putDeadlineNs;
    private long touched;
    private volatile boolean running = true;
    private RailReconnector reconnector;

    private ThreadedRailTransport(LaneSet lanes, long stripeThresholdBytes, LaneDriver[] drivers, long putDeadlineNs) {
        super(lanes, stripeThresholdBytes);
        this.drivers = drivers;
        this.putDeadlineNs = putDeadlineNs;
        this.threads = new Thread[drivers.length];
        for (int r = 0; r < drivers.length; r++) {
            LaneDriver d = drivers[r];
            threads[r] = Thread.ofPlatform().daemon().name("railcoll-rail" + r + "-rank" + lanes.rank)
                    .unstarted(() -> run(d));
        }
    }

    /** Takes ownership of {@code channels[peer][lane]} (blocking, authenticated) and starts one thread per rail. */
    public static ThreadedRailTransport start(int rank, SocketChannel[][] channels, RailSettings settings, FrameSink sink,
                                              PrintStream log, long putDeadlineNs) throws IOException {
        return start(rank, channels, settings, sink, log, putDeadlineNs, System::nanoTime);
    }

    /**
     * As above, and reconnects lanes that fail through {@code reconnector}, which this transport owns from now on
     * (closed first when it closes, or here if starting fails).
     */
    public static ThreadedRailTransport start(int rank, SocketChannel[][] channels, RailSettings settings,
                                              FrameSink sink, PrintStream log, long putDeadlineNs,
                                              RailReconnector reconnector) throws IOException {
        ThreadedRailTransport t;
        try {
            t = start(rank, channels, settings, sink, log, putDeadlineNs, System::nanoTime);
        } catch (IOException | RuntimeException e) {
            reconnector.close();
            throw e;
        }
        t.reconnector = reconnector;
        try {
            reconnector.start(t, settings);
        } catch (IOException | RuntimeException e) {
            t.close();
            throw e;
        }
        return t;
    }

    static ThreadedRailTransport start(int rank, SocketChannel[][] channels, RailSettings settings, FrameSink sink,
                                       PrintStream log, long putDeadlineNs, LongSupplier clock) throws IOException {
        LaneSet lanes = new LaneSet(rank, channels.length, settings.rails(), settings.connectionsPerRail(), settings.eagerBytes(), sink,
                LanePolicy.forTimeout(settings.railTimeoutNs()), clock, log);
        LaneDriver[] drivers = new LaneDriver[settings.rails()];
        try {
            for (int r = 0; r < drivers.length; r++) {
                drivers[r] = new LaneDriver("rail " + r, lanes, new SpscRing<>(RING_SLOTS, PutSlot::new));
            }
            register(lanes, channels, drivers);
        } catch (IOException | RuntimeException e) {
            for (LaneDriver d : drivers) {
                if (d != null) {
                    d.closeAll();
                }
            }
            throw e;
        }
        ThreadedRailTransport t = new ThreadedRailTransport(lanes, settings.stripeThresholdBytes(), drivers, putDeadlineNs);
        for (Thread th : t.threads) {
            th.start();
        }
        return t;
    }

    private void run(LaneDriver d) {
        int idle = 0;
        while (running) {
            int work;
            try {
                work = d.doWork(lanes.clock.getAsLong());
            } catch (WrongThreadException e) {
                lanes.fail(new RailcollException("rank " + rank + ": " + d + " thread cannot touch a buffer of a "
                        + "confined arena: with the threaded engine, pass heap arrays, direct ByteBuffers or segments of a "
                        + "shared, auto or global arena (" + e.getMessage() + ")", e));
                work = 0;
            } catch (RuntimeException e) {
                lanes.fail(e instanceof RailcollException re ? re
                        : new RailcollException("rank " + rank + ": " + d + " thread failed: " + e, e));
                work = 0;
            }
            if (work > 0) {
                idle = 0;
            } else if (++idle < SPIN_ROUNDS) {
                Thread.onSpinWait();
            } else if (idle < SPIN_ROUNDS + YIELD_ROUNDS) {
                Thread.yield();
            } else if (running) {
                d.sleep(lanes.clock.getAsLong());
            }
        }
    }

    @Override
    LaneDriver driverOfRail(int rail) {
        return drivers[rail];
    }

    @Override
    public boolean drivenByCaller() {
        return false;
    }

    @Override
    boolean beginPuts() {
        touched = 0;
        return true;
    }

    @Override
    void checkSource(MemorySegment src) {
        if (!src.isAccessibleBy(threads[0])) {
            throw new IllegalArgumentException("rank " + rank + ": the threaded engine's rail threads cannot read a buffer "
                    + "of a confined arena: pass heap arrays, direct ByteBuffers or segments of a shared, auto or global arena");
        }
    }

    @Override
    void submit(int peer, int lane, FrameHeader meta, long putLength, long fragOffset, long fragLength,
                MemorySegment src, long srcOffset, SendCompletion completion) {
        int rail = lanes.railOf(lane);
        LaneDriver d = drivers[rail];
        PutSlot s = d.ring.claim();
        if (s == null) {
            s = claimSlowly(d);
        }
        fill(s.header, meta, putLength, fragOffset, fragLength);
        s.source = src;
        s.sourceOffset = srcOffset;
        s.completion = completion;
        s.peer = peer;
        s.lane = lane;
        // Full fence after publishing: the wake-up check below must not be reordered before it (see LaneDriver.sleep).
        d.ring.publishVolatile();
        if (CallCounters.ON) {
            CallCounters.add(Event.HANDOFF);
        }
        touched |= 1L << rail;
    }

    /** The ring is full: the rail thread is behind by {@link #RING_SLOTS} fragments. Wait for it, with a deadline. */
    private PutSlot claimSlowly(LaneDriver d) {
        long deadline = System.nanoTime() + putDeadlineNs;
        int spins = 0;
        for (;;) {
            d.wake();
            PutSlot s = d.ring.claim();
            if (s != null) {
                return s;
            }
            lanes.throwIfFailed();
            if (System.nanoTime() - deadline > 0) {
                throw new RailcollException("rank " + rank + ": " + d + " thread took no fragment for "
                        + TimeUnit.NANOSECONDS.toSeconds(putDeadlineNs) + " s");
            }
            if (++spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    @Override
    void endPuts(boolean held) {
        for (long m = touched; m != 0; m &= m - 1) {
            drivers[Long.numberOfTrailingZeros(m)].wake();
        }
    }

    @Override
    public int poll() {
        lanes.throwIfFailed();
        return 0;
    }

    @Override
    public void await(long maxWaitNs) {
        lanes.throwIfFailed();
    }

    @Override
    public boolean hasPendingOutput() {
        for (LaneDriver d : drivers) {
            if (!d.ring.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void resume() {
        for (LaneDriver d : drivers) {
            d.requestResume();
        }
    }

    @Override
    public void abortAll(String reason) {
        ByteBuffer[] payload = new ByteBuffer[1];
        FrameHeader h = abortHeader(reason, payload);
        SendCompletion done = new SendCompletion();
        for (int p = 0; p < lanes.size(); p++) {
            TcpConnection c = p == rank ? null : firstLiveLane(p);
            if (c != null) {
                done.add(1);
                ByteBuffer bytes = payload[0].duplicate();
                // One header per command: encoding uses the header's own checksum state, and rail threads run in parallel.
                FrameHeader hp = new FrameHeader();
                hp.copyFrom(h);
                c.driver.command(d -> {
                    if (c.isBroken()) {
                        done.done();
                    } else {
                        c.enqueue(hp, bytes, done, d.now());
                    }
                });
            }
        }
        if (!isRailThread()) {
            await(done, TimeUnit.SECONDS.toNanos(2));
        }
    }

    private boolean isRailThread() {
        Thread me = Thread.currentThread();
        for (Thread t : threads) {
            if (t == me) {
                return true;
            }
        }
        return false;
    }

    private static void await(SendCompletion done, long maxNs) {
        long deadline = System.nanoTime() + maxNs;
        while (done.pending() > 0 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Override
    public void close() {
        if (reconnector != null) {
            reconnector.close(); // a goodbye is not a failure: nothing is reconnected from here on
        }
        // Small frames completed once written: their acknowledgements are awaited before the goodbyes (the rail
        // threads keep reading), for as long as a rail may stay silent.
        long deadline = System.nanoTime() + 2 * lanes.policy.timeoutNs();
        while (lanes.eagerUnacknowledged() > 0 && lanes.failure() == null && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
            Thread.yield();
        }
        lanes.closing();
        SendCompletion done = new SendCompletion();
        for (LaneDriver driver : drivers) {
            done.add(1);
            FrameHeader bye = goodbyeHeader(); // one per rail thread: encoding is not thread-safe
            driver.command(d -> {
                for (TcpConnection c : d.connections) {
                    if (!c.isBroken()) {
                        lanes.reportPending(c);
                        c.queueAck(d.now());
                        done.add(1);
                        c.enqueue(bye, null, done, d.now());
                    }
                }
                done.done();
            });
        }
        await(done, TimeUnit.SECONDS.toNanos(2));
        running = false;
        for (int r = 0; r < threads.length; r++) {
            drivers[r].wake();
            drivers[r].selector.wakeup();
            try {
                threads[r].join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (LaneDriver d : drivers) {
            d.closeAll();
        }
    }
}
