package io.railcoll.bootstrap;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * PMI-1 over {@code PMI_FD}: a socket the process manager passed down as an inherited file descriptor. The JDK
 * cannot wrap a descriptor number in a stream, so this calls libc's {@code poll}, {@code read}, {@code write} and
 * {@code close} through the FFM API.
 */
final class FdLineChannel extends BufferedLineChannel {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout ERRNO = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO_VALUE = ERRNO.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");
    // Each takes the errno capture segment as its first argument.
    private static final MethodHandle POLL = libc("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle READ = libc("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle WRITE = libc("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LINKER.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final short POLLIN = 1;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;

    private final int fd;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer = arena.allocate(4096);
    private final MemorySegment pollFd = arena.allocate(8, 4);
    private final MemorySegment errno = arena.allocate(ERRNO);

    FdLineChannel(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("PMI_FD=" + fd + " is not a file descriptor");
        }
        this.fd = fd;
    }

    private static MethodHandle libc(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, CAPTURE);
    }

    @Override
    protected int readSome(byte[] into, int timeoutMs) throws IOException {
        pollFd.set(JAVA_INT, 0, fd);
        pollFd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
        pollFd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
        int ready;
        try {
            ready = (int) POLL.invokeExact(errno, pollFd, 1L, timeoutMs);
        } catch (Throwable t) {
            throw new IOException("poll failed", t);
        }
        if (ready < 0) {
            return interrupted("poll");
        }
        if (ready == 0) {
            return 0;
        }
        long n;
        try {
            n = (long) READ.invokeExact(errno, fd, buffer, (long) Math.min(into.length, buffer.byteSize()));
        } catch (Throwable t) {
            throw new IOException("read failed", t);
        }
        if (n < 0) {
            return interrupted("read");
        }
        if (n == 0) {
            return -1;
        }
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, into, 0, (int) n);
        return (int) n;
    }

    private int interrupted(String call) throws IOException {
        int e = (int) ERRNO_VALUE.get(errno, 0L);
        if (e == EINTR || e == EAGAIN) {
            return 0;
        }
        throw new IOException(describe() + ": " + call + " failed with errno " + e);
    }

    @Override
    protected void writeAll(byte[] bytes) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(bytes.length);
            MemorySegment.copy(bytes, 0, out, ValueLayout.JAVA_BYTE, 0, bytes.length);
            long done = 0;
            while (done < bytes.length) {
                long n;
                try {
                    n = (long) WRITE.invokeExact(errno, fd, out.asSlice(done), (long) bytes.length - done);
                } catch (Throwable t) {
                    throw new IOException("write failed", t);
                }
                if (n < 0) {
                    interrupted("write");
                } else {
                    done += n;
                }
            }
        }
    }

    @Override
    public String describe() {
        return "PMI_FD=" + fd;
    }

    @Override
    public void close() {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable ignored) {
            // the descriptor was the process manager's; nothing else to release
        }
        arena.close();
    }
}
