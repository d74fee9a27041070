package io.railcoll.transport.tcp;

import io.railcoll.HandshakeRejectedException;
import io.railcoll.RailcollException;
import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.HandshakeAcceptor;
import io.railcoll.bootstrap.HandshakeDroppedException;
import io.railcoll.bootstrap.Refusals;
import io.railcoll.bootstrap.JobTable;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the full mesh of rail connections: every pair of ranks, every rail, and with several connections per rail
 * every lane (lane l is connection l / rails on rail l mod rails). The higher rank connects to the
 * lower one from its own address on that rail; the lower accepts on a helper thread meanwhile, so no two ranks
 * wait on each other. Every connection starts with the job's {@link Handshake}, all of a listener's handshakes at
 * once ({@link HandshakeAcceptor}); a refused stranger is counted and logged at a rate limit ({@link Refusals}). All-or-nothing: on failure every socket made is closed.
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
        return connect(rank, table, listeners, handshake, timeoutNs, connectionsPerRail,
                new Refusals("railcoll rank " + rank + " rail listeners", log));
    }

    /** As above, counting every connection the listeners refused or dropped in {@code refusals}. */
    public static SocketChannel[][] connect(int rank, JobTable table, RailListeners listeners, Handshake handshake,
                                            long timeoutNs, int connectionsPerRail, Refusals refusals) {
        int size = table.size();
        int rails = listeners.rails();
        int lanes = rails * connectionsPerRail;
        SocketChannel[][] channels = new SocketChannel[size][lanes];
        long deadline = System.nanoTime() + timeoutNs;
        int expectedAccepts = (size - 1 - rank) * lanes;
        RailcollException[] acceptFailure = new RailcollException[1];
        Thread acceptor = Thread.ofPlatform().daemon().name("railcoll-accept-" + rank).start(() -> {
            try {
                acceptAll(rank, size, rails, lanes, listeners, handshake, deadline, expectedAccepts, channels, refusals);
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
            } catch (ConnectException | SocketTimeoutException | HandshakeDroppedException e) {
                // Not listening yet, or dropped by a listener busy with strangers (HandshakeAcceptor): try again.
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

    /**
     * Accepts the higher ranks' connections on every rail at once: handshakes run concurrently on this thread
     * ({@link HandshakeAcceptor}: 1 s deadline each, at most 128 awaiting authentication), so a silent, slow or
     * garbage connection holds up no peer and costs no thread.
     */
    private static void acceptAll(int rank, int size, int rails, int lanes, RailListeners listeners, Handshake handshake,
                                  long deadline, int expected, SocketChannel[][] channels, Refusals refusals) {
        int accepted = 0;
        List<ServerSocketChannel> servers = new ArrayList<>();
        for (int r = 0; r < rails; r++) {
            servers.add(listeners.server(r));
        }
        try (HandshakeAcceptor<Void> acceptor = new HandshakeAcceptor<>(handshake, servers, size, lanes,
                Handshake.Purpose.RAIL, null, refusals)) {
            while (accepted < expected) {
                long now = System.nanoTime();
                if (deadline - now <= 0 || Thread.currentThread().isInterrupted()) {
                    throw new RailcollException("rank " + rank + ": only " + accepted + " of " + expected
                            + " rail connections from higher ranks arrived before the start-up deadline");
                }
                HandshakeAcceptor.Authenticated<Void> a = acceptor.next(Math.min(deadline, now + 100_000_000L));
                if (a == null) {
                    continue;
                }
                SocketChannel ch = a.channel();
                Handshake.Peer p = a.peer();
                int rail = a.listener();
                String from = String.valueOf(ch.socket().getRemoteSocketAddress());
                if (p.rank() <= rank || p.rail() % rails != rail) {
                    refusals.refused("refused " + from + ": claims rank " + p.rank() + " lane " + p.rail()
                            + ", which does not connect to rail " + rail + " of rank " + rank, System.nanoTime());
                    closeQuietly(ch);
                    continue;
                }
                synchronized (channels) {
                    if (channels[p.rank()][p.rail()] != null) {
                        refusals.refused("refused a second connection claiming rank " + p.rank() + " lane " + p.rail()
                                + " from " + from, System.nanoTime());
                        closeQuietly(ch);
                        continue;
                    }
                    try {
                        tune(ch);
                    } catch (IOException e) {
                        refusals.refused("dropped rank " + p.rank() + " lane " + p.rail() + " from " + from + ": "
                                + e.getMessage(), System.nanoTime());
                        closeQuietly(ch);
                        continue;
                    }
                    channels[p.rank()][p.rail()] = ch;
                }
                accepted++;
            }
        } catch (IOException e) {
            throw new RailcollException("rank " + rank + ": accepting rail connections failed: " + e.getMessage(), e);
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
