package io.railcoll.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's processor time and context switches so far, from {@code /proc/stat} (Linux): what
 * {@link CallCostApp} subtracts to say what a collective call costs the machine, every process and every kernel
 * thread included. Times are in clock ticks of {@link #TICK_NS} (USER_HZ, 100 per second on Linux). Immutable.
 *
 * @param busyTicks  user, nice, system, irq, softirq and steal time, summed over processors
 * @param totalTicks the same plus idle and iowait
 * @param contextSwitches context switches since boot
 */
public record ProcStat(long busyTicks, long totalTicks, long contextSwitches) {
    /** Length of one tick of {@code /proc/stat}: USER_HZ is 100 on every Linux architecture that matters here. */
    public static final long TICK_NS = 10_000_000L;

    /** The counters now. */
    public static ProcStat read() {
        try {
            return parse(Files.readString(Path.of("/proc/stat")));
        } catch (IOException e) {
            throw new UncheckedIOException("reading /proc/stat", e);
        }
    }

    /** Parses the text of {@code /proc/stat}: its aggregate {@code cpu} line and its {@code ctxt} line. */
    static ProcStat parse(String text) {
        long busy = -1;
        long total = -1;
        long ctxt = -1;
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("cpu")) {
                // user nice system idle iowait irq softirq steal [guest guest_nice: already counted in user/nice]
                long[] v = new long[8];
                for (int i = 0; i < v.length && i + 1 < f.length; i++) {
                    v[i] = Long.parseLong(f[i + 1]);
                }
                busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
                total = busy + v[3] + v[4];
            } else if (f[0].equals("ctxt")) {
                ctxt = Long.parseLong(f[1]);
            }
        }
        if (busy < 0 || ctxt < 0) {
            throw new IllegalArgumentException("/proc/stat has no aggregate cpu line or no ctxt line");
        }
        return new ProcStat(busy, total, ctxt);
    }

    /** What happened between {@code earlier} and this reading. */
    public ProcStat since(ProcStat earlier) {
        return new ProcStat(busyTicks - earlier.busyTicks, totalTicks - earlier.totalTicks,
                contextSwitches - earlier.contextSwitches);
    }

    /** Share of the processors' time that was busy, 0..1 (NaN if no time passed). */
    public double busyShare() {
        return totalTicks == 0 ? Double.NaN : busyTicks / (double) totalTicks;
    }
}
