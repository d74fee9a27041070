package io.railcoll.transport.mcast;

import io.railcoll.PeerLostException;
import io.railcoll.RailcollException;
import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.HandshakeAcceptor;
import io.railcoll.bootstrap.HandshakeDroppedException;
import io.railcoll.bootstrap.Refusals;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A {@link ControlLink} over a full mesh of TCP connections, each authenticated with the job secret
 * ({@link Handshake}, purpose RAIL, rail 0): the stand-in for the engine's rails until the lead routes control
 * messages over them. Frames are {@code length i32, bytes}; length -1 is a goodbye, so a connection that ends
 * without one means the peer died and surfaces as {@link PeerLostException} naming it.
 *
 * <p>Start-up in two steps so ranks can publish their port first: {@link #listen} then {@link Listening#connect}
 * (the lower rank connects, the higher accepts; all-or-nothing, with a deadline). Threading: one reader thread per
 * peer fills a queue; {@link #send} writes on the caller's thread (the owner's), {@link #poll} drains the queue on
 * it. The creator closes it, which says goodbye to every peer.
 */
public final class TcpControlLink implements ControlLink, AutoCloseable {
    private static final int GOODBYE = -1;

    private record Incoming(int from, byte[] bytes, String lost) {
    }

    private final int myRank;
    private final Map<Integer, Socket> sockets;
    private final Map<Integer, DataOutputStream> outs = new HashMap<>();
    private final ConcurrentLinkedQueue<Incoming> inbox = new ConcurrentLinkedQueue<>();
    private volatile boolean closing;
    private volatile Runnable arrival = () -> { };
    private byte[] scratch = new byte[256];

    /** A bound listening socket, before the mesh is connected. */
    public static final class Listening implements AutoCloseable {
        private final ServerSocketChannel server;
        private final Handshake handshake;
        private final int myRank;
        private final Refusals refusals;

        private Listening(ServerSocketChannel server, Handshake handshake, int myRank, Refusals refusals) {
            this.server = server;
            this.handshake = handshake;
            this.myRank = myRank;
            this.refusals = refusals;
        }

        public InetSocketAddress address() {
            try {
                return (InetSocketAddress) server.getLocalAddress();
            } catch (IOException e) {
                throw new IllegalStateException("the control listener is closed", e);
            }
        }

        /** Connections this listener refused or dropped (strangers, wrong secrets, silent connections). */
        public Refusals refusals() {
            return refusals;
        }

        /**
         * Connects to every peer in {@code endpoints} (job rank to its listening address; this rank's own entry is
         * ignored): connects to higher ranks, accepts lower ones, within {@code timeoutMs}. Closes the listening socket.
         */
        public TcpControlLink connect(Map<Integer, InetSocketAddress> endpoints, long timeoutMs) throws IOException {
            Map<Integer, Socket> sockets = new HashMap<>();
            long deadline = System.nanoTime() + timeoutMs * 1_000_000;
            try (server) {
                int toAccept = 0;
                for (Map.Entry<Integer, InetSocketAddress> e : endpoints.entrySet()) {
                    int peer = e.getKey();
                    if (peer < myRank) {
                        toAccept++;
                    } else if (peer > myRank) {
                        sockets.put(peer, dial(e.getValue(), peer, deadline));
                    }
                }
                // Handshakes of every incoming connection at once (HandshakeAcceptor): a stranger, silent or not, is
                // refused or dropped and counted, and holds up no peer.
                try (HandshakeAcceptor<Void> acceptor = new HandshakeAcceptor<>(handshake, List.of(server),
                        Integer.MAX_VALUE, 1, Handshake.Purpose.RAIL, null, refusals)) {
                    while (toAccept > 0) {
                        remainingMs(deadline, "accepting control connections");
                        HandshakeAcceptor.Authenticated<Void> a = acceptor.next(Math.min(deadline,
                                System.nanoTime() + 100_000_000L));
                        if (a == null) {
                            if (Thread.currentThread().isInterrupted()) {
                                throw new IOException("interrupted while accepting control connections");
                            }
                            continue;
                        }
                        int peer = a.peer().rank();
                        if (!endpoints.containsKey(peer) || peer >= myRank || sockets.containsKey(peer)) {
                            refusals.refused("refused a control connection claiming rank " + peer + " from "
                                    + a.channel().getRemoteAddress() + ": not a lower rank still expected", System.nanoTime());
                            a.channel().close();
                            continue;
                        }
                        Socket s = a.channel().socket();
                        s.setTcpNoDelay(true);
                        sockets.put(peer, s);
                        toAccept--;
                    }
                }
                return new TcpControlLink(myRank, sockets);
            } catch (SocketTimeoutException e) {
                closeAll(sockets);
                throw new io.railcoll.CollectiveTimeoutException("rank " + myRank + ": control mesh not connected within "
                        + timeoutMs + " ms; connected to " + sockets.keySet() + " of " + endpoints.keySet());
            } catch (IOException | RuntimeException e) {
                closeAll(sockets);
                throw e;
            }
        }

        private Socket dial(InetSocketAddress to, int peer, long deadline) throws IOException {
            IOException last = null;
            while (System.nanoTime() < deadline) {
                Socket s = new Socket();
                try {
                    s.setTcpNoDelay(true);
                    s.connect(to, (int) Math.max(1, remainingMs(deadline, "connecting to rank " + peer)));
                    s.setSoTimeout((int) Math.max(1, remainingMs(deadline, "a control handshake")));
                    handshake.connect(s, Handshake.Purpose.RAIL, myRank, 0);
                    return s;
                } catch (java.net.ConnectException | HandshakeDroppedException e) {
                    // The peer may not listen yet, or dropped us while busy with strangers; try again until the deadline.
                    last = e;
                    s.close();
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while connecting to rank " + peer, ie);
                    }
                } catch (IOException | RuntimeException e) {
                    s.close();
                    throw e;
                }
            }
            throw new SocketTimeoutException("rank " + myRank + " could not reach rank " + peer + " at " + to + ": " + last);
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    /** Listens on {@code bind} (port 0 for any) for the mesh connections of job rank {@code myRank}. */
    public static Listening listen(Handshake handshake, int myRank, InetSocketAddress bind) throws IOException {
        return listen(handshake, myRank, bind, System.err);
    }

    /** As above, logging refused connections on {@code log} at a rate limit. */
    public static Listening listen(Handshake handshake, int myRank, InetSocketAddress bind, PrintStream log)
            throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(bind, 1024);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return new Listening(server, handshake, myRank,
                new Refusals("railcoll rank " + myRank + " multicast control listener", log));
    }

    private TcpControlLink(int myRank, Map<Integer, Socket> sockets) throws IOException {
        this.myRank = myRank;
        this.sockets = sockets;
        for (Map.Entry<Integer, Socket> e : sockets.entrySet()) {
            Socket s = e.getValue();
            s.setSoTimeout(0);
            s.setTcpNoDelay(true);
            outs.put(e.getKey(), new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16)));
            int peer = e.getKey();
            Thread.ofPlatform().daemon().name("railcoll-mcast-ctl-" + myRank + "-from-" + peer).start(() -> read(peer, s));
        }
    }

    private void read(int peer, Socket s) {
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(s.getInputStream(), 1 << 16))) {
            while (true) {
                int len = in.readInt();
                if (len == GOODBYE) {
                    return;
                }
                if (len < 0) {
                    throw new IOException("bad control frame length " + len);
                }
                byte[] b = new byte[len];
                in.readFully(b);
                inbox.add(new Incoming(peer, b, null));
                arrival.run();
            }
        } catch (EOFException e) {
            if (!closing) {
                inbox.add(new Incoming(peer, null, "control link to rank " + peer + " closed without goodbye (process died?)"));
                arrival.run();
            }
        } catch (IOException e) {
            if (!closing) {
                inbox.add(new Incoming(peer, null, "control link to rank " + peer + " broke: " + e.getMessage()));
                arrival.run();
            }
        }
    }

    @Override
    public void onArrival(Runnable wakeup) {
        arrival = wakeup;
    }

    @Override
    public void send(int peerRank, ByteBuffer message) {
        DataOutputStream out = outs.get(peerRank);
        if (out == null) {
            throw new IllegalArgumentException("rank " + myRank + " has no control link to rank " + peerRank);
        }
        int len = message.remaining();
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, scratch.length * 2)];
        }
        message.duplicate().get(scratch, 0, len);
        try {
            out.writeInt(len);
            out.write(scratch, 0, len);
            out.flush();
        } catch (IOException e) {
            throw new PeerLostException(peerRank, "rank " + myRank + ": lost rank " + peerRank
                    + " (control link write failed: " + e.getMessage() + ")", e);
        }
    }

    @Override
    public int poll(Handler handler) {
        int n = 0;
        for (Incoming m; (m = inbox.poll()) != null; ) {
            if (m.lost != null) {
                throw new PeerLostException(m.from, "rank " + myRank + ": lost rank " + m.from + " (" + m.lost + ")");
            }
            handler.onMessage(m.from, ByteBuffer.wrap(m.bytes));
            n++;
        }
        return n;
    }

    /** Says goodbye to every peer and closes the sockets; failures are suppressed onto the first. */
    @Override
    public void close() {
        closing = true;
        RailcollException first = null;
        for (Map.Entry<Integer, DataOutputStream> e : outs.entrySet()) {
            try {
                e.getValue().writeInt(GOODBYE);
                e.getValue().flush();
            } catch (IOException ex) {
                // a peer that already left needs no goodbye
            }
        }
        for (Map.Entry<Integer, Socket> e : sockets.entrySet()) {
            try {
                e.getValue().shutdownOutput();
            } catch (IOException ex) {
                // already closed by the peer
            }
        }
        for (Socket s : sockets.values()) {
            try {
                s.close();
            } catch (IOException ex) {
                if (first == null) {
                    first = new RailcollException("closing control links of rank " + myRank + " failed", ex);
                } else {
                    first.addSuppressed(ex);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static long remainingMs(long deadline, String what) throws SocketTimeoutException {
        long ms = (deadline - System.nanoTime()) / 1_000_000;
        if (ms <= 0) {
            throw new SocketTimeoutException("deadline passed while " + what);
        }
        return ms;
    }

    private static void closeAll(Map<Integer, Socket> sockets) {
        for (Socket s : sockets.values()) {
            try {
                s.close();
            } catch (IOException e) {
                // start-up failed already; that failure is the one to report
            }
        }
    }
}
