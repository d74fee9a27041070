package io.railcoll.transport.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The start ticks ({@link Processes#startTicks}) of the processes of a node's local ranks, read again and again
 * without allocating: a liveness check runs every few milliseconds of a wait, and reading {@code /proc/PID/stat} by
 * path made a path, a channel and strings each time (some 2 KiB, decision 0127). Each file is opened once, on first
 * use, and read from offset 0 each time (the kernel writes it anew for every read; once the process is gone a read
 * fails and the path is tried instead, which then says -1).
 *
 * <p>Thread-safe: one reader at a time (the checks are milliseconds apart). Closed with its region.
 */
final class StartTicksReader implements AutoCloseable {
    private final long[] pids;
    private final FileChannel[] channels;
    /** /proc/PID/stat is one line of a few hundred bytes; a longer one is parsed from what fits (field 22 does). */
    private final ByteBuffer buffer = ByteBuffer.allocate(4096);
    private boolean closed;

    StartTicksReader(long[] pids) {
        this.pids = pids;
        this.channels = new FileChannel[pids.length];
    }

    /** The start ticks of local rank {@code r}'s process, or -1 when it is gone or a zombie. */
    synchronized long startTicks(int r) {
        if (closed) {
            return Processes.startTicks(pids[r]);
        }
        try {
            FileChannel c = channels[r];
            if (c == null) {
                c = FileChannel.open(Path.of("/proc", Long.toString(pids[r]), "stat"));
                channels[r] = c;
            }
            buffer.clear();
            int n = 0;
            for (int k; buffer.hasRemaining() && (k = c.read(buffer, n)) > 0; ) {
                n += k;
            }
            return parse(buffer.array(), n);
        } catch (IOException | RuntimeException e) {
            return Processes.startTicks(pids[r]);
        }
    }

    /** Field 22 of a stat line, or -1 for a zombie or a line that does not parse (as {@link Processes#startTicks}). */
    static long parse(byte[] line, int length) {
        int close = -1;
        for (int i = length - 1; i >= 0; i--) {
            if (line[i] == ')') {
                close = i;
                break;
            }
        }
        // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
        int i = close + 2;
        if (close < 0 || i >= length || line[i] == 'Z' || line[i] == 'X') {
            return -1;
        }
        for (int spaces = 0; spaces < 19; i++) {
            if (i >= length) {
                return -1;
            }
            if (line[i] == ' ') {
                spaces++;
            }
        }
        long v = 0;
        int digits = 0;
        for (; i < length && line[i] >= '0' && line[i] <= '9'; i++, digits++) {
            v = v * 10 + (line[i] - '0');
        }
        return digits == 0 ? -1 : v;
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (int r = 0; r < channels.length; r++) {
            if (channels[r] != null) {
                try {
                    channels[r].close();
                } catch (IOException ignored) {
                    // a /proc file: nothing was written, nothing to lose
                }
                channels[r] = null;
            }
        }
    }
}
