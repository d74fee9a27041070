package io.railcoll.transport.mcast;

import io.railcoll.RailcollException;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The blocking face of the reliable multicast broadcast ({@code broadcast.multicast}): opens the group's socket
 * (or notes why it cannot, which makes the protocol fail over to the point-to-point tree at once), then runs
 * {@link BroadcastProtocol} until each call is done, idling by spinning briefly, then yielding, then parking,
 * because ranks often outnumber cores.
 *
 * <p>Threading: one thread at a time, the communicator's. Between calls the engine should keep calling
 * {@link #doWork()} whenever it waits for anything else, so this member keeps relaying synchronizations and
 * re-sending for the others. Lifetime: the caller owns the {@link ControlLink}; {@link #close()} flushes (a final
 * synchronization, so every member got every broadcast before anyone leaves) and closes the socket.
 */
public final class MulticastBroadcast implements AutoCloseable {
    private final BroadcastProtocol protocol;
    private final MulticastCounters counters;
    private final DatagramPort port;
    private final LongSupplier clock;
    private final MulticastGroup group;
    private boolean closed;
    private volatile Thread waiter;

    private MulticastBroadcast(BroadcastProtocol protocol, MulticastCounters counters, DatagramPort port,
                               LongSupplier clock, MulticastGroup group) {
        this.protocol = protocol;
        this.counters = counters;
        this.port = port;
        this.clock = clock;
        this.group = group;
    }

    /**
     * Joins {@code group}, builds the protocol over {@code link} and waits until every member has joined (a
     * collective call: all members open together). Never fails because multicast is unavailable: that is
     * reported through {@code log} and handled by fail-over.
     */
    public static MulticastBroadcast open(MulticastGroup group, MulticastSettings settings, ControlLink link,
                                          Consumer<String> log) {
        MulticastBroadcast b = create(group, settings, link, log);
        try {
            // Every member listens before anyone sends: multicast does not keep datagrams for late joiners.
            b.protocol.postJoin(System.nanoTime());
            b.await();
        } catch (RuntimeException e) {
            b.closeSocket();
            throw e;
        }
        return b;
    }

    /**
     * Joins {@code group} (or notes why it cannot) and builds the protocol over {@code link} without waiting for
     * anything: for an engine that drives the progress itself. The caller then posts the join ({@link #postJoin})
     * and runs {@link #doWork} until {@link #isDone}, like every later operation; {@code onArrival} runs (on the
     * link's thread) whenever a control message arrives, after this member's own wake-up.
     */
    public static MulticastBroadcast create(MulticastGroup group, MulticastSettings settings, ControlLink link,
                                            Consumer<String> log, Runnable onArrival) {
        MulticastBroadcast b = create(group, settings, link, log);
        link.onArrival(() -> {
            b.wakeup();
            onArrival.run();
        });
        return b;
    }

    private static MulticastBroadcast create(MulticastGroup group, MulticastSettings settings, ControlLink link,
                                             Consumer<String> log) {
        DatagramPort port = null;
        String unavailable = null;
        try {
            DatagramPort endpoint = MulticastEndpoint.open(group, settings.receiveBufferBytes());
            port = settings.faults().isNone() ? endpoint
                    : new FaultInjectingPort(endpoint, settings.faults().withSeed(settings.faults().seed() * 1_000_003 + group.myRank()));
        } catch (IOException e) {
            unavailable = e.getMessage();
        }
        MulticastCounters counters = new MulticastCounters();
        BroadcastProtocol p = new BroadcastProtocol(group.memberRanks(), group.myRank(), MulticastGroup.jobHash(group.jobId()),
                group.communicatorId(), settings, port, unavailable, link, counters, log);
        MulticastBroadcast b = new MulticastBroadcast(p, counters, port, System::nanoTime, group);
        link.onArrival(b::wakeup);
        return b;
    }

    // ---- the non-blocking face, for an engine that drives progress itself ----

    /** Starts the join (collective: every member listens before anyone sends). */
    public void postJoin() {
        checkOpen();
        protocol.postJoin(clock.getAsLong());
    }

    /** Starts a broadcast of {@code buffer} from {@code rootRank}; done when {@link #isDone}. */
    public void postBroadcast(MemorySegment buffer, int rootRank) {
        checkOpen();
        protocol.postBroadcast(buffer, rootRank, clock.getAsLong());
    }

    /** Starts a synchronization of everything broadcast so far (collective). */
    public void postFlush() {
        checkOpen();
        protocol.postFlush(clock.getAsLong());
    }

    /** Whether the posted operation is done. */
    public boolean isDone() {
        return protocol.isDone();
    }

    /** Sleeps up to {@code maxWaitNs} in the multicast socket (a datagram or {@link #wakeup} ends it early). */
    public void awaitInput(long maxWaitNs) {
        waiter = Thread.currentThread();
        protocol.await(maxWaitNs);
        waiter = null;
    }

    /** The failure that ended this member's protocol, or null. */
    public RailcollException failure() {
        return protocol.failure();
    }

    /** Closes the socket without a final synchronization: after a {@link #postFlush} that is done, or a failure. */
    public void closeSocket() {
        closed = true;
        if (port != null) {
            port.close();
        }
    }

    /** Broadcasts {@code buffer} from {@code rootRank} to every member; returns when this member's part is done. */
    public void broadcast(MemorySegment buffer, int rootRank) {
        checkOpen();
        protocol.postBroadcast(buffer, rootRank, clock.getAsLong());
        await();
    }

    /** Synchronizes everything broadcast so far (collective). */
    public void flush() {
        checkOpen();
        protocol.postFlush(clock.getAsLong());
        await();
    }

    /** One round of progress without blocking; for the engine's progress loop. */
    public int doWork() {
        return protocol.doWork(clock.getAsLong());
    }

    public boolean failedOver() {
        return protocol.failedOver();
    }

    public MulticastCounters counters() {
        return counters;
    }

    public MulticastGroup group() {
        return group;
    }

    private void await() {
        int idle = 0;
        while (!protocol.isDone()) {
            if (protocol.doWork(clock.getAsLong()) > 0) {
                idle = 0;
            } else if (++idle < 50) {
                Thread.onSpinWait();
            } else if (idle < 60) {
                Thread.yield();
            } else {
                // Block in the kernel until a datagram or a control message arrives (ranks often outnumber
                // cores: a spinning rank would steal the core of the one it waits for). 1 ms bounds the timers.
                waiter = Thread.currentThread();
                protocol.await(1_000_000L);
                waiter = null;
            }
        }
    }

    /** Called by the control link's reader threads when a message arrives. */
    private void wakeup() {
        protocol.wakeup();
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("multicast broadcast of " + group + " is closed");
        }
    }

    /** Flushes (unless the protocol already failed), then closes the socket; the control link stays open. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        RailcollException failure = null;
        try {
            if (protocol.failure() == null) {
                flush();
            }
        } catch (RailcollException e) {
            failure = e;
        } finally {
            closed = true;
            if (port != null) {
                port.close();
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
