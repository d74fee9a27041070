package io.railcoll.transport.mcast;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * The UDP multicast socket of one member on one rail: bound to the group's address and port (so it sees only that
 * group's datagrams; SO_REUSEADDR lets several members on one host bind the same), joined on the network interface
 * that holds the rail's address, sending through that interface with TTL 1 (the rail is one switch; nothing
 * should be routed further) and IP_MULTICAST_LOOP on (members on the same host receive each other's datagrams).
 * Opening refuses (and so makes the protocol fail over) when the group is not routed to the rail's interface; see
 * {@link MulticastRoutes}. Non-blocking. One owner thread; the creator closes it.
 */
public final class MulticastEndpoint implements DatagramPort {
    private final DatagramChannel channel;
    private final MembershipKey membership;
    private final InetSocketAddress group;
    private final String description;
    private final Selector selector;

    private MulticastEndpoint(DatagramChannel channel, MembershipKey membership, InetSocketAddress group, String description)
            throws IOException {
        this.channel = channel;
        this.membership = membership;
        this.group = group;
        this.description = description;
        this.selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    /**
     * Opens and joins; throws {@link IOException} saying what failed (no interface holds the rail address, join
     * refused, ...) so the caller can report multicast unavailable and fail over.
     */
    public static MulticastEndpoint open(MulticastGroup g, int receiveBufferBytes) throws IOException {
        NetworkInterface nif = NetworkInterface.getByInetAddress(g.railAddress());
        if (nif == null && g.railAddress().isLoopbackAddress()) {
            // The loopback emulation gives rails addresses like 127.0.2.3: lo answers for all of 127/8 though it
            // lists only 127.0.0.1, so such a rail's interface is lo.
            nif = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        }
        if (nif == null) {
            throw new SocketException("no network interface holds rail address " + g.railAddress().getHostAddress());
        }
        java.util.Optional<String> routed = MulticastRoutes.deviceFor(g.groupAddress());
        if (routed != null && routed.isEmpty()) {
            throw new SocketException("no route for multicast group " + g.groupAddress().getHostAddress()
                    + ", so multicast is unavailable on this host (to allow it: ip route add 224.0.0.0/4 dev " + nif.getName() + ")");
        }
        if (routed != null && !routed.get().equals(nif.getName())) {
            throw new SocketException("multicast group " + g.groupAddress().getHostAddress() + " is routed to "
                    + routed.get() + ", not to the rail's interface " + nif.getName()
                    + ", so multicast is unavailable on this rail (to allow it: ip route add 224.0.0.0/4 dev " + nif.getName() + ")");
        }
        InetSocketAddress group = new InetSocketAddress(g.groupAddress(), g.port());
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, receiveBufferBytes);
            ch.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            ch.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            ch.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            ch.bind(group);
            MembershipKey key = ch.join(g.groupAddress(), nif);
            ch.configureBlocking(false);
            String d = "multicast group " + g.groupAddress().getHostAddress() + ":" + g.port() + " on " + nif.getName()
                    + " (" + g.railAddress().getHostAddress() + ")";
            return new MulticastEndpoint(ch, key, group, d);
        } catch (IOException e) {
            closeQuietly(ch, e);
            throw new IOException("cannot join " + g.groupAddress().getHostAddress() + ":" + g.port() + " on "
                    + nif.getName() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(ch, e);
            throw e;
        }
    }

    private static void closeQuietly(DatagramChannel ch, Exception failure) {
        try {
            ch.close();
        } catch (IOException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    @Override
    public boolean send(ByteBuffer datagram) throws IOException {
        return channel.send(datagram, group) > 0;
    }

    @Override
    public boolean receive(ByteBuffer into) throws IOException {
        into.clear();
        if (channel.receive(into) == null) {
            return false;
        }
        into.flip();
        return true;
    }

    /** Waits in the kernel for a datagram (millisecond resolution, at least 1 ms unless woken). */
    @Override
    public void await(long maxWaitNs) {
        try {
            selector.select(Math.max(1, maxWaitNs / 1_000_000));
            selector.selectedKeys().clear();
        } catch (IOException | java.nio.channels.ClosedSelectorException e) {
            // closed under us (fail-over or close): the caller's next receive says so or finds nothing
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    /** The socket receive buffer the kernel actually granted. */
    public int receiveBufferBytes() throws IOException {
        return channel.getOption(StandardSocketOptions.SO_RCVBUF);
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        try {
            membership.drop();
            selector.close();
            channel.close();
        } catch (IOException e) {
            // closing a datagram socket cannot lose data; nothing to report
        }
    }
}
