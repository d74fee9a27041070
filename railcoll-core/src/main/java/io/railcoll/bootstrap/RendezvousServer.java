package io.railcoll.bootstrap;

import io.railcoll.HandshakeRejectedException;
import io.railcoll.RailcollException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Collects every rank's {@link RankRecord} and answers each with the whole {@link JobTable}. Run by the
 * launcher, or by rank 0 when ranks were started by another launcher. Connections that fail the handshake
 * are refused, reported on {@code log} and otherwise ignored, so a stranger can neither join nor stall the job.
 *
 * <p>Lifetime: {@link #start} binds and spawns one acceptor thread; {@link #close} stops it. Thread-safe.
 */
public final class RendezvousServer implements AutoCloseable {
    private final ServerSocket server;
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

    private RendezvousServer(ServerSocket server, int size, Handshake handshake, long timeoutNs, PrintStream log) {
        this.server = server;
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
        ServerSocket ss = new ServerSocket();
        ss.setReuseAddress(true);
        ss.bind(bind, Math.max(64, size));
        RendezvousServer s = new RendezvousServer(ss, size, handshake, timeoutNs, log);
        s.acceptor.start();
        return s;
    }

    public int expectedSize() {
        return size;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

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
        try {
            while (!server.isClosed()) {
                long left = deadlineNs - System.nanoTime();
                if (left <= 0) {
                    synchronized (this) {
                        if (table == null) {
                            fail(new RailcollException("rendezvous: only " + arrived + " of " + size
                                    + " ranks arrived before the start-up deadline; missing ranks " + missing()));
                        }
                    }
                    return;
                }
                server.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(left))));
                Socket s;
                try {
                    s = server.accept();
                } catch (SocketTimeoutException e) {
                    continue;
                }
                Thread.ofPlatform().daemon().name("railcoll-rendezvous-conn").start(() -> serve(s));
            }
        } catch (IOException e) {
            if (!server.isClosed()) {
                synchronized (this) {
                    fail(new RailcollException("rendezvous server failed: " + e.getMessage(), e));
                }
            }
        }
    }

    private void serve(Socket s) {
        try {
            s.setSoTimeout((int) Math.max(1000, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())));
            s.setTcpNoDelay(true);
            Handshake.Peer peer;
            try {
                peer = handshake.accept(s, size, 1);
            } catch (HandshakeRejectedException e) {
                log.println("railcoll rendezvous: " + e.getMessage());
                closeQuietly(s);
                return;
            }
            if (peer.purpose() != Handshake.Purpose.RENDEZVOUS) {
                log.println("railcoll rendezvous: refused " + s.getRemoteSocketAddress() + ": a rail connection, not a rendezvous one");
                closeQuietly(s);
                return;
            }
            RankRecord rec = RankRecord.read(new DataInputStream(s.getInputStream()));
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
        } catch (IOException e) {
            log.println("railcoll rendezvous: lost " + s.getRemoteSocketAddress() + " during start-up: " + e.getMessage());
            closeQuietly(s);
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
        acceptor.interrupt();
    }
}
