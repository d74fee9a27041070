package io.railcoll.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets the engines of several communicators of one rank, each driven by its own thread, share the rank's transports:
 * one thread at a time calls into them ({@link ContextTransport} takes this lock around every call but
 * {@link Transport#abortAll}, which the transports allow from any thread). Whichever thread polls delivers every
 * frame it reads, to whichever communicator's engine it belongs ({@code engine.ContextRouter}), so a thread that
 * finds the lock taken has nothing to do but wait a little and look again.
 *
 * <p>Reentrant: a frame callback run inside a poll may put (a probe) or resume. Threading: any thread. A lock on a
 * hot path, the one exception to that rule, and why: decision 0215.
 * Lifetime: one per rank, held by the world communicator.
 */
public final class SharedDriver {
    /**
     * Longest sleep inside a transport while another communicator may need to put: a thread asleep in a selector
     * holds the lock, and another communicator's call must not wait longer than this to send.
     */
    static final long SHARED_AWAIT_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long a thread that found the lock taken pauses before it looks again. */
    static final long BUSY_PAUSE_NS = TimeUnit.MICROSECONDS.toNanos(200);

    /** How long an ABORT over shared memory waits for its turn before it is written regardless. */
    static final long ABORT_LOCK_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ReentrantLock lock = new ReentrantLock();
    /** Communicators open on this rank; while there is more than one, sleeps inside a transport are kept short. */
    private final AtomicInteger users = new AtomicInteger();

    /** A communicator starts using the transports. */
    public void join() {
        users.incrementAndGet();
    }

    /** A communicator stopped using the transports. */
    public void leave() {
        users.decrementAndGet();
    }

    /** Re-offers paused frames on every one of {@code transports}, taking turns with the other communicators. */
    public void resumeAll(Transport[] transports) {
        lock.lock();
        try {
            for (Transport t : transports) {
                t.resume();
            }
        } finally {
            lock.unlock();
        }
    }

    void lock() {
        lock.lock();
    }

    boolean tryLock() {
        return lock.tryLock();
    }

    /** Takes the lock if it is free within {@code ns}; false otherwise (or when interrupted). */
    boolean tryLock(long ns) {
        try {
            return lock.tryLock(ns, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void unlock() {
        lock.unlock();
    }

    /** The longest a sleep inside a transport may last, given that the caller asked for {@code maxNs}. */
    long awaitSlice(long maxNs) {
        return users.get() > 1 ? Math.min(maxNs, SHARED_AWAIT_NS) : maxNs;
    }

    /** Pauses a thread that found the lock taken, up to {@code maxNs}. */
    static void pauseBusy(long maxNs) {
        LockSupport.parkNanos(Math.min(maxNs, BUSY_PAUSE_NS));
    }
}
