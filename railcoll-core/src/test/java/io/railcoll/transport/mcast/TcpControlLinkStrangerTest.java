package io.railcoll.transport.mcast;

import io.railcoll.bootstrap.Handshake;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Strangers at the multicast control listener (issue 26 item 4): a silent connection and one sending garbage reach
 * rank 1's listener before rank 0 does; the control mesh still forms, and the garbage is refused and counted.
 * Before its handshakes ran through {@code HandshakeAcceptor}, the garbage failed the whole mesh.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpControlLinkStrangerTest {
    @Test
    void strangersAreRefusedAndTheMeshStillForms() throws Exception {
        Handshake job = new Handshake("job-ctl", "secret".getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream logStream = new PrintStream(log, true, StandardCharsets.UTF_8);
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        TcpControlLink.Listening l0 = TcpControlLink.listen(job, 0, any, logStream);
        TcpControlLink.Listening l1 = TcpControlLink.listen(job, 1, any, logStream);
        Map<Integer, InetSocketAddress> endpoints = Map.of(0, l0.address(), 1, l1.address());
        try (Socket silent = new Socket(l1.address().getAddress(), l1.address().getPort());
             Socket garbage = new Socket(l1.address().getAddress(), l1.address().getPort())) {
            garbage.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            garbage.getOutputStream().flush();
            // Own threads: the common pool may have a single worker on a 2-core host, and both calls block.
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            CompletableFuture<TcpControlLink> one = CompletableFuture.supplyAsync(() -> connect(l1, endpoints), pool);
            Thread.sleep(200); // the strangers are queued first
            CompletableFuture<TcpControlLink> zero = CompletableFuture.supplyAsync(() -> connect(l0, endpoints), pool);
            pool.shutdown();
            try (TcpControlLink a = zero.get(30, TimeUnit.SECONDS); TcpControlLink b = one.get(30, TimeUnit.SECONDS)) {
                a.send(1, ByteBuffer.wrap(new byte[] {42}));
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int[] got = {-1};
                while (got[0] < 0 && System.nanoTime() < until) {
                    b.poll((from, m) -> got[0] = m.get(0));
                    Thread.sleep(5);
                }
                assertEquals(42, got[0], "a control message crossed the mesh");
            }
            assertTrue(l1.refusals().total() >= 1, "the garbage was refused and counted: " + log);
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("not a railcoll peer"), log.toString());
        }
    }

    private static TcpControlLink connect(TcpControlLink.Listening l, Map<Integer, InetSocketAddress> endpoints) {
        try {
            return l.connect(endpoints, 20_000);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
