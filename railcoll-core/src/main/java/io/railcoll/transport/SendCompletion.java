package io.railcoll.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts frames handed to a transport that the transport may still need to read from the caller's buffer. The
 * engine waits for zero before a collective returns, so the caller may then reuse its buffers. Shared memory
 * counts a frame done when it has left the buffer; the TCP rails only when the receiver acknowledged it, because
 * until then a rail failure may make them send it again (docs/rails.md). Safe to decrement from a progress thread
 * while the owner reads it.
 */
public final class SendCompletion {
    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(SendCompletion.class, "pending", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through PENDING
    private volatile long pending;

    public void add(long frames) {
        PENDING.getAndAdd(this, frames);
    }

    public void done() {
        PENDING.getAndAdd(this, -1L);
    }

    public long pending() {
        return (long) PENDING.getAcquire(this);
    }

    public void reset() {
        PENDING.setRelease(this, 0L);
    }
}
