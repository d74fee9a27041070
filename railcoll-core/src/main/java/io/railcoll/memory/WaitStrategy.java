package io.railcoll.memory;

/**
 * How a rank waits when it has nothing to do: spin a little, then yield, then sleep on its
 * doorbell. Immutable configuration; an {@link Idler} carries the per-thread state.
 *
 * <p>Spinning pays only when the event is a few microseconds away and the peer has a core of its
 * own; when ranks outnumber cores the spinner steals the very core the peer needs, so
 * {@link #forRanks} drops spinning in that case. Yielding hands the core over without a
 * syscall-level sleep. Sleeping uses a futex with a bounded timeout so that deadlines and peer
 * liveness are re-checked at least every {@code parkTimeoutNs}.
 *
 * @param spins {@code Thread.onSpinWait()} rounds before yielding, {@code >= 0}
 * @param yields {@code Thread.yield()} rounds before sleeping, {@code >= 0}
 * @param parkTimeoutNs longest single futex sleep, {@code > 0}; a sleeping rank wakes at least
 *        this often to re-check its condition, its deadline and its peers
 */
public record WaitStrategy(int spins, int yields, long parkTimeoutNs) {
    /** Spins ~ a few microseconds, a few yields, sleeps of at most 10 ms. */
    public static final WaitStrategy DEFAULT = new WaitStrategy(100, 10, 10_000_000L);

    public WaitStrategy {
        if (spins < 0 || yields < 0 || parkTimeoutNs <= 0) {
            throw new IllegalArgumentException("wait strategy needs spins >= 0, yields >= 0, parkTimeoutNs > 0; got "
                    + spins + ", " + yields + ", " + parkTimeoutNs);
        }
    }

    /**
     * The default, without spinning when {@code ranksOnNode} exceed this machine's processors
     * (spinning then only delays the peer we wait for).
     */
    public static WaitStrategy forRanks(int ranksOnNode) {
        return ranksOnNode > Runtime.getRuntime().availableProcessors()
                ? new WaitStrategy(0, DEFAULT.yields(), DEFAULT.parkTimeoutNs())
                : DEFAULT;
    }
}
