package io.railcoll.transport;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Where the owner thread sleeps while transports with progress threads of their own work, and how they wake it.
 * The default parks the owner thread; a node's shared-memory doorbell can stand in, so shared-memory senders in
 * other processes and rail threads in this one wake the owner through the same futex.
 */
public interface Blocker {

    /**
     * Sleeps up to {@code maxNs} or until {@link #wake} (spurious returns allowed). Owner thread only.
     * {@code ready} is checked after the owner announced it sleeps and before it does: a wake that came before
     * the announcement is not lost.
     */
    void block(long maxNs, BooleanSupplier ready);

    /** Wakes the owner if it sleeps; any thread. */
    void wake();

    /**
     * Parks the thread that blocks in it last; {@link #wake} unparks that one. The thread is recorded at each block,
     * not at creation: a communicator may be called by another thread than the one that built it (decision 0042).
     */
    static Blocker parkOwner() {
        return new Blocker() {
            private volatile Thread owner = Thread.currentThread();

            @Override
            public void block(long maxNs, BooleanSupplier ready) {
                owner = Thread.currentThread();
                if (ready.getAsBoolean()) {
                    return;
                }
                // An unpark before the park leaves a permit, so no wake is lost without a re-check.
                LockSupport.parkNanos(this, maxNs);
            }

            @Override
            public void wake() {
                LockSupport.unpark(owner);
            }
        };
    }
}
