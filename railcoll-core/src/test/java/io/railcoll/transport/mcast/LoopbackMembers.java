package io.railcoll.transport.mcast;

import io.railcoll.bootstrap.Handshake;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * Several members of one group in this JVM, one thread each, over real sockets on loopback: a UDP multicast
 * endpoint per member and an authenticated TCP control mesh. Each runs a script of broadcasts (then closes,
 * which flushes) and checks every received payload byte for byte.
 */
final class LoopbackMembers {
    record Result(List<Long> delivered, MulticastCounters counters, boolean failedOver, Throwable failure) {
    }

    static final String JOB = "loopback-test-" + ProcessHandle.current().pid();

    static InetAddress groupAddress(int communicatorId) {
        return MulticastGroup.derive(JOB, communicatorId, new int[] {0}, 0, InetAddress.getLoopbackAddress()).groupAddress();
    }

    static Map<Integer, Result> run(int[] ranks, int communicatorId, MulticastSettings settings, List<Sim.Step> script,
                                    List<String> log, long timeoutMs) throws Exception {
        Handshake hs = new Handshake(JOB, "secret".getBytes(StandardCharsets.UTF_8));
        InetAddress lo = InetAddress.getLoopbackAddress();
        Map<Integer, TcpControlLink.Listening> listening = new HashMap<>();
        Map<Integer, InetSocketAddress> endpoints = new HashMap<>();
        for (int r : ranks) {
            TcpControlLink.Listening l = TcpControlLink.listen(hs, r, new InetSocketAddress(lo, 0));
            listening.put(r, l);
            endpoints.put(r, l.address());
        }
        Map<Integer, Result> results = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        List<String> syncLog = Collections.synchronizedList(log);
        for (int r : ranks) {
            threads.add(Thread.ofPlatform().name("member-" + r).start(() -> {
                List<Long> delivered = new ArrayList<>();
                MulticastCounters counters = null;
                boolean failedOver = false;
                Throwable failure = null;
                try (TcpControlLink link = listening.get(r).connect(endpoints, 20_000)) {
                    MulticastGroup g = MulticastGroup.derive(JOB, communicatorId, ranks, r, lo);
                    MulticastBroadcast b = MulticastBroadcast.open(g, settings, link, syncLog::add);
                    counters = b.counters();
                    try (b) {
                        for (int i = 0; i < script.size(); i++) {
                            Sim.Step s = script.get(i);
                            MemorySegment buf = s.rootRank() == r ? Sim.payload(i, s.rootRank(), s.length())
                                    : MemorySegment.ofArray(new byte[s.length()]);
                            b.broadcast(buf, s.rootRank());
                            check(r, i, s, buf);
                            delivered.add((long) i);
                        }
                    } finally {
                        failedOver = b.failedOver();
                    }
                } catch (Throwable t) {
                    failure = t;
                }
                results.put(r, new Result(delivered, counters, failedOver, failure));
            }));
        }
        for (Thread t : threads) {
            if (!t.join(java.time.Duration.ofMillis(timeoutMs))) {
                throw new AssertionError("member " + t.getName() + " did not finish within " + timeoutMs + " ms");
            }
        }
        return results;
    }

    private static void check(int rank, long seq, Sim.Step s, MemorySegment buf) {
        byte[] got = buf.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        for (int k = 0; k < got.length; k++) {
            if (got[k] != Sim.pattern(seq, s.rootRank(), k)) {
                throw new AssertionError("rank " + rank + ": broadcast #" + seq + " (" + s.length() + " bytes from rank "
                        + s.rootRank() + ") differs at byte " + k);
            }
        }
    }

    static long crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return c.getValue();
    }

}
