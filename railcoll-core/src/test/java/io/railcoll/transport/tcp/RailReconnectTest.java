package io.railcoll.transport.tcp;

import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.JobTable;
import io.railcoll.bootstrap.RankRecord;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reconnection of failed lanes over real loopback sockets, with the real handshake and the listeners kept open:
 * two ranks, two rails. A lane is broken by shutting one end's output (the peer reads the end of its stream, as
 * after a reset); the higher rank dials it again, both ranks take the new connection into use and say so, and later
 * puts are striped onto it again, every byte in place, none twice. Then the same lane fails again while frames are
 * in flight on it (a second generation replaces the first reconnection), and a stranger on the kept listener is
 * refused.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RailReconnectTest {
    private static final long DRIVE_LIMIT_NS = TimeUnit.SECONDS.toNanos(30);

    private final ByteArrayOutputStream log0 = new ByteArrayOutputStream();
    private final ByteArrayOutputStream log1 = new ByteArrayOutputStream();
    private final Sink sink0 = new Sink();
    private final Sink sink1 = new Sink();
    private final List<AutoCloseable> open = new ArrayList<>();
    private TcpRailTransport t0;
    private TcpRailTransport t1;
    private JobTable table;
    private final Handshake job = new Handshake("job-reconnect", "secret".getBytes(StandardCharsets.UTF_8));

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    @Test
    void aBrokenLaneIsReconnectedAndCarriesStripedPutsAgain() throws Exception {
        start();
        put(0, 8000, 1); // striped over both lanes
        drive(() -> sink1.complete(1, 8000));

        cutLane0();
        drive(() -> t0.counters().failures().size() == 1 && t1.counters().failures().size() == 1);
        drive(() -> t0.counters().recoveries().size() == 1 && t1.counters().recoveries().size() == 1);
        String both = text(log0) + text(log1);
        assertTrue(text(log0).contains("rank 0: rail 0 to rank 1 is back"), both);
        assertTrue(text(log1).contains("rank 1: rail 0 to rank 0 is back"), both);
        assertTrue(text(log1).contains("; reconnecting it"), both);
        assertEquals(0b11, t0.lanes.peer(1).liveMask());
        assertEquals(0b11, t1.lanes.peer(0).liveMask());
        assertTrue(t1.lanes.peer(0).lane(0).generation >= 2, "a new generation of lane 0");

        long rail0Before = t0.counters().bytesSent(0);
        put(1, 8000, 2);
        drive(() -> sink1.complete(2, 8000));
        assertTrue(t0.counters().bytesSent(0) - rail0Before >= 4000, "half the striped put went on rail 0 again");
        assertEquals(1, sink1.deliveries(2), "the put's fragments arrived once each");
    }

    @Test
    void aReconnectedLaneThatFailsWithFramesInFlightIsReplayedAndReconnectedAgain() throws Exception {
        start();
        cutLane0();
        drive(() -> t1.counters().recoveries().size() == 1 && t0.counters().recoveries().size() == 1);
        int firstGeneration = t1.lanes.peer(0).lane(0).generation;

        // Frames written on the new connection, then that connection breaks before or after they arrive: whatever
        // arrived counts once, the rest is re-sent on rail 1 with the new connection named as their origin.
        for (int tag = 3; tag < 13; tag++) {
            put(0, 3000, tag);
        }
        cutLane0();
        drive(() -> t1.counters().recoveries().size() == 2 && t0.counters().recoveries().size() == 2);
        for (int tag = 3; tag < 13; tag++) {
            int t = tag;
            drive(() -> sink1.complete(t, 3000));
            assertEquals(1, sink1.deliveries(tag), "tag " + tag + " delivered once");
            assertArrayEquals(bytes(3000, tag), sink1.bytes(tag, 3000));
        }
        assertTrue(t1.lanes.peer(0).lane(0).generation > firstGeneration, "each reconnection is a new generation");
    }

    @Test
    void aStrangerOnAKeptListenerIsRefused() throws Exception {
        start();
        Handshake stranger = new Handshake("job-reconnect", "wrong".getBytes(StandardCharsets.UTF_8));
        var at = table.rank(0).railEndpoints().get(1);
        try (Socket s = new Socket(at.getAddress(), at.getPort())) {
            s.setSoTimeout(10_000);
            Exception e = assertThrows(Exception.class, () -> stranger.connect(s, Handshake.Purpose.RAIL, 1, 64 * 5 + 1));
            assertTrue(e.getMessage().contains("wrong job secret"), e.toString());
        }
        // A peer of the job claiming a start-up connection after start-up is refused too.
        try (Socket s = new Socket(at.getAddress(), at.getPort())) {
            s.setSoTimeout(10_000);
            Exception e = assertThrows(Exception.class, () -> job.connect(s, Handshake.Purpose.RAIL, 1, 1));
            assertTrue(e.getMessage().contains("start-up connection after start-up"), e.toString());
        }
        assertEquals(0b11, t0.lanes.peer(1).liveMask(), "nothing the stranger did touched the lanes");
    }

    // ---- harness ----

    private void start() throws Exception {
        RailListeners[] listeners = new RailListeners[2];
        RankRecord[] records = new RankRecord[2];
        for (int r = 0; r < 2; r++) {
            listeners[r] = RailListeners.open(List.of(InetAddress.getByName("127.0.1." + (r + 1)),
                    InetAddress.getByName("127.0.2." + (r + 1))), 16);
            records[r] = new RankRecord(r, 2, 100 + r, "n" + r, listeners[r].endpoints());
        }
        table = JobTable.of(records);
        PrintStream p0 = new PrintStream(log0, true, StandardCharsets.UTF_8);
        PrintStream p1 = new PrintStream(log1, true, StandardCharsets.UTF_8);
        // Each rank on a thread of its own: they wait for each other.
        var pool = java.util.concurrent.Executors.newCachedThreadPool();
        open.add(pool::shutdownNow);
        var m0 = CompletableFuture.supplyAsync(() -> RailMesh.connect(0, table, listeners[0], job, DRIVE_LIMIT_NS, p0), pool);
        var m1 = CompletableFuture.supplyAsync(() -> RailMesh.connect(1, table, listeners[1], job, DRIVE_LIMIT_NS, p1), pool);
        RailSettings settings = new RailSettings(2, 1, 1024, TimeUnit.SECONDS.toNanos(4), 0);
        t0 = TcpRailTransport.start(0, m0.get(30, TimeUnit.SECONDS), settings, sink0, p0,
                RailReconnector.keep(0, table, listeners[0], job, p0));
        open.add(t0);
        t1 = TcpRailTransport.start(1, m1.get(30, TimeUnit.SECONDS), settings, sink1, p1,
                RailReconnector.keep(1, table, listeners[1], job, p1));
        open.add(t1);
    }

    /** Rank 0 stops writing on lane 0: rank 1 reads the end of the stream, gives the lane up, and closes its end. */
    private void cutLane0() throws IOException {
        t0.lanes.peer(1).lane(0).channel.shutdownOutput();
    }

    private void put(int lane0Or1, int length, int tag) {
        FrameHeader meta = new FrameHeader();
        meta.seq = 1;
        meta.collective = 1;
        meta.tag = tag;
        meta.blockBytes = length;
        t0.put(1, meta, MemorySegment.ofArray(bytes(length, tag)), 0, length, new SendCompletion());
    }

    private static byte[] bytes(int length, int tag) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + tag * 7);
        }
        return b;
    }

    /** Drives both transports (the owners' part; the keepers and the reconnectors run on their own) until {@code until}. */
    private void drive(BooleanSupplier until) {
        long end = System.nanoTime() + DRIVE_LIMIT_NS;
        while (System.nanoTime() - end < 0) {
            t0.poll();
            t1.poll();
            if (until.getAsBoolean()) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("condition not reached; rank 1 still reconnecting: " + t1.reconnector().pending()
                + "; rank 0 refusals " + t0.reconnector().refusals().total() + "; rank 0 log:\n" + text(log0) + "\nrank 1 log:\n" + text(log1));
    }

    private static String text(ByteArrayOutputStream b) {
        return b.toString(StandardCharsets.UTF_8);
    }

    /** Accepts every frame into per-tag buffers and counts the bytes and deliveries of each tag. */
    private static final class Sink implements FrameSink {
        private final ByteBuffer[] byTag = new ByteBuffer[16];
        private final long[] bytes = new long[16];
        private final int[] frames = new int[16];
        private final int[] puts = new int[16];

        Sink() {
            for (int i = 0; i < byTag.length; i++) {
                byTag[i] = ByteBuffer.allocate(1 << 16);
            }
        }

        synchronized boolean complete(int tag, int length) {
            return bytes[tag] == length;
        }

        /** How many times the tag's put was completed: more than 1 means some fragment arrived twice. */
        synchronized int deliveries(int tag) {
            return bytes[tag] > 0 && bytes[tag] % puts[tag] == 0 ? (int) (bytes[tag] / puts[tag]) : -1;
        }

        byte[] bytes(int tag, int length) {
            byte[] out = new byte[length];
            byTag[tag].duplicate().clear().get(out);
            return out;
        }

        @Override
        public java.lang.foreign.MemorySegment onDataHeader(int rail, FrameHeader h) {
            h.landingOffset = h.fragOffset;
            return java.lang.foreign.MemorySegment.ofBuffer(byTag[h.tag].duplicate().clear());
        }

        @Override
        public synchronized void onDataComplete(int rail, FrameHeader h) {
            bytes[h.tag] += h.fragLength;
            frames[h.tag]++;
            puts[h.tag] = (int) h.putLength;
        }

        @Override
        public void onAbort(int peer, String reason) {
        }

        @Override
        public void onGoodbye(int peer, int rail) {
        }

        @Override
        public void onPeerLost(int peer, int rail, String cause) {
            throw new AssertionError("rank " + peer + " lost: " + cause);
        }
    }
}
