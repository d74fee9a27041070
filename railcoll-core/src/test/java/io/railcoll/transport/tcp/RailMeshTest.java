package io.railcoll.transport.tcp;

import io.railcoll.HandshakeRejectedException;
import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.JobTable;
import io.railcoll.bootstrap.RankRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rail mesh over real loopback sockets: every pair, every rail, and strangers refused without harm. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RailMeshTest {
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(20);

    @Test
    void threeRanksTwoRailsConnectAndAStrangerIsRefused() throws Exception {
        Handshake job = new Handshake("job-m", "right".getBytes(StandardCharsets.UTF_8));
        int size = 3;
        int rails = 2;
        RailListeners[] listeners = new RailListeners[size];
        RankRecord[] records = new RankRecord[size];
        for (int r = 0; r < size; r++) {
            listeners[r] = RailListeners.open(List.of(InetAddress.getByName("127.0.1." + (r + 1)),
                    InetAddress.getByName("127.0.2." + (r + 1))), 16);
            records[r] = new RankRecord(r, size, 100 + r, "n" + r, listeners[r].endpoints());
        }
        JobTable table = JobTable.of(records);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream logStream = new PrintStream(log, true, StandardCharsets.UTF_8);

        // Rank 0 starts accepting first; a stranger knocks on its rail 1 before anyone else connects.
        Handshake stranger = new Handshake("job-m", "wrong".getBytes(StandardCharsets.UTF_8));
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            @SuppressWarnings("unchecked")
            CompletableFuture<SocketChannel[][]>[] meshes = new CompletableFuture[size];
            meshes[0] = CompletableFuture.supplyAsync(
                    () -> RailMesh.connect(0, table, listeners[0], job, TIMEOUT, logStream), pool);
            Exception refused;
            try (Socket s = new Socket(records[0].railEndpoints().get(1).getAddress(), records[0].railEndpoints().get(1).getPort())) {
                s.setSoTimeout(10_000);
                stranger.connect(s, Handshake.Purpose.RAIL, 2, 1);
                refused = null;
            } catch (Exception e) {
                refused = e;
            }
            assertNotNull(refused, "the stranger must be refused");
            assertTrue(refused instanceof HandshakeRejectedException && refused.getMessage().contains("wrong job secret"),
                    refused.toString());
            for (int r = 1; r < size; r++) {
                int rank = r;
                meshes[r] = CompletableFuture.supplyAsync(
                        () -> RailMesh.connect(rank, table, listeners[rank], job, TIMEOUT, logStream), pool);
            }
            for (int r = 0; r < size; r++) {
                SocketChannel[][] ch = meshes[r].get(30, TimeUnit.SECONDS);
                for (int peer = 0; peer < size; peer++) {
                    for (int rail = 0; rail < rails; rail++) {
                        if (peer == r) {
                            assertEquals(null, ch[peer][rail]);
                            continue;
                        }
                        SocketChannel c = ch[peer][rail];
                        assertNotNull(c, "rank " + r + " has no rail " + rail + " to rank " + peer);
                        // Each rail connection leaves from this rank's own address on that rail.
                        String local = ((java.net.InetSocketAddress) c.getLocalAddress()).getAddress().getHostAddress();
                        assertEquals("127.0." + (rail + 1) + "." + (r + 1), local);
                        c.close();
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            for (RailListeners l : listeners) {
                l.close();
            }
        }
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("wrong job secret"), log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aRankOfAnotherJobCannotJoin() throws Exception {
        RailListeners l = RailListeners.open(List.of(InetAddress.getLoopbackAddress()), 4);
        try (l; Socket s = new Socket()) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Handshake mine = new Handshake("job-a", "k".getBytes(StandardCharsets.UTF_8));
                var accept = pool.submit(() -> {
                    try (Socket in = l.server(0).socket().accept()) {
                        in.setSoTimeout(10_000);
                        return mine.accept(in, 4, 1);
                    }
                });
                s.connect(l.endpoints().get(0), 5000);
                s.setSoTimeout(10_000);
                Handshake other = new Handshake("job-b", "k".getBytes(StandardCharsets.UTF_8));
                HandshakeRejectedException e = assertThrows(HandshakeRejectedException.class,
                        () -> other.connect(s, Handshake.Purpose.RAIL, 1, 0));
                assertTrue(e.getMessage().contains("belongs to job job-a"), e.getMessage());
                Exception acceptorSide = assertThrows(Exception.class, () -> accept.get(30, TimeUnit.SECONDS));
                assertTrue(acceptorSide.getCause() instanceof HandshakeRejectedException, acceptorSide.toString());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
