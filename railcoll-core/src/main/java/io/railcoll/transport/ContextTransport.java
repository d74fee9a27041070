package io.railcoll.transport;

import java.lang.foreign.MemorySegment;

/**
 * One communicator's view of one of the rank's transports: its ranks are the communicator's (0..n-1), translated to
 * the job's ranks the transport knows; every frame it puts carries the communicator's context; and every call but
 * {@link #abortAll} goes through the rank's {@link SharedDriver}, so that communicators used by different threads at
 * once take turns at the transport. Incoming frames are not this class's business: the transport hands them to the
 * rank's router, which finds the communicator by the frame's context (decision 0070).
 *
 * <p>Threading: the communicator's calling thread, as for any transport. Lifetime: closing it releases nothing (the
 * world communicator owns the transport and closes it).
 */
public final class ContextTransport implements Transport {
    private final Transport inner;
    private final long context;
    /** The job rank of each of the communicator's ranks. */
    private final int[] worldRanks;
    private final SharedDriver driver;
    /** Hands the communicator frames read ahead of their call, after a resume (the router's replay). */
    private final Runnable afterResume;

    /**
     * @param afterResume run after every {@link #resume}: the engine resumes its transports when it posts a call,
     *                    which is when frames of that call read early can be handed to it
     */
    public ContextTransport(Transport inner, long context, int[] worldRanks, SharedDriver driver, Runnable afterResume) {
        this.inner = inner;
        this.context = context;
        this.worldRanks = worldRanks.clone();
        this.driver = driver;
        this.afterResume = afterResume;
    }

    /** The transport this view puts through. */
    public Transport inner() {
        return inner;
    }

    @Override
    public boolean reaches(int peer) {
        return inner.reaches(worldRanks[peer]);
    }

    @Override
    public void put(int peer, FrameHeader meta, MemorySegment src, long offset, long length, SendCompletion completion) {
        meta.context = context;
        driver.lock();
        try {
            inner.put(worldRanks[peer], meta, src, offset, length, completion);
        } finally {
            driver.unlock();
        }
    }

    @Override
    public int poll() {
        if (!driver.tryLock()) {
            return 0; // another communicator's thread is driving it, and delivers our frames meanwhile
        }
        try {
            return inner.poll();
        } finally {
            driver.unlock();
        }
    }

    @Override
    public void await(long maxWaitNs) {
        if (!driver.tryLock()) {
            SharedDriver.pauseBusy(maxWaitNs);
            return;
        }
        try {
            inner.await(driver.awaitSlice(maxWaitNs));
        } finally {
            driver.unlock();
        }
    }

    @Override
    public boolean drivenByCaller() {
        return inner.drivenByCaller();
    }

    @Override
    public boolean railBased() {
        return inner.railBased();
    }

    @Override
    public int connectionsTo(int peer) {
        return inner.connectionsTo(worldRanks[peer]);
    }

    @Override
    public String inFlightWith(int peer) {
        return inner.inFlightWith(worldRanks[peer]);
    }

    @Override
    public String silentPeers() {
        return inner.silentPeers();
    }

    @Override
    public boolean hasPendingOutput() {
        if (!driver.tryLock()) {
            return false; // the thread that holds it drives the output
        }
        try {
            return inner.hasPendingOutput();
        } finally {
            driver.unlock();
        }
    }

    @Override
    public void resume() {
        driver.lock();
        try {
            inner.resume();
        } finally {
            driver.unlock();
        }
        afterResume.run();
    }

    @Override
    public void abortAll(String reason) {
        if (inner.railBased()) {
            // The rails take an ABORT from any thread; a rail progress thread that found a mismatch must not wait
            // for a caller's put that may itself wait for that thread.
            inner.abortAll(reason);
            return;
        }
        // Shared memory writes the ABORT into the same rings as puts: take turns, but never wait long for it (the
        // ABORT is best effort, and the rank is failing anyway).
        boolean locked = driver.tryLock(SharedDriver.ABORT_LOCK_NS);
        try {
            inner.abortAll(reason);
        } finally {
            if (locked) {
                driver.unlock();
            }
        }
    }

    @Override
    public RailCounters counters() {
        return inner.counters();
    }

    @Override
    public void close() {
        // The world communicator closes the transport itself.
    }

    @Override
    public String toString() {
        return inner.toString();
    }
}
