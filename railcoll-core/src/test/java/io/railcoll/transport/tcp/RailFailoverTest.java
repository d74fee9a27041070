package io.railcoll.transport.tcp;

import io.railcoll.RailDownException;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.FrameSink;
import io.railcoll.transport.SendCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acknowledgement and fail-over of the rails with an injected clock: two non-threaded transports (rank 0 sends,
 * rank 1 receives) joined by two lanes, driven by hand. Lane 1 is a plain loopback connection; lane 0 passes
 * through a {@link Link} the test controls, which can drop either direction, so a rail "goes down" without any
 * sleep: the test moves the clock past the time-out instead.
 */
class RailFailoverTest {
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ByteArrayOutputStream senderLog = new ByteArrayOutputStream();
    private final RecordingSink senderSink = new RecordingSink(64);
    private final RecordingSink receiverSink = new RecordingSink(64);
    private TcpRailTransport sender;
    private TcpRailTransport receiver;
    private final List<Link> links = new ArrayList<>();
    /** Off unless a test turns it on: most tests here are about acknowledgement-gated completion. */
    private int eagerBytes = 0;

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    @Test
    void frameLostWithItsRailIsResentOnTheOtherRail() throws IOException {
        start(false);
        links.get(0).dropForward = true;
        links.get(0).dropBackward = true;
        SendCompletion done = new SendCompletion();
        put(0, "first", done);  // round-robin: lane 0, into the black hole
        put(1, "second", done); // lane 1
        drive(() -> done.pending() == 1);
        assertEquals(List.of(1), receiverSink.tags());
        advance(TIMEOUT_NS / 2);
        assertEquals(1, done.pending(), "the frame in the black hole stays unacknowledged, so incomplete");

        advance(TIMEOUT_NS);
        drive(() -> done.pending() == 0);

        assertEquals(List.of(1, 0), receiverSink.tags(), "the lost frame arrives once, on the other rail");
        assertArrayEquals("first".getBytes(StandardCharsets.UTF_8), receiverSink.bytes(0, 5));
        assertEquals(1, sender.counters().failures().size());
        assertEquals(0, sender.counters().failures().getFirst().rail());
        String warning = senderLog.toString(StandardCharsets.UTF_8);
        assertTrue(warning.contains("rank 0: rail 0 to rank 1 failed"), warning);
        assertTrue(warning.contains("re-sending 1 unacknowledged frames"), warning);
    }

    @Test
    void frameDeliveredButNotAcknowledgedIsNotDeliveredTwice() throws IOException {
        start(false);
        links.get(0).dropBackward = true; // data arrives, acknowledgements and heartbeats do not
        SendCompletion done = new SendCompletion();
        put(0, "first", done);
        put(1, "second", done);
        drive(() -> receiverSink.delivered.size() == 2 && done.pending() == 1);

        advance(TIMEOUT_NS + TIMEOUT_NS / 2);
        drive(() -> done.pending() == 0);

        assertEquals(2, receiverSink.delivered.size(), "the re-sent copy was recognised as a duplicate");
        assertEquals(1, sender.counters().failures().size());
        // The receiver closed its end of rail 0 when it learnt from the copy that the sender gave it up.
        assertTrue(receiver.lanes.peer(0).lane(0).isBroken());
        assertEquals(0, receiverSink.lost.size(), "losing one rail is not losing the peer");
    }

    @Test
    void largePutStripedOverBothRailsSurvivesOneRailDying() throws IOException {
        start(false);
        links.get(0).dropForward = true;
        links.get(0).dropBackward = true;
        SendCompletion done = new SendCompletion();
        byte[] big = new byte[40_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31 + 7);
        }
        putBytes(5, big, done); // above the threshold: half on lane 0, half on lane 1
        drive(() -> done.pending() == 1);
        advance(TIMEOUT_NS + TIMEOUT_NS / 2);
        drive(() -> done.pending() == 0);
        assertArrayEquals(big, receiverSink.bytes(5, big.length), "both halves in place, byte for byte");
    }

    /**
     * Decision 0040: a peer silent on every rail is not given up by the rails, however long (a stopped process is not
     * a dead one); the collective waiting for it fails at its own deadline, and the transport names the peer as not
     * heard from for that message.
     */
    @Test
    void aPeerSilentOnEveryRailIsLeftToTheCollectiveDeadline() throws IOException {
        start(true);
        for (Link l : links) {
            l.dropForward = true;
            l.dropBackward = true;
        }
        SendCompletion done = new SendCompletion();
        put(0, "lost", done);
        advance(TIMEOUT_NS * 5);
        assertEquals(0, sender.counters().failures().size(), "no rail is given up while the whole peer is silent");
        assertEquals(1, done.pending(), "the frame waits for its peer");
        assertTrue(sender.silentPeers().startsWith("rank 1 (nothing on any rail for "), sender.silentPeers());
    }

    @Test
    void quietButHealthyRailsStayUpThanksToHeartbeats() throws IOException {
        start(false);
        SendCompletion done = new SendCompletion();
        advance(TIMEOUT_NS * 4);
        put(0, "late", done);
        drive(() -> done.pending() == 0);
        assertEquals(0, sender.counters().failures().size());
        assertEquals(0, receiver.counters().failures().size());
    }

    @Test
    void aPeerSilentOnEveryRailForLessThanTwoTimeoutsIsWaitedFor() throws IOException {
        start(true);
        SendCompletion done = new SendCompletion();
        for (Link l : links) {
            l.hold = true; // a stalled peer: nothing moves either way, but nothing is lost
        }
        put(0, "patience", done);
        advance(TIMEOUT_NS + TIMEOUT_NS / 2);
        for (Link l : links) {
            l.hold = false;
        }
        drive(() -> done.pending() == 0);
        assertEquals(List.of(0), receiverSink.tags());
        assertEquals(0, sender.counters().failures().size());
    }

    /**
     * The deadlock a pause could cause after a fail-over: the receiver acknowledges the re-sent copy of a frame it
     * had already delivered only after it moved on and started sending the next collective's data, so the ACK is
     * behind a frame the sender pauses on; the sender cannot post that collective before the ACK. The sender reads
     * the paused frame into memory of its own to reach the ACK, and delivers it when it posts.
     */
    @Test
    void anAckBehindAFrameOfTheNextCollectiveIsReached() throws IOException {
        start(false);
        links.get(0).dropBackward = true; // the receiver's ACKs on lane 0 are lost
        senderSink.postedSeq = 1;          // the sender is still in collective 1
        SendCompletion done = new SendCompletion();
        put(0, "first", done);             // lane 0: delivered, never acknowledged
        drive(() -> receiverSink.delivered.size() == 1);

        // The receiver finished collective 1 and sends collective 2's data back: the sender must pause on it.
        byte[] reply = replyWithCollective2();
        drive(() -> sender.lanes.peer(1).lane(1).paused());

        advance(TIMEOUT_NS + TIMEOUT_NS / 2);
        drive(() -> done.pending() == 0);
        assertEquals(List.of(0), receiverSink.tags(), "the re-sent copy was a duplicate");
        assertEquals(List.of(), senderSink.tags(), "collective 2's frame waits until it is posted");

        senderSink.postedSeq = 2;
        sender.resume();
        drive(() -> senderSink.delivered.size() == 2);
        assertEquals(java.util.Set.of(7, 8), java.util.Set.copyOf(senderSink.tags()), "each frame of collective 2 once");
        assertArrayEquals(reply, senderSink.bytes(7, 3));
        assertArrayEquals(reply, senderSink.bytes(8, 3));
    }

    /**
     * The hang seen once in StallSystemTest (docs/results/stall-failover-flake-1129.md): the sender had already
     * written the next collective's frame on the surviving lane when it gave up the other, so the re-sent copy of
     * the current collective's frame travels behind a frame the receiver pauses on, and the receiver cannot post
     * that next collective without the copy. While a connection of the peer is closed here and the peer has not yet
     * said (REPLAYS_DONE) that everything it held of it is re-sent, the receiver reads paused frames of that peer
     * into memory of its own, reaches the copy, and delivers the held frame once it posts its collective.
     */
    @Test
    void aResentFrameBehindAFrameOfTheNextCollectiveIsReached() throws IOException {
        start(false);
        links.get(0).dropForward = true;
        links.get(0).dropBackward = true;
        receiverSink.postedSeq = 1;                                    // the receiver is still in collective 1
        SendCompletion done = new SendCompletion();
        putSeq(1, 0, "first".getBytes(StandardCharsets.UTF_8), done);  // lane 0: into the black hole
        putSeq(2, 1, "next".getBytes(StandardCharsets.UTF_8), done);   // lane 1: collective 2, the receiver pauses
        drive(() -> receiver.lanes.peer(0).lane(1).paused());

        advance(TIMEOUT_NS * 3 / 2);
        drive(() -> receiverSink.tags().contains(0));
        assertEquals(List.of(0), receiverSink.tags(), "collective 1's copy arrived; collective 2's frame is held");
        assertArrayEquals("first".getBytes(StandardCharsets.UTF_8), receiverSink.bytes(0, 5));

        receiverSink.postedSeq = 2;
        receiver.resume();
        drive(() -> receiverSink.tags().size() == 2 && done.pending() == 0);
        assertEquals(List.of(0, 1), receiverSink.tags(), "each frame once, collective 2's when it was posted");
        assertArrayEquals("next".getBytes(StandardCharsets.UTF_8), receiverSink.bytes(1, 4));
        assertEquals(0, receiverSink.lost.size(), "losing one rail is not losing the peer");
        // Once the sender said everything of the closed connection was re-sent, a pause is a pause again.
        putSeq(3, 2, "later".getBytes(StandardCharsets.UTF_8), new SendCompletion());
        drive(() -> receiver.lanes.peer(0).lane(1).paused());
        assertFalse(receiver.lanes.peer(0).replaysPending(), "the peer's REPLAYS_DONE arrived");
    }

    /**
     * A spilled frame is read and counted (and acknowledged), so its sender will never send it again: if the
     * connection it came on fails before its collective is posted, the frame must still be delivered then. Three
     * rails: collective 1's frame is lost with rail 0; collective 2's frames wait on rails 1 and 2; rail 1 holds its
     * bytes for a while, so when rail 0 is given up the copy of collective 1's frame (re-sent on rail 1) has not
     * arrived, and both paused frames are spilled; then rail 2's connection breaks, rail 1 delivers the copy, and
     * collective 2 is posted.
     */
    @Test
    void aSpilledFrameOfAConnectionThatFailsIsStillDelivered() throws IOException {
        start(3, true);
        links.get(0).dropForward = true;
        links.get(0).dropBackward = true;
        receiverSink.postedSeq = 1;                                     // the receiver is still in collective 1
        SendCompletion done = new SendCompletion();
        putSeq(1, 0, "first".getBytes(StandardCharsets.UTF_8), done);   // lane 0: into the black hole
        putSeq(2, 1, "second".getBytes(StandardCharsets.UTF_8), done);  // lane 1: collective 2, paused on
        putSeq(2, 2, "third".getBytes(StandardCharsets.UTF_8), done);   // lane 2: collective 2, paused on
        drive(() -> receiver.lanes.peer(0).lane(1).paused() && receiver.lanes.peer(0).lane(2).paused());

        advance(TIMEOUT_NS * 6 / 10);
        links.get(1).hold = true;                                       // rail 1 slow: the copy waits in it
        advance(TIMEOUT_NS * 6 / 10);                                   // rail 0 given up on both sides
        drive(() -> receiver.lanes.peer(0).lane(0).isBroken() && sender.lanes.peer(1).lane(2).unackedCount() == 0);
        assertEquals(List.of(), receiverSink.tags(), "nothing delivered yet: the copy is held on rail 1");

        links.get(2).cut();                                             // rail 2's connection breaks, "third" read
        drive(() -> receiver.lanes.peer(0).lane(2).isBroken());
        links.get(1).hold = false;
        drive(() -> receiverSink.tags().contains(0));
        assertEquals(List.of(0), receiverSink.tags(), "collective 1's copy arrived; collective 2's frames are held");

        receiverSink.postedSeq = 2;
        receiver.resume();
        drive(() -> receiverSink.tags().size() == 3);
        assertEquals(java.util.Set.of(0, 1, 2), java.util.Set.copyOf(receiverSink.tags()), "each frame once");
        assertArrayEquals("second".getBytes(StandardCharsets.UTF_8), receiverSink.bytes(1, 6));
        assertArrayEquals("third".getBytes(StandardCharsets.UTF_8), receiverSink.bytes(2, 5));
    }

    /**
     * The spill above is bounded: a frame that would take a connection past its limit (64 MiB; 2 bytes here) fails
     * the transport with an error naming the peer, the length and the collective, instead of allocating whatever
     * length the peer's header claims.
     */
    @Test
    void aSpilledFrameBeyondTheBoundFailsWithANamedError() throws IOException {
        start(false);
        sender.lanes.spillLimitBytes = 2;
        links.get(0).dropBackward = true;
        senderSink.postedSeq = 1;
        SendCompletion done = new SendCompletion();
        put(0, "first", done);
        drive(() -> receiverSink.delivered.size() == 1);
        replyWithCollective2();
        io.railcoll.RailcollException e = assertThrows(io.railcoll.RailcollException.class, () -> {
            advance(TIMEOUT_NS + TIMEOUT_NS / 2);
            drive(() -> false);
        });
        assertTrue(e.getMessage().contains("rank 1 sent a frame of 3 bytes on rail 1 for a collective this rank has not"
                + " posted yet (#2)") && e.getMessage().contains("more than the 2 bytes"), e.getMessage());
    }

    /**
     * Decision 0130: in an exchange, the ACK a side owes rides in front of its next DATA frame to the peer, in the
     * same write, so no ACK crosses the wire alone. The clock does not move here, so the delayed ACK (0.5 ms) never
     * falls due: without carrying, every small frame would stay unacknowledged.
     */
    @Test
    void anOwedAckRidesInFrontOfTheNextDataFrameBack() throws IOException {
        eagerBytes = 16;
        start(true);
        for (int i = 0; i < 20; i++) {
            SendCompletion there = new SendCompletion();
            putBytes(i, new byte[] {(byte) i}, there);
            int delivered = i + 1;
            drive(() -> receiverSink.delivered.size() == delivered);
            SendCompletion back = new SendCompletion();
            reply(i, new byte[] {(byte) (100 + i)}, back);
            drive(() -> senderSink.delivered.size() == delivered);
        }
        long carried = 0;
        long alone = 0;
        int unacked = 0;
        for (int lane = 0; lane < 2; lane++) {
            for (TcpConnection c : List.of(sender.lanes.peer(1).lane(lane), receiver.lanes.peer(0).lane(lane))) {
                carried += c.acksCarried;
                alone += c.acksAlone;
            }
            unacked += sender.lanes.peer(1).lane(lane).unackedCount();
        }
        assertEquals(0, alone, "no ACK went out as a frame of its own");
        assertTrue(carried >= 2 * 20 - 4, "ACKs carried by DATA frames: " + carried);
        assertTrue(unacked <= 2, "the sender's frames were acknowledged by the replies, all but the last per lane: "
                + unacked);
        for (int i = 0; i < 20; i++) {
            assertArrayEquals(new byte[] {(byte) i}, receiverSink.bytes(i, 1));
            assertArrayEquals(new byte[] {(byte) (100 + i)}, senderSink.bytes(i, 1));
        }
    }

    /**
     * Fail-over with ACKs riding on DATA frames: a rail lost in the middle of an exchange in both directions re-sends
     * exactly what its carried ACKs had not covered, on the other rail, and each frame arrives once, byte for byte.
     */
    @Test
    void aRailLostInAnExchangeWhoseAcksRideOnDataLosesAndDuplicatesNothing() throws IOException {
        eagerBytes = 16;
        start(true);
        for (int i = 0; i < 10; i++) {
            putBytes(i, new byte[] {(byte) i}, new SendCompletion());
            int delivered = i + 1;
            drive(() -> receiverSink.delivered.size() == delivered);
            reply(i, new byte[] {(byte) (100 + i)}, new SendCompletion());
            drive(() -> senderSink.delivered.size() == delivered);
        }
        links.get(0).dropForward = true;
        links.get(0).dropBackward = true;
        for (int i = 10; i < 30; i++) {
            putBytes(i, new byte[] {(byte) i}, new SendCompletion());
            reply(i, new byte[] {(byte) (100 + i)}, new SendCompletion());
        }
        advance(TIMEOUT_NS * 3 / 2);
        drive(() -> receiverSink.delivered.size() == 30 && senderSink.delivered.size() == 30);
        assertEquals(30, java.util.Set.copyOf(receiverSink.tags()).size(), "each frame once: " + receiverSink.tags());
        assertEquals(30, java.util.Set.copyOf(senderSink.tags()).size(), "each reply once: " + senderSink.tags());
        for (int i = 0; i < 30; i++) {
            assertArrayEquals(new byte[] {(byte) i}, receiverSink.bytes(i, 1));
            assertArrayEquals(new byte[] {(byte) (100 + i)}, senderSink.bytes(i, 1));
        }
        assertEquals(List.of(0), sender.counters().failures().stream().map(f -> f.rail()).distinct().toList());
        assertEquals(0, receiverSink.lost.size() + senderSink.lost.size(), "losing one rail is not losing the peer");
    }

    @Test
    void smallFrameCompletesOnceWrittenAndItsCopyIsWhatTheOtherRailCarries() throws IOException {
        eagerBytes = 5;
        start(false);
        links.get(0).dropForward = true;
        links.get(0).dropBackward = true;
        SendCompletion small = new SendCompletion();
        byte[] first = "first".getBytes(StandardCharsets.UTF_8);
        putBytes(0, first, small); // round-robin: lane 0, into the black hole
        assertEquals(0, small.pending(), "a frame within the eager limit completes once written, without an ACK");
        java.util.Arrays.fill(first, (byte) 'x'); // the caller reuses its buffer at once
        SendCompletion large = new SendCompletion();
        put(1, "second", large); // lane 1, one byte over the limit
        drive(() -> large.pending() == 0);
        assertEquals(List.of(1), receiverSink.tags(), "the larger frame completed only once acknowledged");

        advance(TIMEOUT_NS * 3 / 2);
        drive(() -> receiverSink.tags().size() == 2);
        assertEquals(List.of(1, 0), receiverSink.tags(), "the lost small frame arrives once, on the other rail");
        assertArrayEquals("first".getBytes(StandardCharsets.UTF_8), receiverSink.bytes(0, 5),
                "the re-sent frame carries the bytes as they were at the put, not the caller's later ones");
    }

    @Test
    void aPeerThatSaidGoodbyeWhileThisRankComputedIsNotAFailureEvenIfAHeartbeatHitsItsClosedSocket() throws Exception {
        start(false);
        links.get(0).closeWhenDrained = true;
        receiver.close(); // goodbye on both lanes, sockets closed
        open.remove(receiver);
        // This rank computes: only its keeper runs, writing heartbeats into the closed connections until they fail.
        for (int i = 0; i < 40; i++) {
            clock.addAndGet(TIMEOUT_NS / 4);
            sender.lanes.drivers().getFirst().heartbeatOnly(clock.get());
            pump();
            Thread.sleep(5);
        }
        // The owner comes back and reads: the goodbyes, then the ends of the streams.
        for (int i = 0; i < 20; i++) {
            sender.poll();
            pump();
        }
        assertEquals(List.of(), sender.counters().failures(), "a peer that left normally is no rail failure");
        assertEquals(null, sender.lanes.failure(), senderLog.toString(StandardCharsets.UTF_8));
    }

    // ---- harness ----

    /** The receiver puts two 3-byte frames of collective 2 to the sender (tags 7 on lane 0 and 8 on lane 1). */
    private byte[] replyWithCollective2() {
        FrameHeader next = new FrameHeader();
        next.seq = 2;
        next.collective = 1;
        next.tag = 7;
        next.blockBytes = 3;
        byte[] reply = {1, 2, 3};
        receiver.put(0, next, MemorySegment.ofArray(reply), 0, 3, new SendCompletion()); // lane 0 (lost, re-sent later)
        next.tag = 8;
        receiver.put(0, next, MemorySegment.ofArray(reply), 0, 3, new SendCompletion()); // lane 1
        return reply;
    }

    /** Lane 0 through a controllable link; lane 1 direct; with {@code linkBoth}, lane 1 through a link too. */
    private void start(boolean linkBoth) throws IOException {
        start(2, linkBoth);
    }

    /** {@code rails} rails of one connection each (lane {@code l} on rail {@code l}); lane 0 linked, or every lane. */
    private void start(int rails, boolean linkAll) throws IOException {
        SocketChannel[][] a = new SocketChannel[2][rails];
        SocketChannel[][] b = new SocketChannel[2][rails];
        for (int lane = 0; lane < rails; lane++) {
            if (lane == 0 || linkAll) {
                SocketChannel[] p = pair();
                SocketChannel[] q = pair();
                a[1][lane] = p[0];
                b[0][lane] = q[0];
                links.add(new Link(p[1], q[1]));
            } else {
                SocketChannel[] p = pair();
                a[1][lane] = p[0];
                b[0][lane] = p[1];
            }
        }
        RailSettings settings = new RailSettings(rails, 1, 1024, TIMEOUT_NS, eagerBytes);
        sender = TcpRailTransport.start(0, a, settings, senderSink,
                new PrintStream(senderLog, true, StandardCharsets.UTF_8), clock::get, false);
        open.add(sender);
        receiver = TcpRailTransport.start(1, b, settings, receiverSink,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), clock::get, false);
        open.add(receiver);
    }

    private SocketChannel[] pair() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel c = SocketChannel.open(server.getLocalAddress());
            SocketChannel s = server.accept();
            // As RailMesh does: without it Nagle holds small frames back for tens of milliseconds.
            c.socket().setTcpNoDelay(true);
            s.socket().setTcpNoDelay(true);
            open.add(c);
            open.add(s);
            return new SocketChannel[] {c, s};
        }
    }

    private void put(int tag, String text, SendCompletion done) {
        putBytes(tag, text.getBytes(StandardCharsets.UTF_8), done);
    }

    private void putBytes(int tag, byte[] bytes, SendCompletion done) {
        put(sender, 1, tag, bytes, done);
    }

    /** A put from rank 1 back to rank 0 (collective 1, tag {@code tag}). */
    private void reply(int tag, byte[] bytes, SendCompletion done) {
        put(receiver, 0, tag, bytes, done);
    }

    /** A put from rank 0 to rank 1 of collective {@code seq}, tag {@code tag}. */
    private void putSeq(long seq, int tag, byte[] bytes, SendCompletion done) {
        FrameHeader meta = new FrameHeader();
        meta.seq = seq;
        meta.collective = 1;
        meta.tag = tag;
        meta.blockBytes = bytes.length;
        sender.put(1, meta, MemorySegment.ofArray(bytes), 0, bytes.length, done);
    }

    private static void put(TcpRailTransport from, int to, int tag, byte[] bytes, SendCompletion done) {
        FrameHeader meta = new FrameHeader();
        meta.seq = 1;
        meta.collective = 1;
        meta.tag = tag;
        meta.blockBytes = bytes.length;
        from.put(to, meta, MemorySegment.ofArray(bytes), 0, bytes.length, done);
    }

    /** Moves the clock forward in steps shorter than a heartbeat interval, driving everything after each. */
    private void advance(long ns) throws IOException {
        long step = TIMEOUT_NS / 20;
        for (long moved = 0; moved < ns; moved += step) {
            clock.addAndGet(step);
            for (int i = 0; i < 5; i++) {
                sender.poll();
                receiver.poll();
                pump();
            }
        }
    }

    /** Drives both sides and the links (without moving the clock) until {@code until} holds, for at most 10 s. */
    private void drive(BooleanSupplier until) throws IOException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (int i = 0; System.nanoTime() - end < 0; i++) {
            sender.poll();
            receiver.poll();
            pump();
            if (until.getAsBoolean() && i > 20) {
                return;
            }
        }
        throw new AssertionError("condition not reached; delivered " + receiverSink.tags() + "; sender failures "
                + sender.counters().failures() + "; receiver failures " + receiver.counters().failures()
                + "; sender rail0 sent " + sender.counters().bytesSent(0) + "/" + sender.counters().framesSent(0)
                + " rail1 " + sender.counters().bytesSent(1) + "/" + sender.counters().framesSent(1)
                + "; receiver got " + receiver.counters().bytesReceived(0) + "/" + receiver.counters().bytesReceived(1)
                + "; sender lanes " + sender.lanes.peer(1).lane(0).pendingSummary() + " | " + sender.lanes.peer(1).lane(1).pendingSummary()
                + " paused " + sender.lanes.peer(1).lane(1).paused()
                + "; receiver lanes " + receiver.lanes.peer(0).lane(0).pendingSummary() + " | " + receiver.lanes.peer(0).lane(1).pendingSummary()
                + "; sender log: " + senderLog.toString(StandardCharsets.UTF_8));
    }

    private void pump() throws IOException {
        for (Link l : links) {
            l.pump();
        }
    }

    /** A wire between two sockets the test holds, which can drop either direction (a rail whose link is down). */
    private static final class Link {
        private final SocketChannel towardSender;
        private final SocketChannel towardReceiver;
        private final ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        boolean dropForward;
        boolean dropBackward;
        /** Moves nothing either way (bytes wait in the sockets): a stalled peer rather than a dead rail. */
        boolean hold;
        /** Passes an end of stream on: closes the other side once one side closed and everything before it moved. */
        boolean closeWhenDrained;

        Link(SocketChannel towardSender, SocketChannel towardReceiver) throws IOException {
            this.towardSender = towardSender;
            this.towardReceiver = towardReceiver;
            towardSender.configureBlocking(false);
            towardReceiver.configureBlocking(false);
        }

        /** The wire is cut for good: both ends see their connection closed (a reset rather than a silence). */
        void cut() throws IOException {
            towardSender.close();
            towardReceiver.close();
        }

        void pump() throws IOException {
            if (hold) {
                return;
            }
            move(towardSender, towardReceiver, dropForward);
            move(towardReceiver, towardSender, dropBackward);
        }

        private void move(SocketChannel from, SocketChannel to, boolean drop) throws IOException {
            if (!from.isOpen() || !to.isOpen()) {
                return;
            }
            buf.clear();
            int n = from.read(buf);
            if (n < 0 && closeWhenDrained) {
                from.close();
                to.close();
            }
            if (n <= 0) {
                return;
            }
            buf.flip();
            try {
                while (!drop && buf.hasRemaining()) {
                    to.write(buf);
                }
            } catch (IOException e) {
                if (!closeWhenDrained) {
                    throw e;
                }
                from.close(); // the far end is gone: so is this wire
                to.close();
            }
        }
    }

    /** A sink that accepts every frame into per-tag buffers and records deliveries. */
    private static final class RecordingSink implements FrameSink {
        final List<int[]> delivered = new ArrayList<>();
        final List<Integer> lost = new ArrayList<>();
        /** Frames of later collectives are refused (the connection pauses), as the engine does. */
        volatile long postedSeq = Long.MAX_VALUE;
        private final ByteBuffer[] byTag;

        RecordingSink(int tags) {
            byTag = new ByteBuffer[tags];
            for (int i = 0; i < tags; i++) {
                byTag[i] = ByteBuffer.allocate(1 << 16);
            }
        }

        List<Integer> tags() {
            return delivered.stream().map(d -> d[0]).toList();
        }

        byte[] payload(int index) {
            int[] d = delivered.get(index);
            return bytes(d[0], d[2]);
        }

        byte[] bytes(int tag, int length) {
            byte[] out = new byte[length];
            byTag[tag].duplicate().clear().get(out);
            return out;
        }

        @Override
        public java.lang.foreign.MemorySegment onDataHeader(int rail, FrameHeader h) {
            if (h.seq > postedSeq) {
                return null;
            }
            h.landingOffset = h.fragOffset;
            return java.lang.foreign.MemorySegment.ofBuffer(byTag[h.tag].duplicate().clear());
        }

        @Override
        public void onDataComplete(int rail, FrameHeader h) {
            delivered.add(new int[] {h.tag, (int) h.fragOffset, (int) h.putLength});
        }

        @Override
        public void onAbort(int peer, String reason) {
        }

        @Override
        public void onGoodbye(int peer, int rail) {
        }

        @Override
        public void onPeerLost(int peer, int rail, String cause) {
            lost.add(peer);
        }
    }
}
