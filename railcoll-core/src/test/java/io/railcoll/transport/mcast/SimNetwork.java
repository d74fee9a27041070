package io.railcoll.transport.mcast;

import io.railcoll.PeerLostException;

import java.io.IOException;
import java.net.NoRouteToHostException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * An in-memory network for protocol tests, driven from one thread: a multicast "switch" that copies each datagram
 * to every attached port (the sender's own included, as IP_MULTICAST_LOOP does), and point-to-point control links
 * that are reliable and FIFO per pair. Ports can be made unreachable (send throws, like a missing route) or
 * black holes (everything sent vanishes), and members can be killed (their peers' links report them lost).
 */
final class SimNetwork {
    private final List<Port> ports = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    final List<Integer> dead = new ArrayList<>();
    /** Control messages of a held (from, to) pair wait here, in order, until {@link #release}: a slow TCP segment. */
    private final java.util.Map<Long, ArrayDeque<byte[]>> held = new java.util.HashMap<>();
    /** When > 0, datagrams sent after this many in total are lost (multicast breaks mid-stream). */
    long breakAfterDatagrams = -1;
    private long datagrams;

    final class Port implements DatagramPort {
        final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
        boolean unreachable;
        boolean closed;

        @Override
        public boolean send(ByteBuffer datagram) throws IOException {
            if (unreachable) {
                throw new NoRouteToHostException("Network is unreachable");
            }
            byte[] b = new byte[datagram.remaining()];
            datagram.get(b);
            if (breakAfterDatagrams >= 0 && datagrams++ >= breakAfterDatagrams) {
                return true;
            }
            for (Port p : ports) {
                if (!p.closed) {
                    p.inbox.add(b);
                }
            }
            return true;
        }

        @Override
        public boolean receive(ByteBuffer into) {
            byte[] b = inbox.poll();
            if (b == null) {
                return false;
            }
            into.clear();
            into.put(b).flip();
            return true;
        }

        @Override
        public String describe() {
            return "sim group";
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    final class Link implements ControlLink {
        final int rank;
        final ArrayDeque<Object[]> inbox = new ArrayDeque<>();
        long sent;

        Link(int rank) {
            this.rank = rank;
        }

        @Override
        public void send(int peerRank, ByteBuffer message) {
            if (dead.contains(peerRank)) {
                throw new PeerLostException(peerRank, "rank " + rank + ": lost rank " + peerRank + " (sim)");
            }
            byte[] b = new byte[message.remaining()];
            message.duplicate().get(b);
            ArrayDeque<byte[]> waiting = held.get(pair(rank, peerRank));
            if (waiting != null) {
                waiting.add(b);
                return;
            }
            for (Link l : links) {
                if (l.rank == peerRank) {
                    l.inbox.add(new Object[] {rank, b});
                    sent++;
                    return;
                }
            }
            throw new IllegalArgumentException("no link to rank " + peerRank);
        }

        @Override
        public int poll(Handler handler) {
            int n = 0;
            for (Object[] m; (m = inbox.poll()) != null; n++) {
                handler.onMessage((Integer) m[0], ByteBuffer.wrap((byte[]) m[1]));
            }
            if (n == 0 && !dead.isEmpty() && !dead.contains(rank)) {
                throw new PeerLostException(dead.getFirst(), "rank " + rank + ": lost rank " + dead.getFirst()
                        + " (control link closed without goodbye)");
            }
            return n;
        }
    }

    private static long pair(int from, int to) {
        return ((long) from << 32) | (to & 0xffffffffL);
    }

    /** Holds every control message from {@code from} to {@code to} (in order) until {@link #release}. */
    void hold(int from, int to) {
        held.putIfAbsent(pair(from, to), new ArrayDeque<>());
    }

    /** Delivers what was held from {@code from} to {@code to}, in order, and stops holding. */
    void release(int from, int to) {
        ArrayDeque<byte[]> waiting = held.remove(pair(from, to));
        if (waiting == null) {
            return;
        }
        Link sender = null;
        for (Link l : links) {
            if (l.rank == from) {
                sender = l;
                break;
            }
        }
        for (byte[] b : waiting) {
            sender.send(to, ByteBuffer.wrap(b));
        }
    }

    Port port() {
        Port p = new Port();
        ports.add(p);
        return p;
    }

    Link link(int rank) {
        Link l = new Link(rank);
        links.add(l);
        return l;
    }
}
