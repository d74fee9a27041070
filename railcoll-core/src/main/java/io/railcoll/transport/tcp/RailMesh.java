package io.railcoll.transport.tcp;

import io.railcoll.HandshakeRejectedException;
import io.railcoll.RailcollException;
import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.JobTable;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Builds the full mesh of rail connections: every pair of ranks, every rail, and with several connections per rail
 * every lane (lane l is connection l / rails on rail l mod rails). The higher rank connects to the
 * lower one from its own address on that rail; the lower accepts on a helper thread meanwhile, so no two ranks
 * wait on each other. Every connection starts with the job's {@link Handshake}; a refused stranger is reported
 * on {@code log} and never counted. All-or-nothing: on failure every socket made is closed.
 */
public final class RailMesh {
    private RailMesh() {
    }

    /** One connection per (peer, rail): {@code channels[peer][rail]}. */
    public static SocketChannel[][] connect(int rank, JobTable table, RailListeners listeners, Handshake handshake,
                                            long timeoutNs, PrintStream log) {
        return connect(rank, table, listeners, handshake, timeoutNs, log, 1);
    }

    /**
     * Returns {@code channels[peer][lane]} (null for this rank), all connected and authenticated, in blocking mode.
     * The handshake's rail field carries the lane, so a connection cannot claim another lane's place.
     */
    public static SocketChannel[][] connect(int rank, JobTable table, RailListeners listeners, Handshake handshake,
                                            long timeoutNs, PrintStream log, int connectionsPerRail) {
        int size = table.size();
        int rails = listeners.rails();
        int lanes = rails * connectionsPerRail;
        SocketChannel[][] channels = new SocketChannel[size][lanes];
        long deadline = System.nanoTime() + timeoutNs;
        int expectedAccepts = (size - 1 - rank) * lanes;
        RailcollException[] acceptFailure = new RailcollException[1];
        Thread acceptor = Thread.ofPlatform().daemon().name("railcoll-accept-" + rank).start(() -> {
            try {
                acceptAll(rank, size, rails, lanes, listeners, handshake, deadline, expectedAccepts, channels, log);
            } catch (RailcollException e) {
                acceptFailure[0] = e;
            }
        });
        try {
            for (int peer = 0; peer < rank; peer++) {
                for (int lane = 0; lane < lanes; lane++) {
                    SocketChannel ch = connectOne(rank, peer, lane % rails, lane, table, listeners, handshake, deadline);
                    synchronized (channels) {
                        channels[peer][lane] = ch;
                    }
                }
            }
            acceptor.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) + 1000);
            if (acceptor.isAlive()) {
                acceptor.interrupt();
                throw new RailcollException("rank " + rank + ": higher ranks did not all connect within "
                        + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
            }
            if (acceptFailure[0] != null) {
                throw acceptFailure[0];
            }
            return channels;
        } catch (RuntimeException | InterruptedException e) {
            acceptor.interrupt();
            listeners.close();
            synchronized (channels) {
                for (SocketChannel[] row : channels) {
                    for (SocketChannel ch : row) {
                        closeQuietly(ch);
                    }
                }
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new RailcollException("rank " + rank + ": interrupted while connecting rails");
            }
            throw (RuntimeException) e;
        }
    }

    private static SocketChannel connectOne(int rank, int peer, int rail, int lane, JobTable table,
                                            RailListeners listeners, Handshake handshake, long deadline) {
        InetSocketAddress target = table.rank(peer).railEndpoints().get(rail);
        InetSocketAddress local;
        try {
            local = new InetSocketAddress(((InetSocketAddress) listeners.server(rail).getLocalAddress()).getAddress(), 0);
        } catch (IOException e) {
            throw new RailcollException("rank " + rank + ": rail " + rail + " listener is closed", e);
        }
        IOException last = null;
        while (System.nanoTime() < deadline) {
            SocketChannel ch = null;
            try {
                ch = SocketChannel.open();
                ch.bind(local);
                Socket s = ch.socket();
                int leftMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                s.connect(target, Math.min(leftMs, 10_000));
                s.setSoTimeout(leftMs);
                tune(ch);
                handshake.connect(s, Handshake.Purpose.RAIL, rank, lane);
                s.setSoTimeout(0);
                return ch;
            } catch (ConnectException | SocketTimeoutException e) {
                closeQuietly(ch);
                last = e;
                sleepBriefly();
            } catch (HandshakeRejectedException e) {
                closeQuietly(ch);
                throw new HandshakeRejectedException("rank " + rank + ": rail " + rail + " connection to rank " + peer
                        + " at " + target + " refused: " + e.getMessage(), e);
            } catch (IOException e) {
                closeQuietly(ch);
                throw new RailcollException("rank " + rank + ": cannot connect rail " + rail + " to rank " + peer + " at "
                        + target + " from " + local + ": " + e.getMessage(), e);
            }
        }
        throw new RailcollException("rank " + rank + ": could not connect rail " + rail + " to rank " + peer + " at "
                + target + " before the start-up deadline" + (last == null ? "" : " (" + last.getMessage() + ")"));
    }

    private static void acceptAll(int rank, int size, int rails, int lanes, RailListeners listeners, Handshake handshake,
                                  long deadline, int expected, SocketChannel[][] channels, PrintStream log) {
        int accepted = 0;
        int rail = 0;
        while (accepted < expected) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                throw new RailcollException("rank " + rank + ": only " + accepted + " of " + expected
                        + " rail connections from higher ranks arrived before the start-up deadline");
            }
            // Accept round-robin over rails with a short time-out each, so one quiet rail does not block the others.
            rail = (rail + 1) % rails;
            Socket s;
            try {
                var server = listeners.server(rail).socket();
                server.setSoTimeout(50);
                s = server.accept();
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                throw new RailcollException("rank " + rank + ": accepting on rail " + rail + " failed: " + e.getMessage(), e);
            }
            SocketChannel ch = s.getChannel();
            try {
                s.setSoTimeout((int) Math.max(1000, Math.min(10_000, TimeUnit.NANOSECONDS.toMillis(left))));
                tune(ch);
                Handshake.Peer p = handshake.accept(s, size, lanes);
                if (p.purpose() != Handshake.Purpose.RAIL || p.rank() <= rank || p.rail() % rails != rail) {
                    log.println("railcoll rank " + rank + ": refused " + s.getRemoteSocketAddress() + ": claims rank "
                            + p.rank() + " rail " + p.rail() + ", which does not connect to this listener");
                    closeQuietly(ch);
                    continue;
                }
                synchronized (channels) {
                    if (channels[p.rank()][p.rail()] != null) {
                        log.println("railcoll rank " + rank + ": refused a second connection claiming rank " + p.rank()
                                + " lane " + p.rail() + " from " + s.getRemoteSocketAddress());
                        closeQuietly(ch);
                        continue;
                    }
                    s.setSoTimeout(0);
                    channels[p.rank()][p.rail()] = ch;
                }
                accepted++;
            } catch (HandshakeRejectedException e) {
                log.println("railcoll rank " + rank + ": " + e.getMessage());
                closeQuietly(ch);
            } catch (IOException e) {
                log.println("railcoll rank " + rank + ": dropped connection from " + s.getRemoteSocketAddress()
                        + " during the handshake: " + e.getMessage());
                closeQuietly(ch);
            }
        }
    }

    private static void tune(SocketChannel ch) throws IOException {
        ch.socket().setTcpNoDelay(true);
        ch.socket().setKeepAlive(true);
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing to salvage from a socket that failed to connect
            }
        }
    }
}
