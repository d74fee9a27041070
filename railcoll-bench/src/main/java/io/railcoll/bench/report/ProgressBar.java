package io.railcoll.bench.report;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A progress bar for a sweep of a known number of steps.
 *
 * <p>On a terminal it redraws one line in place with {@code \r}:
 * {@code sweep [#######.................] 12/40  30%  0:12 elapsed, 0:28 left  allgather.bruck 4K}.
 * When output goes to a file or a CI log, {@code \r} would pile up into one unreadable line, so it prints
 * a plain line at every tenth of the work or after {@link #LINE_INTERVAL_NS} without one, whichever
 * comes first, and a last line at {@link #finish}.
 *
 * <p>Time comes from the supplier passed in, so tests need no sleeping. One thread calls it.
 */
public final class ProgressBar {
    static final long LINE_INTERVAL_NS = 30_000_000_000L;
    private static final int BAR_WIDTH = 24;

    private final PrintStream out;
    private final boolean terminal;
    private final String label;
    private final int total;
    private final LongSupplier nanoTime;
    private final long startNs;
    private int done;
    private int lastTenth;
    private long lastLineNs;
    private int drawnWidth;
    private boolean finished;

    public ProgressBar(PrintStream out, boolean terminal, String label, int total, LongSupplier nanoTime) {
        if (total < 1) {
            throw new IllegalArgumentException("a progress bar needs at least one step, got " + total);
        }
        this.out = out;
        this.terminal = terminal;
        this.label = label;
        this.total = total;
        this.nanoTime = nanoTime;
        this.startNs = nanoTime.getAsLong();
        this.lastLineNs = startNs;
    }

    /** A bar on standard output that draws in place only when standard output is a terminal. */
    public static ProgressBar forStdout(String label, int total) {
        return new ProgressBar(System.out, isTerminal(), label, total, System::nanoTime);
    }

    /**
     * Since JDK 22 {@code System.console()} can be non-null with output redirected, so the console's own
     * {@code isTerminal()} decides; {@code null} (no console at all) means no terminal either.
     */
    static boolean isTerminal() {
        Console console = System.console();
        return console != null && console.isTerminal();
    }

    /** Records one finished step; {@code detail} names what just ran (shown on the line). */
    public void step(String detail) {
        if (finished) {
            throw new IllegalStateException("progress bar '" + label + "' already finished");
        }
        done = Math.min(total, done + 1);
        long now = nanoTime.getAsLong();
        if (terminal) {
            redraw(line(now, detail));
            return;
        }
        int tenth = done * 10 / total;
        if (tenth > lastTenth || now - lastLineNs >= LINE_INTERVAL_NS) {
            lastTenth = tenth;
            lastLineNs = now;
            out.println(line(now, detail));
        }
    }

    /** Ends the bar: on a terminal the line is completed with a newline; in a log a final line is printed. */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        long now = nanoTime.getAsLong();
        String line = label + ": " + done + "/" + total + " steps in " + clock(now - startNs);
        if (terminal) {
            redraw(line);
            out.println();
        } else {
            out.println(line);
        }
        out.flush();
    }

    private void redraw(String line) {
        // Pad over the previous, possibly longer, line instead of relying on terminal escape codes.
        int pad = Math.max(0, drawnWidth - line.length());
        out.print("\r" + line + " ".repeat(pad));
        out.flush();
        drawnWidth = line.length();
    }

    private String line(long nowNs, String detail) {
        int filled = done * BAR_WIDTH / total;
        long elapsed = nowNs - startNs;
        String left = done == 0 ? "?" : clock(elapsed / done * (total - done));
        return String.format(Locale.ROOT, "%s [%s%s] %d/%d %3d%%  %s elapsed, %s left  %s", label, "#".repeat(filled),
                ".".repeat(BAR_WIDTH - filled), done, total, done * 100 / total, clock(elapsed), left, detail);
    }

    /** {@code m:ss}, or {@code h:mm:ss} past an hour. */
    static String clock(long ns) {
        long s = Math.max(0, ns / 1_000_000_000L);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
