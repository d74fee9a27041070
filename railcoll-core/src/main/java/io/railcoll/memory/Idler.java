package io.railcoll.memory;

import java.util.Objects;

/**
 * The idle half of a wait loop: called each time a check finds nothing to do, it spins, then
 * yields, then sleeps on the owner's {@link Doorbell}, following a {@link WaitStrategy}.
 *
 * <pre>{@code
 * idler.reset();
 * try {
 *     while (!conditionHolds()) {      // acquire-reads of shared flags
 *         checkDeadline();
 *         idler.idle();
 *     }
 * } finally {
 *     idler.reset();                   // withdraws the sleeper announcement
 * }
 * }</pre>
 *
 * <p>When spinning and yielding are used up, the first {@link #idle} only arms the doorbell and
 * returns, so that the caller re-checks its condition <em>after</em> announcing itself (see the
 * doorbell's handshake); every later call sleeps on the key and re-reads a fresh one before
 * returning. Progress should be followed by {@link #reset}, which also disarms.
 *
 * <p>Threading: one thread at a time (it holds that thread's back-off state). Lifetime: as long
 * as its doorbell; cheap to keep per waiting thread.
 */
public final class Idler {
    private final Doorbell doorbell;
    private final WaitStrategy strategy;
    private int spins;
    /** When the yield phase began, or 0 before it. */
    private long yieldingSinceNs;
    private boolean armed;
    private int key;
    private long sleeps;

    public Idler(Doorbell doorbell, WaitStrategy strategy) {
        this.doorbell = Objects.requireNonNull(doorbell, "doorbell");
        this.strategy = Objects.requireNonNull(strategy, "strategy");
    }

    /** One idle step after a failed check. */
    public void idle() {
        if (spins < strategy.spins()) {
            spins++;
            Thread.onSpinWait();
        } else if (yieldingSinceNs == 0 || System.nanoTime() - yieldingSinceNs < strategy.yieldBudgetNs()) {
            if (yieldingSinceNs == 0) {
                yieldingSinceNs = System.nanoTime() | 1; // never 0 once started
            }
            Thread.yield();
        } else if (!armed) {
            key = doorbell.arm();
            armed = true;
        } else {
            sleeps++;
            doorbell.await(key, strategy.parkTimeoutNs());
            key = doorbell.sequence();
        }
    }

    /** Back to spinning, and withdraws a sleeper announcement: call after progress and when leaving a wait. */
    public void reset() {
        if (armed) {
            doorbell.disarm();
            armed = false;
        }
        spins = 0;
        yieldingSinceNs = 0;
    }

    /** Futex sleeps so far (diagnostics and benchmarks). */
    public long sleeps() {
        return sleeps;
    }

    public Doorbell doorbell() {
        return doorbell;
    }
}
