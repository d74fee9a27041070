package io.railcoll.bench.report;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long this machine takes to wake a sleeping thread and be woken back: two threads hand a token back and forth
 * with park/unpark, so every hand-off is a real wake-up (a futex) on whichever cores the scheduler gives them. Small
 * collectives with more ranks than cores are chains of such wake-ups, so their times scale with this figure; on a
 * shared virtual machine it varies several-fold over minutes while plain computation does not, and a report that
 * states it lets a reader tell a slower machine from a slower library.
 *
 * <p>Threading: {@link #measure} starts and joins its own two threads.
 */
public final class WakeUpProbe {
    private static final int BATCHES = 5;
    private static final int ROUND_TRIPS_PER_BATCH = 300;

    private volatile int turn;

    private WakeUpProbe() {
    }

    /** The median over a few batches of the mean round trip (two wake-ups), in microseconds; NaN if interrupted. */
    public static double measure() {
        double[] batches = new double[BATCHES];
        for (int b = 0; b < BATCHES; b++) {
            double us = new WakeUpProbe().batch();
            if (Double.isNaN(us)) {
                return Double.NaN;
            }
            batches[b] = us;
        }
        Arrays.sort(batches);
        return batches[BATCHES / 2];
    }

    private double batch() {
        Thread main = Thread.currentThread();
        Thread echo = Thread.ofPlatform().daemon().name("railcoll-wakeup-probe").start(() -> {
            for (int i = 0; i < ROUND_TRIPS_PER_BATCH; i++) {
                while (turn != 1) {
                    LockSupport.park(this);
                }
                turn = 0;
                LockSupport.unpark(main);
            }
        });
        long start = System.nanoTime();
        for (int i = 0; i < ROUND_TRIPS_PER_BATCH; i++) {
            turn = 1;
            LockSupport.unpark(echo);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (turn != 0) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(10));
                if (System.nanoTime() - deadline > 0) {
                    echo.interrupt();
                    return Double.NaN; // the echo thread never answered: no figure rather than a wrong one
                }
            }
        }
        long elapsed = System.nanoTime() - start;
        try {
            echo.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
        return elapsed / 1e3 / ROUND_TRIPS_PER_BATCH;
    }
}
