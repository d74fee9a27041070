package io.railcoll.engine;

/**
 * Work outside the compiled programs that the engine drives from its progress loop: a component (the multicast
 * broadcast) whose peers may need this rank while it waits inside any other collective, e.g. to re-send a datagram
 * of a broadcast it already returned from, or to relay a synchronization.
 *
 * <p>Threading: {@link #doWork} and {@link #awaitInput} run on the engine's owner thread; the component wakes a
 * sleeping owner through {@link CollectiveEngine#wake()} from any thread. Both calls must not allocate on the
 * steady path nor block longer than asked.
 */
public interface ProgressHook {

    /** One round of progress without blocking; returns the amount of work done (0 = idle). */
    int doWork();

    /** Sleeps up to {@code maxWaitNs} until the component's own input arrives (spurious returns allowed). */
    void awaitInput(long maxWaitNs);
}
