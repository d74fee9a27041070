package io.railcoll.transport.shm;

import java.util.Optional;

/**
 * Process identity for liveness checks: a pid plus its start time, so that a recycled pid is not
 * mistaken for the process that wrote it. Stateless and thread-safe.
 */
final class Processes {
    /** Start times come from /proc in clock ticks; two readings of one process agree within this. */
    private static final long START_TOLERANCE_MILLIS = 1000;

    private Processes() {
    }

    static long currentPid() {
        return ProcessHandle.current().pid();
    }

    /** This process's start time in epoch milliseconds, or 0 if the platform does not say. */
    static long currentStartMillis() {
        return startMillis(ProcessHandle.current());
    }

    static long startMillis(ProcessHandle handle) {
        return handle.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
    }

    /**
     * The live process with this pid and (if {@code startMillis != 0}) this start time. The handle's
     * own {@link ProcessHandle#isAlive} also compares start times, so it stays correct under pid reuse.
     */
    static Optional<ProcessHandle> find(long pid, long startMillis) {
        if (pid <= 0) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> {
            long start = startMillis(h);
            return startMillis == 0 || start == 0 || Math.abs(start - startMillis) <= START_TOLERANCE_MILLIS;
        });
    }

    /**
     * The start time of {@code pid} in clock ticks since boot (field 22 of {@code /proc/pid/stat}), or -1 when the
     * process is gone or a zombie. Unlike {@link ProcessHandle#isAlive}, which recomputes a wall-clock start time
     * and compares it exactly (and was seen here to call live processes dead under load), this is an integer the
     * kernel never changes for a process.
     */
    static long startTicks(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            if (f[0].equals("Z") || f[0].equals("X")) {
                return -1;
            }
            return Long.parseLong(f[19]);
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    static boolean isAlive(long pid, long startMillis) {
        return find(pid, startMillis).isPresent();
    }
}
