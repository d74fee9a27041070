package io.railcoll.transport;

import java.util.concurrent.atomic.AtomicLongArray;

/** Bytes and frames sent and received per rail since the communicator started. Updated by progress code, read by anyone. */
public final class RailCounters {
    private final AtomicLongArray bytesSent;
    private final AtomicLongArray framesSent;
    private final AtomicLongArray bytesReceived;

    public RailCounters(int rails) {
        bytesSent = new AtomicLongArray(rails);
        framesSent = new AtomicLongArray(rails);
        bytesReceived = new AtomicLongArray(rails);
    }

    public int rails() {
        return bytesSent.length();
    }

    public void sent(int rail, long bytes) {
        bytesSent.getAndAdd(rail, bytes);
        framesSent.getAndIncrement(rail);
    }

    public void received(int rail, long bytes) {
        bytesReceived.getAndAdd(rail, bytes);
    }

    public long bytesSent(int rail) {
        return bytesSent.get(rail);
    }

    public long framesSent(int rail) {
        return framesSent.get(rail);
    }

    public long bytesReceived(int rail) {
        return bytesReceived.get(rail);
    }
}
