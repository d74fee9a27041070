package io.railcoll.systemtest;

import io.railcoll.bootstrap.Handshake;
import io.railcoll.transport.mcast.MulticastBroadcast;
import io.railcoll.transport.mcast.MulticastGroup;
import io.railcoll.transport.mcast.MulticastSettings;
import io.railcoll.transport.mcast.TcpControlLink;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * One member process of a multicast broadcast test (run in a node's namespace or on loopback). Talks to the test
 * over stdin/stdout:
 * <pre>
 *   -> LISTEN port                        its control-link port on the rail address
 *   <- PEERS rank@host:port,...           every member's control endpoint
 *   -> DONE rank n failedOver counters    every broadcast arrived byte for byte
 *   -> FAILED rank ExceptionClass: msg    or why not
 * </pre>
 * Args: rank, member ranks (comma list), rail address, communicator id, script seed, sizes (comma list), and the
 * broadcast index at which to die like kill -9 (-1: never). Job id and secret come from RAILCOLL_JOB_ID and
 * RAILCOLL_SECRET, multicast settings from RAILCOLL_MCAST_* (see {@link MulticastSettings#fromEnvironment}).
 */
public final class MulticastMember {
    private MulticastMember() {
    }

    static byte pattern(long seq, int root, int i) {
        return (byte) (seq * 131 + root * 17 + i * 7 + (i >>> 8) * 3 + (i >>> 16));
    }

    /** The roots of the script: drawn from the seed, the same in every member. */
    static int[] roots(int[] ranks, int count, long seed) {
        Random r = new Random(seed);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = ranks[r.nextInt(ranks.length)];
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        int rank = Integer.parseInt(args[0]);
        int[] ranks = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        InetAddress rail = InetAddress.getByName(args[2]);
        int comm = Integer.parseInt(args[3]);
        long seed = Long.parseLong(args[4]);
        int[] sizes = Arrays.stream(args[5].split(",")).mapToInt(Integer::parseInt).toArray();
        int dieAt = Integer.parseInt(args[6]);
        String job = System.getenv("RAILCOLL_JOB_ID");
        Handshake hs = new Handshake(job, System.getenv("RAILCOLL_SECRET").getBytes(StandardCharsets.UTF_8));
        try {
            TcpControlLink.Listening listening = TcpControlLink.listen(hs, rank, new InetSocketAddress(rail, 0));
            System.out.println("LISTEN " + listening.address().getPort());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String peers = in.readLine();
            if (peers == null || !peers.startsWith("PEERS ")) {
                throw new IllegalStateException("expected PEERS, got " + peers);
            }
            Map<Integer, InetSocketAddress> endpoints = new HashMap<>();
            for (String p : peers.substring(6).split(",")) {
                int at = p.indexOf('@');
                int colon = p.lastIndexOf(':');
                endpoints.put(Integer.parseInt(p.substring(0, at)),
                        new InetSocketAddress(InetAddress.getByName(p.substring(at + 1, colon)), Integer.parseInt(p.substring(colon + 1))));
            }
            MulticastSettings settings = MulticastSettings.fromEnvironment(System.getenv());
            int[] roots = roots(ranks, sizes.length, seed);
            // Received buffers are overwritten with a sentinel after each check, as a user reusing them would, and
            // checked again at the end (after the other members finished too): a datagram or tree chunk landing
            // after delivery would show.
            java.util.List<MemorySegment> delivered = new java.util.ArrayList<>();
            long deliveredBytes = 0;
            try (TcpControlLink link = listening.connect(endpoints, 30_000)) {
                MulticastBroadcast b = MulticastBroadcast.open(MulticastGroup.derive(job, comm, ranks, rank, rail), settings, link,
                        line -> System.out.println("LOG " + line));
                try (b) {
                    for (int i = 0; i < sizes.length; i++) {
                        if (i == dieAt) {
                            System.out.flush();
                            Runtime.getRuntime().halt(137);
                        }
                        MemorySegment buf = MemorySegment.ofArray(new byte[sizes[i]]);
                        if (roots[i] == rank) {
                            for (int k = 0; k < sizes[i]; k++) {
                                buf.set(ValueLayout.JAVA_BYTE, k, pattern(i, rank, k));
                            }
                        }
                        b.broadcast(buf, roots[i]);
                        for (int k = 0; k < sizes[i]; k++) {
                            if (buf.get(ValueLayout.JAVA_BYTE, k) != pattern(i, roots[i], k)) {
                                throw new AssertionError("broadcast #" + i + " (" + sizes[i] + " bytes from rank " + roots[i]
                                        + ") differs at byte " + k);
                            }
                        }
                        if (roots[i] != rank && deliveredBytes + sizes[i] <= 64 << 20) {
                            buf.fill((byte) 0x5a);
                            delivered.add(buf);
                            deliveredBytes += sizes[i];
                        }
                    }
                } finally {
                    System.out.println("COUNTERS " + rank + " failedOver=" + b.failedOver() + " " + b.counters());
                }
            }
            for (MemorySegment d : delivered) {
                for (long k = 0; k < d.byteSize(); k++) {
                    if (d.get(ValueLayout.JAVA_BYTE, k) != 0x5a) {
                        throw new AssertionError("a delivered broadcast's buffer was written after delivery, at byte " + k);
                    }
                }
            }
            System.out.println("DONE " + rank + " " + sizes.length);
            System.out.flush();
        } catch (Throwable t) {
            System.out.println("FAILED " + rank + " " + t.getClass().getName() + ": " + t.getMessage());
            System.out.flush();
            System.exit(1);
        }
    }
}
