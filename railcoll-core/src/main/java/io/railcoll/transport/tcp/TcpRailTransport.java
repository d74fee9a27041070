package io.railcoll.transport.tcp;

import io.railcoll.RailcollException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.RailCounters;
import io.railcoll.transport.SendCompletion;
import io.railcoll.transport.Transport;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The rails as a {@link Transport}, driven by the calling thread through one selector over every connection
 * (paper 004's non-threaded approach: no hand-off between threads on the path of a small message).
 *
 * <p>Striping policy: a put longer than the threshold is cut into one fragment per rail of (nearly) equal size,
 * each sent on its own rail and reassembled in place by the receiver from the fragment offsets; a shorter put
 * goes whole on the next rail in a round-robin shared by all peers, so the k puts of one k-port step leave on k
 * different rails.
 *
 * <p>Threading: one owner thread calls everything. Lifetime: built by {@link #start} from connected channels,
 * closed by its owner.
 */
public final class TcpRailTransport implements Transport {
    private final int rank;
    private final int rails;
    private final long stripeThresholdBytes;
    private final TcpConnection[][] connections;
    private final Selector selector;
    private final RailCounters counters;
    private final Consumer<SelectionKey> onReady = this::handle;
    private final FrameHeader fragmentHeader = new FrameHeader();
    private int nextRail;
    private int work;

    private TcpRailTransport(int rank, int rails, long stripeThresholdBytes, TcpConnection[][] connections,
                             Selector selector, RailCounters counters) {
        this.rank = rank;
        this.rails = rails;
        this.stripeThresholdBytes = stripeThresholdBytes;
        this.connections = connections;
        this.selector = selector;
        this.counters = counters;
    }

    /** Takes ownership of {@code channels[peer][rail]} (blocking, authenticated) and registers them. */
    public static TcpRailTransport start(int rank, SocketChannel[][] channels, int rails, long stripeThresholdBytes,
                                         FrameSink sink) throws IOException {
        Selector selector = Selector.open();
        RailCounters counters = new RailCounters(rails);
        TcpConnection[][] conns = new TcpConnection[channels.length][rails];
        for (int peer = 0; peer < channels.length; peer++) {
            for (int rail = 0; rail < rails; rail++) {
                SocketChannel ch = channels[peer][rail];
                if (ch == null) {
                    continue;
                }
                ch.configureBlocking(false);
                TcpConnection c = new TcpConnection(peer, rail, ch, sink, counters);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                conns[peer][rail] = c;
            }
        }
        return new TcpRailTransport(rank, rails, stripeThresholdBytes, conns, selector, counters);
    }

    public int rails() {
        return rails;
    }

    @Override
    public int connectionsTo(int peer) {
        return rails;
    }

    @Override
    public boolean reaches(int peer) {
        return peer != rank && connections[peer][0] != null;
    }

    @Override
    public void put(int peer, FrameHeader meta, MemorySegment src, long offset, long length, SendCompletion completion) {
        if (length > stripeThresholdBytes && rails > 1) {
            long chunk = (length + rails - 1) / rails;
            int frames = (int) ((length + chunk - 1) / chunk);
            completion.add(frames);
            for (int r = 0; r < frames; r++) {
                long fragOffset = r * chunk;
                long fragLength = Math.min(chunk, length - fragOffset);
                send(peer, r, meta, src, offset, length, fragOffset, fragLength, completion);
            }
        } else {
            completion.add(1);
            int rail = nextRail;
            nextRail = rail + 1 == rails ? 0 : rail + 1;
            send(peer, rail, meta, src, offset, length, 0, length, completion);
        }
    }

    private void send(int peer, int rail, FrameHeader meta, MemorySegment src, long offset, long putLength,
                      long fragOffset, long fragLength, SendCompletion completion) {
        TcpConnection c = connections[peer][rail];
        if (c == null || c.isClosed()) {
            throw new RailcollException("rank " + rank + ": rail " + rail + " to rank " + peer + " is closed");
        }
        if (fragLength > Integer.MAX_VALUE - FrameHeader.BYTES) {
            throw new IllegalArgumentException("fragment of " + fragLength + " bytes exceeds the frame limit; lower the stripe size");
        }
        FrameHeader h = fragmentHeader;
        h.copyFrom(meta);
        h.type = FrameHeader.DATA;
        h.sourceRank = rank;
        h.putLength = putLength;
        h.fragOffset = fragOffset;
        h.fragLength = (int) fragLength;
        ByteBuffer payload = fragLength == 0 ? null : src.asSlice(offset + fragOffset, fragLength).asByteBuffer();
        c.enqueue(h, payload, completion);
    }

    @Override
    public int poll() {
        work = 0;
        try {
            selector.selectNow(onReady);
        } catch (IOException e) {
            throw new RailcollException("rank " + rank + ": selector failed: " + e.getMessage(), e);
        }
        return work;
    }

    @Override
    public void await(long maxWaitNs) {
        long ms = TimeUnit.NANOSECONDS.toMillis(maxWaitNs);
        try {
            if (ms <= 0) {
                selector.selectNow(onReady);
            } else {
                selector.select(onReady, ms);
            }
        } catch (IOException e) {
            throw new RailcollException("rank " + rank + ": selector failed: " + e.getMessage(), e);
        }
    }

    private void handle(SelectionKey key) {
        TcpConnection c = (TcpConnection) key.attachment();
        if (!key.isValid()) {
            return;
        }
        if (key.isWritable()) {
            work += c.writeQueued();
            c.updateInterest();
        }
        if (key.isValid() && key.isReadable()) {
            work += c.readAvailable();
        }
    }

    @Override
    public boolean hasPendingOutput() {
        for (TcpConnection[] row : connections) {
            for (TcpConnection c : row) {
                if (c != null && c.hasOutput()) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public void resume() {
        for (TcpConnection[] row : connections) {
            for (TcpConnection c : row) {
                if (c != null && c.paused() && c.resume()) {
                    work += c.readAvailable();
                }
            }
        }
    }

    @Override
    public void abortAll(String reason) {
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 60_000) {
            bytes = java.util.Arrays.copyOf(bytes, 60_000);
        }
        MemorySegment msg = MemorySegment.ofArray(bytes);
        FrameHeader h = new FrameHeader();
        h.type = FrameHeader.ABORT;
        h.sourceRank = rank;
        h.fragLength = bytes.length;
        h.putLength = bytes.length;
        SendCompletion done = new SendCompletion();
        for (TcpConnection[] row : connections) {
            TcpConnection c = row[0];
            if (c != null && !c.isClosed()) {
                done.add(1);
                c.enqueue(h, msg.asByteBuffer(), done);
            }
        }
        drainOutput(done, TimeUnit.SECONDS.toNanos(2));
    }

    @Override
    public RailCounters counters() {
        return counters;
    }

    /** Writes queued output (best effort) until {@code done} reaches zero or the time is up. */
    private void drainOutput(SendCompletion done, long maxNs) {
        long deadline = System.nanoTime() + maxNs;
        while (done.pending() > 0 && System.nanoTime() < deadline) {
            for (TcpConnection[] row : connections) {
                for (TcpConnection c : row) {
                    if (c != null && !c.isClosed() && c.hasOutput()) {
                        c.writeQueued();
                    }
                }
            }
            if (done.pending() > 0) {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public String toString() {
        return rails == 1 ? "rail 0 (tcp)" : "rails 0-" + (rails - 1) + " (tcp)";
    }

    @Override
    public void close() {
        FrameHeader bye = new FrameHeader();
        bye.type = FrameHeader.GOODBYE;
        bye.sourceRank = rank;
        SendCompletion done = new SendCompletion();
        for (TcpConnection[] row : connections) {
            for (TcpConnection c : row) {
                if (c != null && !c.isClosed()) {
                    done.add(1);
                    try {
                        c.enqueue(bye, null, done);
                    } catch (RailcollException ignored) {
                        // a peer already gone needs no goodbye
                    }
                }
            }
        }
        try {
            drainOutput(done, TimeUnit.SECONDS.toNanos(2));
        } catch (RailcollException ignored) {
            // closing anyway
        }
        for (TcpConnection[] row : connections) {
            for (TcpConnection c : row) {
                if (c != null) {
                    c.closeQuietly();
                }
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
