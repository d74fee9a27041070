package io.railcoll.transport.tcp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The receive side of one connection (lane) from one peer: how many DATA frames arrived on it completely, and
 * whether it is closed. A frame is delivered to the engine only after {@link #tryAdvance} succeeds, and a lane is
 * closed exactly once, after which its count is final; so a re-sent copy of a frame whose origin is this lane can
 * be judged without a race: it is a duplicate exactly when its index is below the final count.
 *
 * <p>Threading: {@link #tryAdvance} by the lane's driver thread only; {@link #close} and {@link #finalCount} by any
 * thread. One compare-and-set per frame, no lock.
 */
final class DeliveryGate {
    /** >= 0: frames completed, still open; < 0: closed with {@code -(state + 1)} frames completed. */
    private final AtomicLong state = new AtomicLong();

    /** Counts the frame at {@code position} as complete; false when the lane was closed first (drop the frame). */
    boolean tryAdvance(long position) {
        return state.compareAndSet(position, position + 1);
    }

    /** Frames completed so far (final once closed). */
    long count() {
        long s = state.get();
        return s >= 0 ? s : -(s + 1);
    }

    boolean isClosed() {
        return state.get() < 0;
    }

    /** Closes the gate (idempotent) and returns the final count. */
    long close() {
        for (;;) {
            long s = state.get();
            if (s < 0) {
                return -(s + 1);
            }
            if (state.compareAndSet(s, -(s + 1))) {
                return s;
            }
        }
    }
}
