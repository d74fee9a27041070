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
 * <p>Why the yield phase is a time budget, not a count: a futex wake-up of a rank whose core went
 * idle costs tens of microseconds on a virtual machine (the halted vCPU must be woken by an
 * interrupt through the hypervisor; 12-35 us one way here). A waiter that gives up sooner than
 * that sleeps whenever its peer was itself just woken, which makes the peer sleep in turn: two
 * ranks on two cores settled into 16-17 us per 1-byte all-gather instead of 0.8 us, for whole
 * samples at a time. Yielding for longer than a wake-up breaks that cycle. When ranks outnumber
 * cores, yielding is also what hands the core to the node-mate being waited for: 1-byte node
 * all-gather with 16 ranks, 42-47 us with 10 yields, 26-29 us with 200.
 *
 * @param spins {@code Thread.onSpinWait()} rounds before yielding, {@code >= 0}
 * @param yieldBudgetNs how long to keep yielding ({@code Thread.yield()}) after spinning before
 *        sleeping, {@code >= 0}
 * @param parkTimeoutNs longest single futex sleep, {@code > 0}; a sleeping rank wakes at least
 *        this often to re-check its condition, its deadline and its peers
 */
public record WaitStrategy(int spins, long yieldBudgetNs, long parkTimeoutNs) {
    /** Spins ~ a few microseconds, yields for 100 us, sleeps of at most 10 ms. */
    public static final WaitStrategy DEFAULT = new WaitStrategy(100, 100_000L, 10_000_000L);
    /** Ranks outnumber cores: no spinning, yields for 300 us (the engine's budget), sleeps of at most 10 ms. */
    public static final WaitStrategy OVERSUBSCRIBED = new WaitStrategy(0, 300_000L, 10_000_000L);

    public WaitStrategy {
        if (spins < 0 || yieldBudgetNs < 0 || parkTimeoutNs <= 0) {
            throw new IllegalArgumentException("wait strategy needs spins >= 0, yieldBudgetNs >= 0, parkTimeoutNs > 0;"
                    + " got " + spins + ", " + yieldBudgetNs + ", " + parkTimeoutNs);
        }
    }

    /**
     * The default, without spinning when {@code ranksOnNode} exceed this machine's processors
     * (spinning then only delays the peer we wait for).
     */
    public static WaitStrategy forRanks(int ranksOnNode) {
        return NodeCpus.outnumbered(ranksOnNode) ? OVERSUBSCRIBED : DEFAULT;
    }
}
