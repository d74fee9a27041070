package io.railcoll.transport.tcp;

import io.railcoll.HandshakeRejectedException;
import io.railcoll.RailcollException;
import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.HandshakeAcceptor;
import io.railcoll.bootstrap.HandshakeDroppedException;
import io.railcoll.bootstrap.Refusals;
import io.railcoll.bootstrap.JobTable;
import io.railcoll.bootstrap.RailDiscovery;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketException;
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
 * once ({@link HandshakeAcceptor}); a refused stranger is counted and logged at a rate limit ({@link Refusals}).
 * All-or-nothing: on failure every socket made is closed.
 *
 * <p>This is also the reachability check before the first collective: every rank connects to every peer on every
 * rail it uses, and a path that does not work fails start-up within {@link #REACH_TIMEOUT_MS}, naming the rank, the
 * peer, the address and the interface, instead of waiting out the start-up deadline (docs/rails.md).
 */
public final class RailMesh {
    /**
     * How long a connection may go unanswered before its rail is declared not to reach the peer. Every peer listens
     * before the rendezvous completes, and a listening kernel answers at once whatever its JVM is doing; 10 s covers
     * three lost SYNs on a lossy rail.
     */
    static final int REACH_TIMEOUT_MS = 10_000;

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
        checkRailCounts(rank, table, rails);
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
                int reachMs = Math.min(leftMs, REACH_TIMEOUT_MS);
                try {
                    s.connect(target, reachMs);
                } catch (SocketTimeoutException | NoRouteToHostException e) {
                    // Every peer listens before the rendezvous ends, so no answer at all (or no route) is not a peer
                    // that is late: this rail's path to it does not work, and waiting longer would only hide that.
                    closeQuietly(ch);
                    throw unreachable(rank, peer, rail, local, target, e instanceof SocketTimeoutException
                            ? "no answer within " + reachMs / 1000.0 + " s" : e.getMessage());
                } catch (SocketException e) {
                    if (!(e instanceof ConnectException) && e.getMessage() != null
                            && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("unreachable")) {
                        closeQuietly(ch);
                        throw unreachable(rank, peer, rail, local, target, e.getMessage());
                    }
                    throw e;
                }
                s.setSoTimeout(leftMs);
                tune(ch);
                handshake.connect(s, Handshake.Purpose.RAIL, rank, lane);
                s.setSoTimeout(0);
                return ch;
            } catch (ConnectException | SocketTimeoutException | HandshakeDroppedException e) {
                // Refused (a listener not there yet), answered late, or dropped by a listener busy with strangers
                // (HandshakeAcceptor): try again until the deadline.
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
                        + target + " from " + RailDiscovery.describe(local.getAddress()) + ": " + e.getMessage(), e);
            }
        }
        throw new RailcollException("rank " + rank + ": could not connect rail " + rail + " to rank " + peer + " at "
                + target + " from " + RailDiscovery.describe(local.getAddress()) + " before the start-up deadline"
                + (last == null ? "" : " (" + last.getMessage() + ")"));
    }

    private static RailcollException unreachable(int rank, int peer, int rail, InetSocketAddress local,
                                                 InetSocketAddress target, String why) {
        return new RailcollException("rank " + rank + ": rail " + rail + " from " + RailDiscovery.describe(local.getAddress())
                + " does not reach rank " + peer + " at " + target.getAddress().getHostAddress() + ":" + target.getPort()
                + " (" + why + "); leave that interface out or pick the rails with RAILCOLL_RAILS (docs/rails.md)");
    }

    /** Every rank must publish as many rails as this one: rail r of each rank meets rail r of every other. */
    private static void checkRailCounts(int rank, JobTable table, int rails) {
        for (int peer = 0; peer < table.size(); peer++) {
            int theirs = table.rank(peer).railEndpoints().size();
            if (theirs != rails) {
                throw new RailcollException("rank " + rank + " has " + rails + " rails but rank " + peer + " has " + theirs
                        + " (" + table.rank(peer).railEndpoints() + "): every rank must select the same number of rails;"
                        + " set RAILCOLL_RAILS alike on every node (docs/rails.md)");
            }
        }
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
                            + " rail connections from higher ranks arrived before the start-up deadline; missing: "
                            + missing(rank, size, lanes, rails, channels, listeners));
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

    /** The first few (rank, rail) connections that never arrived, and this rank's address on that rail. */
    private static String missing(int rank, int size, int lanes, int rails, SocketChannel[][] channels,
                                  RailListeners listeners) {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        synchronized (channels) {
            for (int peer = rank + 1; peer < size; peer++) {
                for (int lane = 0; lane < lanes; lane++) {
                    if (channels[peer][lane] == null) {
                        if (shown++ < 6) {
                            String at;
                            try {
                                at = RailDiscovery.describe(((InetSocketAddress) listeners.server(lane % rails)
                                        .getLocalAddress()).getAddress());
                            } catch (IOException e) {
                                at = "?";
                            }
                            sb.append(sb.isEmpty() ? "" : ", ").append("rank ").append(peer).append(" on rail ")
                                    .append(lane % rails).append(" to ").append(at);
                        }
                    }
                }
            }
        }
        return shown > 6 ? sb + " and " + (shown - 6) + " more" : sb.toString();
    }

    /** What every rail connection gets: no Nagle delay (small frames go at once), and keep-alive. */
    static void tune(SocketChannel ch) throws IOException {
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

    static void closeQuietly(SocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing to salvage from a socket that failed to connect, or never became a lane
            }
        }
    }
}
