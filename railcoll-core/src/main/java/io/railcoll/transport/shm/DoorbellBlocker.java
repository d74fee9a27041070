package io.railcoll.transport.shm;

import io.railcoll.transport.Blocker;
import io.railcoll.memory.Doorbell;

import java.util.function.BooleanSupplier;

/**
 * The owner sleeps on its node doorbell: shared-memory senders of other processes and progress threads of this
 * one wake it through the same futex. Owner thread blocks; any thread wakes.
 */
public final class DoorbellBlocker implements Blocker {
    private final Doorbell doorbell;

    public DoorbellBlocker(Doorbell doorbell) {
        this.doorbell = doorbell;
    }

    @Override
    public void block(long maxNs, BooleanSupplier ready) {
        int key = doorbell.arm();
        try {
            if (ready.getAsBoolean()) {
                return;
            }
            doorbell.await(key, maxNs);
        } finally {
            doorbell.disarm();
        }
    }

    @Override
    public void wake() {
        doorbell.ring();
    }
}
