package io.railcoll.bootstrap;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railcoll.HandshakeRejectedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UTFDataFormatException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz targets: the acceptor side of the handshake, on bytes from a stranger.
 * <ul>
 *   <li>{@link #connectorHello}: the hello parser and the verdict, in memory. Whatever the bytes, parsing ends in a
 *       hello, "need more" ({@link EOFException}), a refusal ({@link HandshakeRejectedException}) or a malformed job id
 *       ({@link UTFDataFormatException}); judging never throws, and never accepts without the secret.</li>
 *   <li>{@link #acceptorOverSocket}: the same bytes sent over a real loopback connection to a
 *       {@link HandshakeAcceptor}, which must refuse or drop the stranger (counted once), never authenticate it,
 *       never throw, and stay usable.</li>
 * </ul>
 * Regression inputs: {@code src/test/resources/io/railcoll/bootstrap/HandshakeFuzzTestInputs/}.
 */
class HandshakeFuzzTest {
    private static final Handshake JOB = new Handshake("job-fuzz", "the-secret".getBytes(StandardCharsets.UTF_8));
    private static ServerSocketChannel listener;
    private static HandshakeAcceptor<Void> acceptor;
    private static Refusals refusals;

    @BeforeAll
    static void listen() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        refusals = new Refusals("fuzz", new PrintStream(new ByteArrayOutputStream()));
        // A short deadline: a stranger that sends a valid prefix and stops is dropped after 200 ms.
        acceptor = new HandshakeAcceptor<>(JOB, List.of(listener), 4, 2, Handshake.Purpose.RAIL, null,
                200_000_000L, 8, refusals);
    }

    @AfterAll
    static void close() throws IOException {
        acceptor.close();
        listener.close();
    }

    @FuzzTest
    void connectorHello(byte[] input) {
        Handshake.ConnectorHello hello;
        try {
            hello = Handshake.ConnectorHello.read(new DataInputStream(new ByteArrayInputStream(input)), "fuzz");
        } catch (EOFException | HandshakeRejectedException | UTFDataFormatException expected) {
            return;
        } catch (IOException e) {
            throw new AssertionError("unexpected I/O error parsing a hello", e);
        }
        byte[] nonce = new byte[16];
        Handshake.Verdict v = JOB.judge(hello, nonce, 4, 2);
        assertFalse(v.accepted(), "a hello without the secret's MAC was accepted");
        assertTrue(v.reply().length >= 3 && v.reply()[0] == 1, "a refusal answers status 1 and a reason");
    }

    @FuzzTest
    void acceptorOverSocket(byte[] input) throws IOException {
        long before = refusals.total();
        try (SocketChannel stranger = SocketChannel.open(listener.getLocalAddress())) {
            stranger.write(ByteBuffer.wrap(input));
            stranger.shutdownOutput();
            long until = System.nanoTime() + 2_000_000_000L;
            while (refusals.total() == before && System.nanoTime() < until) {
                assertNull(acceptor.next(System.nanoTime() + 50_000_000L), "a stranger was authenticated");
            }
        }
        assertEquals(before + 1, refusals.total(), "the stranger was refused or dropped once");
        assertEquals(0, acceptor.pendingCount());
    }
}
