package io.railcoll.bootstrap;

import io.railcoll.RailcollException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Collects every rank's {@link RankRecord} and answers each with the whole {@link JobTable}. Run by the
 * launcher, or by rank 0 when ranks were started by another launcher. Handshakes run concurrently on one thread
 * ({@link HandshakeAcceptor}: a 1 s handshake deadline, at most 128 connections awaiting authentication), so
 * strangers, silent or slow connections can neither join, stall the job nor grow its thread count; every refusal
 * is counted ({@link #refusals}) and logged on {@code log} at a rate limit.
 *
 * <p>Lifetime: {@link #start} binds and spawns one acceptor thread; {@link #close} stops it. Thread-safe.
 */
public final class RendezvousServer implements AutoCloseable {
    /** The listen backlog: room for a burst of connections while the acceptor drains them. */
    static final int BACKLOG = 1024;

    private final ServerSocketChannel server;
    private final Refusals refusals;
    private volatile HandshakeAcceptor<RankRecord> handshakes;
    private final int size;
    private final Handshake handshake;
    private final long timeoutNs;
    private final long deadlineNs;
    private final PrintStream log;
    private final Thread acceptor;
    private final Socket[] sockets;
    private final RankRecord[] records;
    private int arrived;
    private JobTable table;
    private RailcollException failure;

    private RendezvousServer(ServerSocketChannel server, int size, Handshake handshake, long timeoutNs, PrintStream log) {
        this.server = server;
        this.refusals = new Refusals("railcoll rendezvous", log);
        this.size = size;
        this.handshake = handshake;
        this.timeoutNs = timeoutNs;
        this.deadlineNs = System.nanoTime() + timeoutNs;
        this.log = log;
        this.sockets = new Socket[size];
        this.records = new RankRecord[size];
        this.acceptor = Thread.ofPlatform().daemon().name("railcoll-rendezvous").unstarted(this::acceptLoop);
    }

    /** Binds {@code bind} (port 0 for any) and starts accepting {@code size} ranks within {@code timeoutNs}. */
    public static RendezvousServer start(InetSocketAddress bind, int size, Handshake handshake, long timeoutNs,
                                         PrintStream log) throws IOException {
        ServerSocketChannel ss = ServerSocketChannel.open();
        try {
            ss.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
            ss.bind(bind, Math.max(BACKLOG, size));
            RendezvousServer s = new RendezvousServer(ss, size, handshake, timeoutNs, log);
            s.handshakes = new HandshakeAcceptor<>(handshake, List.of(ss), size, 1, Handshake.Purpose.RENDEZVOUS,
                    RECORD, s.refusals);
            s.acceptor.start();
            return s;
        } catch (IOException | RuntimeException e) {
            ss.close();
            throw e;
        }
    }

    public int expectedSize() {
        return size;
    }

    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the rendezvous server is closed", e);
        }
    }

    /** Connections refused or dropped so far (strangers, wrong secrets, silent or slow connections). */
    public Refusals refusals() {
        return refusals;
    }

    /** The rank record a connector sends after its handshake; a rank of this job sends one of at most 64 rails. */
    private static final HandshakeAcceptor.FollowUp<RankRecord> RECORD = new HandshakeAcceptor.FollowUp<>() {
        @Override
        public RankRecord read(DataInputStream in, Handshake.Peer peer) throws IOException {
            return RankRecord.read(in);
        }

        @Override
        public int maxBytes() {
            return RankRecord.MAX_BYTES;
        }
    };

    /** Blocks until every rank has published, then returns the table; throws if start-up failed or timed out. */
    public synchronized JobTable awaitTable() throws InterruptedException {
        while (table == null && failure == null) {
            long left = deadlineNs - System.nanoTime();
            if (left <= 0) {
                fail(new RailcollException("rendezvous: only " + arrived + " of " + size + " ranks arrived within "
                        + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s; missing ranks " + missing()));
                break;
            }
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
        if (failure != null) {
            throw failure;
        }
        return table;
    }

    private void acceptLoop() {
        try (HandshakeAcceptor<RankRecord> accepting = handshakes) {
            while (server.isOpen()) {
                long now = System.nanoTime();
                if (deadlineNs - now <= 0) {
                    synchronized (this) {
                        if (table == null) {
                            fail(new RailcollException("rendezvous: only " + arrived + " of " + size
                                    + " ranks arrived before the start-up deadline; missing ranks " + missing()));
                        }
                    }
                    return;
                }
                // Wake at least every 100 ms to notice close().
                HandshakeAcceptor.Authenticated<RankRecord> a = accepting.next(Math.min(deadlineNs, now + 100_000_000L));
                if (a != null) {
                    register(a.channel().socket(), a.peer(), a.message());
                }
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
        } catch (IOException | java.nio.channels.ClosedSelectorException e) {
            if (server.isOpen()) {
                synchronized (this) {
                    fail(new RailcollException("rendezvous server failed: " + e.getMessage(), e));
                }
            }
        }
    }

    private void register(Socket s, Handshake.Peer peer, RankRecord rec) {
        synchronized (this) {
            if (rec.rank() != peer.rank()) {
                reject(s, "published rank " + rec.rank() + " but authenticated as " + peer.rank());
                return;
            }
            if (rec.size() != size) {
                fail(new RailcollException("rendezvous: rank " + rec.rank() + " believes the job has " + rec.size()
                        + " ranks, the rendezvous expects " + size));
                reject(s, failure.getMessage());
                return;
            }
            if (records[rec.rank()] != null) {
                reject(s, "rank " + rec.rank() + " already joined from another process (pid " + records[rec.rank()].pid() + ")");
                return;
            }
            if (arrived > 0 && firstRecord().railEndpoints().size() != rec.railEndpoints().size()) {
                fail(new RailcollException("rendezvous: rank " + rec.rank() + " has " + rec.railEndpoints().size()
                        + " rails but rank " + firstRecord().rank() + " has " + firstRecord().railEndpoints().size()));
                reject(s, failure.getMessage());
                return;
            }
            records[rec.rank()] = rec;
            sockets[rec.rank()] = s;
            arrived++;
            if (failure != null) {
                reject(s, failure.getMessage());
            } else if (arrived == size) {
                table = JobTable.of(records);
                for (Socket each : sockets) {
                    answer(each);
                }
                notifyAll();
            }
        }
    }

    private RankRecord firstRecord() {
        for (RankRecord r : records) {
            if (r != null) {
                return r;
            }
        }
        throw new IllegalStateException("no record yet");
    }

    private void answer(Socket s) {
        try {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeByte(0);
            table.write(out);
            out.flush();
        } catch (IOException e) {
            log.println("railcoll rendezvous: could not answer " + s.getRemoteSocketAddress() + ": " + e.getMessage());
        } finally {
            closeQuietly(s);
        }
    }

    private void reject(Socket s, String reason) {
        try {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeByte(1);
            out.writeUTF(reason);
            out.flush();
        } catch (IOException ignored) {
            // the rank learns of the failure through its own deadline
        } finally {
            closeQuietly(s);
        }
    }

    private void fail(RailcollException e) {
        if (failure == null) {
            failure = e;
            for (int r = 0; r < size; r++) {
                if (sockets[r] != null) {
                    reject(sockets[r], e.getMessage());
                    sockets[r] = null;
                }
            }
        }
        notifyAll();
    }

    private String missing() {
        List<Integer> m = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (records[r] == null) {
                m.add(r);
            }
        }
        return m.toString();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing a socket that failed already
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
        HandshakeAcceptor<RankRecord> h = handshakes;
        if (h != null) {
            h.wakeup();
        }
        acceptor.interrupt();
    }
}
