package io.railcoll.bootstrap;

import io.railcoll.HandshakeRejectedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rendezvous over real loopback sockets: members join, strangers and other jobs are refused. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RendezvousTest {
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(20);
    /** One thread per joining rank: the common pool may have a single thread on a two-core machine. */
    private static final java.util.concurrent.Executor POOL = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r);
        t.setDaemon(true);
        return t;
    });
    private final Handshake job = new Handshake("job-a", "secret-a".getBytes(StandardCharsets.UTF_8));

    @Test
    void membersLearnEveryRecordAndTheirPlacement() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RendezvousServer server = start(3, log)) {
            List<CompletableFuture<JobTable>> tables = List.of(
                    CompletableFuture.supplyAsync(() -> join(server, job, 0, "nodeA"), POOL),
                    CompletableFuture.supplyAsync(() -> join(server, job, 1, "nodeB"), POOL),
                    CompletableFuture.supplyAsync(() -> join(server, job, 2, "nodeA"), POOL));
            for (CompletableFuture<JobTable> f : tables) {
                JobTable t = f.get(30, TimeUnit.SECONDS);
                assertEquals(3, t.size());
                assertEquals(2, t.placement().nodeCount());
                assertEquals(0, t.placement().nodeOf(2));
                assertEquals(1, t.placement().localRankOf(2));
                assertEquals(1, t.placement().nodeOf(1));
            }
        }
    }

    /**
     * Every rank's processor count travels with its record, so every member gets the same verdict on whether every
     * rank has a processor of its own (decision 0196), also when one rank saw fewer processors than the others.
     */
    @Test
    void everyMemberGetsTheSameProcessorVerdict() throws Exception {
        for (int fewest : new int[] {1, 2}) {
            try (RendezvousServer server = start(3, new ByteArrayOutputStream())) {
                int least = fewest;
                List<CompletableFuture<JobTable>> tables = List.of(
                        CompletableFuture.supplyAsync(() -> join(server, job, 0, "nodeA", 8), POOL),
                        CompletableFuture.supplyAsync(() -> join(server, job, 1, "nodeB", 8), POOL),
                        CompletableFuture.supplyAsync(() -> join(server, job, 2, "nodeA", least), POOL));
                for (CompletableFuture<JobTable> f : tables) {
                    JobTable t = f.get(30, TimeUnit.SECONDS);
                    assertEquals(List.of(8, 8, least), t.ranks().stream().map(RankRecord::processors).toList());
                    // nodeA has 2 ranks: rank 2's 1 processor is outnumbered there, 2 are not.
                    assertEquals(least >= 2, t.everyRankHasAProcessor(), "rank 2 sees " + least + " processors");
                }
            }
        }
    }

    @Test
    void aStrangerWithoutTheSecretIsRefusedAndTheJobStillForms() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RendezvousServer server = start(2, log)) {
            Handshake stranger = new Handshake("job-a", "guessed".getBytes(StandardCharsets.UTF_8));
            HandshakeRejectedException e = assertThrows(HandshakeRejectedException.class,
                    () -> join(server, stranger, 0, "nodeA"));
            assertTrue(e.getMessage().contains("wrong job secret"), e.getMessage());

            Handshake otherJob = new Handshake("job-b", "secret-a".getBytes(StandardCharsets.UTF_8));
            e = assertThrows(HandshakeRejectedException.class, () -> join(server, otherJob, 0, "nodeA"));
            assertTrue(e.getMessage().contains("belongs to job job-a"), e.getMessage());

            // Garbage that is not a handshake at all.
            try (Socket s = new Socket()) {
                s.connect(server.address());
                s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                s.setSoTimeout(5000);
                while (s.getInputStream().read() >= 0) {
                    // drain until the server closes on us
                }
            }

            var a = CompletableFuture.supplyAsync(() -> join(server, job, 0, "n"), POOL);
            var b = CompletableFuture.supplyAsync(() -> join(server, job, 1, "n"), POOL);
            assertEquals(2, a.get(30, TimeUnit.SECONDS).size());
            assertEquals(2, b.get(30, TimeUnit.SECONDS).size());
        }
        String refusals = log.toString(StandardCharsets.UTF_8);
        assertTrue(refusals.contains("wrong job secret"), refusals);
        assertTrue(refusals.contains("not a railcoll peer"), refusals);
    }

    @Test
    void missingRanksFailTheRendezvousWithTheirNumbers() throws Exception {
        try (RendezvousServer server = RendezvousServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 3, job,
                TimeUnit.SECONDS.toNanos(2), new PrintStream(new ByteArrayOutputStream()))) {
            CompletableFuture<JobTable> only = CompletableFuture.supplyAsync(() -> join(server, job, 1, "n"), POOL);
            Exception e = assertThrows(Exception.class, () -> only.get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("missing ranks [0, 2]"), e.getCause().getMessage());
        }
    }

    private static RendezvousServer start(int size, ByteArrayOutputStream log) throws Exception {
        return RendezvousServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), size,
                new Handshake("job-a", "secret-a".getBytes(StandardCharsets.UTF_8)), TIMEOUT,
                new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private static JobTable join(RendezvousServer server, Handshake hs, int rank, String node) {
        return join(server, hs, rank, node, 0);
    }

    private static JobTable join(RendezvousServer server, Handshake hs, int rank, String node, int processors) {
        RankRecord rec = new RankRecord(rank, sizeOf(server), 1000 + rank, node,
                List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000 + rank)), processors, 0);
        return RendezvousClient.exchange(server.address(), hs, rec, TIMEOUT);
    }

    private static int sizeOf(RendezvousServer server) {
        return server.expectedSize();
    }
}
