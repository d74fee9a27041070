package io.railcoll.launcher;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The plain emulated cluster: every rail of every node is its own loopback address, rail r of node n being
 * 127.0.(r+1).(n+1), so each rail's traffic is separable and countable though it all crosses one kernel.
 * Nothing to set up or tear down (Linux routes all of 127.0.0.0/8 to the loopback device).
 */
public final class LoopbackNetwork implements NodeNetwork {
    private final int nodes;
    private final int rails;

    public LoopbackNetwork(int nodes, int rails) {
        if (nodes < 1 || nodes > 254 || rails < 1 || rails > 254) {
            throw new IllegalArgumentException("loopback emulation supports 1..254 nodes and rails, got " + nodes
                    + " nodes, " + rails + " rails");
        }
        this.nodes = nodes;
        this.rails = rails;
    }

    @Override
    public InetAddress railAddress(int node, int rail) {
        if (node < 0 || node >= nodes || rail < 0 || rail >= rails) {
            throw new IllegalArgumentException("no rail " + rail + " on node " + node);
        }
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, (byte) (rail + 1), (byte) (node + 1)});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public List<String> commandPrefix(int node) {
        return List.of();
    }

    @Override
    public InetSocketAddress rankServedRendezvous() {
        return null;
    }

    @Override
    public String describe() {
        return "plain loopback emulation (rail r of node n = 127.0.(r+1).(n+1), no rate limit)";
    }

    @Override
    public void close() {
        // nothing was set up
    }
}
