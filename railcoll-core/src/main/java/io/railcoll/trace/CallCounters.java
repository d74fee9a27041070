package io.railcoll.trace;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Process-wide event counters for the latency breakdown ({@code docs/latency-breakdown.md}): how many frames, bytes,
 * ACKs, selector returns, futex calls, doorbell rings and node steps a rank's calls cost. A reader takes a
 * {@link #snapshot} before and after a run of calls and divides the difference by the calls.
 *
 * <p>Off by default: {@link #ON} is {@code -Drailcoll.counters=true}, read once; hooks are written
 * {@code if (CallCounters.ON) CallCounters.add(...)}, which the JIT folds away when off. When on, each event costs an
 * atomic add. Any thread.
 */
public final class CallCounters {
    /** Whether counting is on for this JVM ({@code -Drailcoll.counters=true}). */
    public static final boolean ON = Boolean.getBoolean("railcoll.counters");
    /** Rails counted apart; events on higher rails are counted on the last. */
    public static final int RAILS = 8;

    /** What is counted. Rail events are counted per rail, the others on rail 0. */
    public enum Event {
        /** A DATA frame written completely to a rail socket (per rail). */
        RAIL_DATA_SENT(true),
        /** A DATA frame whose payload was completely read from a rail socket (per rail). */
        RAIL_DATA_RECEIVED(true),
        /** A stand-alone ACK frame written (acknowledgement or heartbeat) (per rail). */
        RAIL_ACK_SENT(true),
        /** A stand-alone ACK frame read (per rail). */
        RAIL_ACK_RECEIVED(true),
        /** An acknowledgement count carried in the header of a DATA frame written (per rail). */
        RAIL_ACK_PIGGYBACKED(true),
        /** Bytes written to a rail socket, headers included (per rail). */
        RAIL_BYTES_SENT(true),
        /** Bytes read from a rail socket, headers included (per rail). */
        RAIL_BYTES_RECEIVED(true),
        /** Socket write calls on a rail (per rail). */
        RAIL_WRITE_CALLS(true),
        /** Socket read calls on a rail, those that found nothing included (per rail). */
        RAIL_READ_CALLS(true),
        /** A blocking {@code select} with a time-out returned. */
        SELECT_BLOCKING,
        /** A non-blocking {@code selectNow} ran. */
        SELECT_NOW,
        /** {@code Selector.wakeup()} was called to wake a sleeping rail driver. */
        SELECTOR_WAKEUP,
        /** A thread went to sleep on a futex (the call returned: woken, timed out or the value had changed). */
        FUTEX_WAIT,
        /** A futex wake system call. */
        FUTEX_WAKE,
        /** A doorbell ring that found a sleeper (and so made a futex wake). */
        DOORBELL_RING_WAKE,
        /** A doorbell ring that found nobody asleep (a fence and a load). */
        DOORBELL_RING_QUIET,
        /** A put handed from the owner thread to a rail thread (threaded engine) or to a driver queue. */
        HANDOFF,
        /** A node-step op (node buffer write or read, flag raise, flag wait passed) run by the engine. */
        NODE_STEP_OP,
        /** The engine's wait went to sleep (selector, futex or blocker). */
        ENGINE_SLEEP,
        /** Microseconds the engine's waits slept, in all. */
        ENGINE_SLEEP_US,
        /**
         * A sleep where what the wait awaits cannot wake it: in another transport than the one that carries the
         * awaited receive, or, awaiting only the delivery of its sends (or a node step), in a transport chosen by
         * order. It ends at its time slice unless its own transport has news. Counted on "rail" 0 when a receive
         * was awaited, on 1 when only deliveries (or a node step) were.
         */
        ENGINE_SLEEP_ASTRAY(true),
        /** Microseconds slept by {@link #ENGINE_SLEEP_ASTRAY} sleeps ("rails" as there). */
        ENGINE_SLEEP_ASTRAY_US(true),
        /** The engine's wait yielded the processor. */
        ENGINE_YIELD,
        /** A frame sent over shared memory. */
        SHM_FRAME_SENT,
        /** A frame received over shared memory. */
        SHM_FRAME_RECEIVED;

        final boolean perRail;

        Event() {
            this(false);
        }

        Event(boolean perRail) {
            this.perRail = perRail;
        }

        public boolean perRail() {
            return perRail;
        }
    }

    private static final Event[] EVENTS = Event.values();
    private static final AtomicLongArray COUNTS = new AtomicLongArray(EVENTS.length * RAILS);

    private CallCounters() {
    }

    /** Counts one {@code e} (not per rail). */
    public static void add(Event e) {
        COUNTS.getAndIncrement(e.ordinal() * RAILS);
    }

    /** Counts {@code n} of {@code e} on {@code rail}. */
    public static void add(Event e, int rail, long n) {
        COUNTS.getAndAdd(e.ordinal() * RAILS + Math.min(Math.max(rail, 0), RAILS - 1), n);
    }

    /** Every count now: index {@code event.ordinal() * RAILS + rail}. */
    public static long[] snapshot() {
        long[] s = new long[COUNTS.length()];
        for (int i = 0; i < s.length; i++) {
            s[i] = COUNTS.get(i);
        }
        return s;
    }

    /** The count of {@code e} on {@code rail} in a {@link #snapshot}. */
    public static long get(long[] snapshot, Event e, int rail) {
        return snapshot[e.ordinal() * RAILS + rail];
    }

    /** The count of {@code e} over every rail in a {@link #snapshot}. */
    public static long total(long[] snapshot, Event e) {
        long sum = 0;
        for (int r = 0; r < RAILS; r++) {
            sum += snapshot[e.ordinal() * RAILS + r];
        }
        return sum;
    }

    /** Every event, in declaration order. */
    public static Event[] events() {
        return EVENTS.clone();
    }
}
