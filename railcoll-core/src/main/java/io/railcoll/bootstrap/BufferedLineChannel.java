package io.railcoll.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Splits what a byte channel delivers into lines, keeping bytes that arrived past a line for the next call. */
abstract class BufferedLineChannel implements LineChannel {
    private static final int MAX_LINE = 64 * 1024;
    private final byte[] chunk = new byte[4096];
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    /** Reads what is there, waiting at most {@code timeoutMs}: the count, 0 when nothing came, -1 at end of stream. */
    protected abstract int readSome(byte[] into, int timeoutMs) throws IOException;

    protected abstract void writeAll(byte[] bytes) throws IOException;

    @Override
    public final void write(String line) throws IOException {
        writeAll(line.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public final String readLine(long deadlineNs) throws IOException {
        while (true) {
            byte[] have = pending.toByteArray();
            for (int i = 0; i < have.length; i++) {
                if (have[i] == '\n') {
                    pending.reset();
                    pending.write(have, i + 1, have.length - i - 1);
                    return new String(have, 0, i, StandardCharsets.UTF_8);
                }
            }
            if (have.length > MAX_LINE) {
                throw new IOException(describe() + ": a line longer than " + MAX_LINE + " bytes; not a PMI server");
            }
            long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0) {
                throw new SocketTimeoutException(describe() + ": no reply in time");
            }
            int n = readSome(chunk, (int) Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(leftNs))));
            if (n < 0) {
                throw new EOFException(describe() + ": the process manager closed the connection");
            }
            pending.write(chunk, 0, n);
        }
    }
}
