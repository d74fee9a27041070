package io.railcoll.launcher;

import io.railcoll.launcher.testbed.NetnsTestbed;
import io.railcoll.launcher.testbed.TestbedSpec;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real emulated cluster: one network namespace per node, a bridge per rail, rate-limited links (see
 * {@link NetnsTestbed}). The launcher's own namespace cannot reach the rails, so rank 0 serves the rendezvous on
 * node 0's first rail. Owns its testbed: closing this removes every namespace, bridge and link.
 */
public final class NamespaceNetwork implements NodeNetwork {
    private final NetnsTestbed testbed;
    private final InetSocketAddress rendezvous;

    private NamespaceNetwork(NetnsTestbed testbed) {
        this.testbed = testbed;
        // A fresh namespace has no listener at all, so any port works; a random one keeps logs of two jobs apart.
        this.rendezvous = new InetSocketAddress(testbed.railAddress(0, 0), 20_000 + ThreadLocalRandom.current().nextInt(20_000));
    }

    /** Removes what dead launchers left behind, then builds the testbed. Throws with a clear reason when not root. */
    public static NamespaceNetwork start(TestbedSpec spec) {
        NetnsTestbed.removeLeftovers(NetnsTestbed.ALL);
        return new NamespaceNetwork(NetnsTestbed.start(spec));
    }

    public NetnsTestbed testbed() {
        return testbed;
    }

    @Override
    public InetAddress railAddress(int node, int rail) {
        return testbed.railAddress(node, rail);
    }

    @Override
    public List<String> commandPrefix(int node) {
        return testbed.commandPrefix(node);
    }

    @Override
    public InetSocketAddress rankServedRendezvous() {
        return rendezvous;
    }

    @Override
    public OptionalLong railRateBitsPerSecond() {
        return testbed.spec().rateBitsPerSecond();
    }

    @Override
    public OptionalLong railBurstBytes() {
        return testbed.spec().burstBytes();
    }

    @Override
    public String describe() {
        TestbedSpec s = testbed.spec();
        return "network-namespace testbed (" + s.nodes() + " nodes, " + s.rails() + " rails at "
                + (s.rate() == null ? "unlimited rate" : s.rate()) + (s.netem() == null ? "" : ", impairment " + s.netem() + " by " + testbed.impairmentMethod())
                + "; rail r of node n = 198.18.r.(n+1))";
    }

    @Override
    public void close() {
        testbed.close();
    }
}
