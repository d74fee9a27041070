package io.railcoll.transport.tcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * One listening socket per rail, bound to that rail's local address on an ephemeral port; opened before the
 * rendezvous so the ports can be published. Closed once every peer has connected (or on failure).
 */
public final class RailListeners implements AutoCloseable {
    private final List<ServerSocketChannel> servers;

    private RailListeners(List<ServerSocketChannel> servers) {
        this.servers = servers;
    }

    /** The least listen backlog: room for a burst of connections (a flood, or every peer at once) while they drain. */
    public static final int MIN_BACKLOG = 1024;

    public static RailListeners open(List<InetAddress> railAddresses, int backlog) throws IOException {
        backlog = Math.max(MIN_BACKLOG, backlog);
        List<ServerSocketChannel> list = new ArrayList<>();
        try {
            for (InetAddress a : railAddresses) {
                ServerSocketChannel s = ServerSocketChannel.open();
                list.add(s);
                s.bind(new InetSocketAddress(a, 0), backlog);
            }
        } catch (IOException e) {
            for (ServerSocketChannel s : list) {
                s.close();
            }
            throw new IOException("cannot listen on rail addresses " + railAddresses + ": " + e.getMessage(), e);
        }
        return new RailListeners(list);
    }

    public int rails() {
        return servers.size();
    }

    public ServerSocketChannel server(int rail) {
        return servers.get(rail);
    }

    public List<InetSocketAddress> endpoints() throws IOException {
        List<InetSocketAddress> eps = new ArrayList<>();
        for (ServerSocketChannel s : servers) {
            eps.add((InetSocketAddress) s.getLocalAddress());
        }
        return eps;
    }

    @Override
    public void close() {
        for (ServerSocketChannel s : servers) {
            try {
                s.close();
            } catch (IOException ignored) {
                // a listener that fails to close holds no peer state
            }
        }
    }
}
