package io.railcoll.bootstrap;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts every connection a listener refused or dropped, and logs them at a rate limit: the first
 * {@link #LOGGED_IN_FULL} refusals one line each (a stranger or two is worth seeing, and the first usually explains a
 * problem), then at most one line per interval with how many followed and the latest reason, so a flood of strangers
 * costs a few lines, not one per connection.
 *
 * <p>Thread-safe; {@link #refused} may be called from any thread.
 */
public final class Refusals {
    /** The default interval between two log lines. */
    public static final long DEFAULT_INTERVAL_NS = 1_000_000_000L;
    /** Refusals logged one line each before the rate limit starts. */
    public static final int LOGGED_IN_FULL = 10;

    private final String who;
    private final PrintStream log;
    private final long intervalNs;
    private final AtomicLong total = new AtomicLong();
    private long unreported;
    private long lastLineNs;
    private long lines;
    private String latest;

    public Refusals(String who, PrintStream log, long intervalNs) {
        this.who = who;
        this.log = log;
        this.intervalNs = intervalNs;
    }

    public Refusals(String who, PrintStream log) {
        this(who, log, DEFAULT_INTERVAL_NS);
    }

    /** Counts one refusal with its reason, logging it if the rate limit allows. */
    public void refused(String reason, long nowNs) {
        total.incrementAndGet();
        synchronized (this) {
            latest = reason;
            if (lines < LOGGED_IN_FULL) {
                log.println(who + ": " + reason);
                lines++;
                lastLineNs = nowNs;
                return;
            }
            unreported++;
            if (nowNs - lastLineNs >= intervalNs) {
                summary(nowNs);
            }
        }
    }

    /** Logs what the rate limit held back (called when the listener closes). */
    public synchronized void flush(long nowNs) {
        if (unreported > 0) {
            summary(nowNs);
        }
    }

    private void summary(long nowNs) {
        log.println(who + ": refused " + unreported + " more connection" + (unreported == 1 ? "" : "s") + " ("
                + total.get() + " in all); latest: " + latest);
        lines++;
        unreported = 0;
        lastLineNs = nowNs;
    }

    /** Lines written so far. */
    public synchronized long lines() {
        return lines;
    }

    /** Every refusal counted so far. */
    public long total() {
        return total.get();
    }
}
