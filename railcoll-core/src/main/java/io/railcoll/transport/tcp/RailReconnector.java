package io.railcoll.transport.tcp;

import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.HandshakeAcceptor;
import io.railcoll.bootstrap.JobTable;
import io.railcoll.bootstrap.Refusals;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Brings failed lanes back (decision 0055). It keeps the rail listeners of start-up open for the job's lifetime,
 * behind the same authenticating {@link HandshakeAcceptor} (1 s handshake deadline, at most 128 connections awaiting
 * authentication, every refusal counted and logged at a rate limit), and it reconnects every lane given up for a
 * failure: as at start-up, the higher rank of the pair dials, from its own address on that rail, with back-off
 * ({@link RedialBackoff}), until it succeeds, the peer says goodbye, the communicator fails or it is closed. Each
 * connection made carries a new <em>generation</em> in the handshake's rail field ({@code generation * 64 + lane},
 * authenticated with the rest of the handshake; see {@link PeerLanes}), and is handed to the lane's driver, which
 * takes it into use ({@link LaneSet#adopt}).
 *
 * <p>Threads: one accepting (on ranks that a higher rank dials), one dialling (started with the first lane to
 * reconnect); both daemons, stopped by {@link #close}. Lifetime: owned by the rail transport it was started with,
 * which closes it first when it closes (a goodbye is not a failure: nothing is reconnected after it). Closing
 * also closes the listeners.
 */
public final class RailReconnector implements LaneRecovery, AutoCloseable {
    /** How long the dialling side waits for the acceptor's answer in the handshake. */
    private static final int HANDSHAKE_TIMEOUT_MS = 2000;

    private final int rank;
    private final int size;
    private final RailListeners listeners;
    /** This rank's address on each rail: a reconnection leaves from there, as at start-up. */
    private final List<java.net.InetAddress> railAddresses;
    private final JobTable table;
    private final Handshake handshake;
    private final Refusals refusals;
    /** Lanes to reconnect, by (peer, lane), with their next attempt; guarded by itself. */
    private final Map<Long, Attempt> due = new LinkedHashMap<>();
    private volatile boolean closed;
    private RailTransport transport;
    private RedialBackoff backoff;
    private Thread acceptor;
    private Thread dialer;
    private HandshakeAcceptor<Void> handshakes;

    /** The next attempt to reconnect one lane. */
    private static final class Attempt {
        final int peer;
        final int lane;
        int failures;
        long atNs;
        String lastError;

        Attempt(int peer, int lane, long atNs) {
            this.peer = peer;
            this.lane = lane;
            this.atNs = atNs;
        }
    }

    private RailReconnector(int rank, JobTable table, RailListeners listeners, Handshake handshake, PrintStream log)
            throws IOException {
        this.rank = rank;
        this.size = table.size();
        this.table = table;
        this.listeners = listeners;
        this.railAddresses = new ArrayList<>();
        for (InetSocketAddress a : listeners.endpoints()) {
            railAddresses.add(a.getAddress());
        }
        this.handshake = handshake;
        this.refusals = new Refusals("railcoll rank " + rank + " rail listeners", log);
    }

    /**
     * Keeps {@code listeners} (those start-up connected through, open) for reconnections; nothing runs until a rail
     * transport is started with it. The reconnector owns the listeners from now on.
     */
    public static RailReconnector keep(int rank, JobTable table, RailListeners listeners, Handshake handshake,
                                       PrintStream log) throws IOException {
        return new RailReconnector(rank, table, listeners, handshake, log);
    }

    /** Starts serving {@code t}'s lanes: accepting reconnections from higher ranks, and dialling when lanes fail. */
    synchronized void start(RailTransport t, RailSettings settings) throws IOException {
        this.transport = t;
        this.backoff = RedialBackoff.forRailTimeout(settings.railTimeoutNs());
        // With one lane per peer nothing is ever reconnected: a lane is given up only while another lane to its peer
        // lives (decision 0040), so the last one failing fails the transport instead. Nor is the highest rank dialled.
        if (rank < size - 1 && settings.lanes() > 1) {
            List<ServerSocketChannel> servers = new ArrayList<>();
            for (int r = 0; r < listeners.rails(); r++) {
                servers.add(listeners.server(r));
            }
            // The rail field carries generation * 64 + lane: its range is checked by the admission below.
            handshakes = new HandshakeAcceptor<Void>(handshake, servers, size, Integer.MAX_VALUE,
                    Handshake.Purpose.RAIL, null, refusals).admitting(this::admission);
            acceptor = Thread.ofPlatform().daemon().name("railcoll-rail-accept-" + rank).start(this::accept);
        } else {
            listeners.close(); // nothing to listen for
        }
        t.lanes.recoverLanesWith(this);
    }

    /** Refusals counted by the kept listeners (strangers, floods, connections that may not in). */
    public Refusals refusals() {
        return refusals;
    }

    @Override
    public boolean dials(int peer) {
        return rank > peer;
    }

    @Override
    public void laneDown(int peer, int lane) {
        if (!dials(peer) || closed) {
            return;
        }
        synchronized (due) {
            due.putIfAbsent(key(peer, lane), new Attempt(peer, lane, System.nanoTime() + RedialBackoff.FIRST_DELAY_NS));
            if (dialer == null) {
                dialer = Thread.ofPlatform().daemon().name("railcoll-rail-redial-" + rank).start(this::dial);
            }
            due.notifyAll();
        }
    }

    private static long key(int peer, int lane) {
        return ((long) peer << 32) | lane;
    }

    // ---- accepting ----

    /** Who may in on a kept listener: a higher rank, on a lane of this listener's rail, with a newer generation. */
    private String admission(Handshake.Peer peer, int listener) {
        LaneSet lanes = transport.lanes;
        int lane = peer.rail() % PeerLanes.LANE_FIELD;
        int generation = peer.rail() / PeerLanes.LANE_FIELD;
        if (closed || lanes.isClosing()) {
            return "rank " + rank + " is closing its communicator";
        }
        if (peer.rank() <= rank) {
            return "rank " + peer.rank() + " does not dial rank " + rank + " (the higher rank of a pair dials)";
        }
        if (lane >= lanes.lanesPerPeer || lanes.railOf(lane) != listener) {
            return "lane " + lane + " is not a lane of rail " + listener;
        }
        if (generation < lanes.lanesPerPeer) {
            return "a start-up connection after start-up (lane " + lane + ")";
        }
        PeerLanes p = lanes.peer(peer.rank());
        if (p.goodbye() || lanes.failure() != null) {
            return "rank " + rank + " no longer takes connections from rank " + peer.rank();
        }
        if (!p.made(lane, generation, true)) {
            return "connection " + generation + " of lane " + lane + " is not newer than the last one made";
        }
        return null;
    }

    private void accept() {
        try (HandshakeAcceptor<Void> a = handshakes) {
            while (!closed) {
                // close() interrupts this thread, which ends the wait at once.
                HandshakeAcceptor.Authenticated<Void> in = a.next(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
                if (in == null || closed) {
                    if (in != null) {
                        RailMesh.closeQuietly(in.channel());
                    }
                    continue;
                }
                int field = in.peer().rail();
                try {
                    RailMesh.tune(in.channel());
                } catch (IOException e) {
                    RailMesh.closeQuietly(in.channel());
                    continue;
                }
                handOver(in.peer().rank(), field % PeerLanes.LANE_FIELD, field / PeerLanes.LANE_FIELD, in.channel());
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                transport.lanes.log("railcoll WARNING: rank " + rank + ": the rail listeners stopped taking reconnections: " + e);
            }
        }
    }

    // ---- dialling ----

    private void dial() {
        while (!closed) {
            Attempt next;
            synchronized (due) {
                next = earliest();
                long now = System.nanoTime();
                if (next == null || next.atNs - now > 0) {
                    long waitMs = next == null ? 1000 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(next.atNs - now));
                    try {
                        due.wait(waitMs);
                    } catch (InterruptedException e) {
                        return;
                    }
                    continue;
                }
            }
            if (attempt(next)) {
                synchronized (due) {
                    due.remove(key(next.peer, next.lane));
                }
            }
        }
    }

    private Attempt earliest() {
        Attempt first = null;
        for (Attempt a : due.values()) {
            if (first == null || a.atNs - first.atNs < 0) {
                first = a;
            }
        }
        return first;
    }

    /** One try; true when the lane needs no more (reconnected, or no longer wanted). */
    private boolean attempt(Attempt a) {
        LaneSet lanes = transport.lanes;
        PeerLanes p = lanes.peer(a.peer);
        if (closed || lanes.isClosing() || lanes.failure() != null || p.goodbye()) {
            return true;
        }
        int rail = lanes.railOf(a.lane);
        InetSocketAddress target = table.rank(a.peer).railEndpoints().get(rail);
        SocketChannel ch = null;
        try {
            InetSocketAddress local = new InetSocketAddress(railAddresses.get(rail), 0);
            ch = SocketChannel.open();
            ch.bind(local);
            Socket s = ch.socket();
            s.connect(target, (int) TimeUnit.NANOSECONDS.toMillis(backoff.connectTimeoutNs()));
            int generation = p.nextGeneration();
            if (generation < 0) {
                lanes.log("railcoll WARNING: rank " + rank + ": " + lanes.describeLane(a.lane) + " to rank " + a.peer
                        + " stays down: it was reconnected " + PeerLanes.MAX_GENERATION + " times already");
                RailMesh.closeQuietly(ch);
                return true;
            }
            s.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            RailMesh.tune(ch);
            handshake.connect(s, Handshake.Purpose.RAIL, rank, generation * PeerLanes.LANE_FIELD + a.lane);
            s.setSoTimeout(0);
            p.made(a.lane, generation, false);
            handOver(a.peer, a.lane, generation, ch);
            return true;
        } catch (IOException | RuntimeException e) {
            RailMesh.closeQuietly(ch);
            a.lastError = e.toString();
            a.atNs = System.nanoTime() + backoff.delayNs(++a.failures);
            return false;
        }
    }

    private void handOver(int peer, int lane, int generation, SocketChannel ch) {
        if (closed) {
            RailMesh.closeQuietly(ch);
            return;
        }
        transport.adopt(peer, lane, generation, ch);
    }

    /** Lanes waiting to be reconnected, as "rank P lane L (N attempts, last: why)", for diagnostics. */
    String pending() {
        StringBuilder sb = new StringBuilder();
        synchronized (due) {
            for (Attempt a : due.values()) {
                sb.append(sb.isEmpty() ? "" : ", ").append("rank ").append(a.peer).append(" lane ").append(a.lane)
                        .append(" (").append(a.failures).append(" attempts")
                        .append(a.lastError == null ? "" : ", last: " + a.lastError).append(')');
            }
        }
        return sb.toString();
    }

    /** Stops reconnecting and accepting, and closes the listeners. Idempotent. */
    @Override
    public void close() {
        closed = true;
        Thread d;
        synchronized (due) {
            due.clear();
            d = dialer;
            due.notifyAll();
        }
        if (acceptor != null) {
            acceptor.interrupt();
            join(acceptor);
        }
        if (d != null) {
            d.interrupt();
            join(d);
        }
        listeners.close();
        refusals.flush(System.nanoTime());
    }

    private static void join(Thread t) {
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
