package io.railcoll.systemtest;

import io.railcoll.bootstrap.Handshake;
import io.railcoll.transport.mcast.ChecksumKind;
import io.railcoll.transport.mcast.ControlMux;
import io.railcoll.transport.mcast.MulticastBroadcast;
import io.railcoll.transport.mcast.MulticastCounters.Counter;
import io.railcoll.transport.mcast.MulticastGroup;
import io.railcoll.transport.mcast.MulticastSettings;
import io.railcoll.transport.mcast.TcpControlLink;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One member process of {@link MulticastBench}: after the LISTEN/PEERS exchange of {@link MulticastMember}, runs
 * each configuration {@code mode:communicator:channels:bytes:iterations:samples} (';'-separated), rank 0 the root:
 * warm-up, then per sample a flush (a barrier), {@code iterations} broadcasts, a flush; prints
 * {@code RESULT mode members channels bytes medianUs minUs failedOver retransmissions syncs}. Modes:
 * {@code reliable} (CRC32C), {@code additive}, {@code unreliable}, {@code tree} (the group on a rail without a
 * multicast route, so the protocol fails over at once and every broadcast takes the point-to-point tree).
 * Args: rank, member ranks, multicast rail address, rail address without multicast route, configurations.
 */
public final class MulticastBenchMember {
    private MulticastBenchMember() {
    }

    public static void main(String[] args) throws Exception {
        int rank = Integer.parseInt(args[0]);
        int[] ranks = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        InetAddress mcRail = InetAddress.getByName(args[2]);
        InetAddress plainRail = InetAddress.getByName(args[3]);
        String job = System.getenv("RAILCOLL_JOB_ID");
        Handshake hs = new Handshake(job, System.getenv("RAILCOLL_SECRET").getBytes(StandardCharsets.UTF_8));
        try {
            TcpControlLink.Listening listening = TcpControlLink.listen(hs, rank, new InetSocketAddress(mcRail, 0));
            System.out.println("LISTEN " + listening.address().getPort());
            System.out.flush();
            String peers = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            Map<Integer, InetSocketAddress> endpoints = new HashMap<>();
            for (String p : peers.substring(6).split(",")) {
                int at = p.indexOf('@');
                int colon = p.lastIndexOf(':');
                endpoints.put(Integer.parseInt(p.substring(0, at)),
                        new InetSocketAddress(InetAddress.getByName(p.substring(at + 1, colon)), Integer.parseInt(p.substring(colon + 1))));
            }
            try (TcpControlLink link = listening.connect(endpoints, 60_000)) {
                // One channel per configuration: members leave one group and open the next at different times.
                ControlMux mux = new ControlMux(link);
                for (String config : args[4].split(";")) {
                    String[] f = config.split(":");
                    String mode = f[0];
                    int comm = Integer.parseInt(f[1]);
                    int channels = Integer.parseInt(f[2]);
                    int bytes = Integer.parseInt(f[3]);
                    int iterations = Integer.parseInt(f[4]);
                    int samples = Integer.parseInt(f[5]);
                    MulticastSettings s = MulticastSettings.defaults().withChannels(channels)
                            .withTimeouts(2_000_000L, 200_000_000L, 120_000_000_000L);
                    s = switch (mode) {
                        case "unreliable" -> s.withReliability(false, ChecksumKind.NONE);
                        case "additive" -> s.withReliability(true, ChecksumKind.ADDITIVE);
                        default -> s;
                    };
                    InetAddress rail = mode.equals("tree") ? plainRail : mcRail;
                    ControlMux.Channel channel = mux.channel(comm);
                    MulticastBroadcast b = MulticastBroadcast.open(MulticastGroup.derive(job, comm, ranks, rank, rail), s, channel, line -> { });
                    double[] us = new double[samples];
                    try (channel; b) {
                        MemorySegment buf = MemorySegment.ofArray(new byte[bytes]);
                        for (int i = 0; i < Math.max(20, Math.min(200, iterations)); i++) {
                            b.broadcast(buf, ranks[0]);
                        }
                        for (int k = 0; k < samples; k++) {
                            b.flush();
                            long t0 = System.nanoTime();
                            for (int i = 0; i < iterations; i++) {
                                b.broadcast(buf, ranks[0]);
                            }
                            b.flush();
                            us[k] = (System.nanoTime() - t0) / 1000.0 / iterations;
                        }
                    }
                    Arrays.sort(us);
                    System.out.println(String.format(Locale.ROOT, "RESULT %s %d %d %d %.2f %.2f %b %d %d", mode, ranks.length,
                            channels, bytes, us[samples / 2], us[0], b.failedOver(), b.counters().get(Counter.RETRANSMISSIONS),
                            b.counters().get(Counter.SYNCS)));
                    System.err.println("rank " + rank + " " + mode + " " + bytes + ": " + b.counters());
                    System.out.flush();
                }
            }
            System.out.println("DONE " + rank + " bench");
        } catch (Throwable t) {
            System.out.println("FAILED " + rank + " " + t.getClass().getName() + ": " + t.getMessage());
            System.out.flush();
            System.exit(1);
        }
    }
}
