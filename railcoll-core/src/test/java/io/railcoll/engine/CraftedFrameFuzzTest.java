package io.railcoll.engine;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railcoll.RailcollException;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.gather.DirectGather;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.Blocker;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.Transport;
import io.railcoll.transport.tcp.RailSettings;
import io.railcoll.transport.tcp.TcpRailTransport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fuzz target: frames crafted by an authenticated peer. Rank 0 runs a real gather ({@code gather.direct}, root 0,
 * 2 ranks on 2 nodes) through the real engine and TCP rail transport; the fuzzer plays rank 1 on the other end of
 * the rail connection and sends headers it builds (correct checksums, fields near what rank 0 expects, or anything)
 * with payloads, then closes the connection. Whatever it sends:
 * <ul>
 *   <li>nothing outside rank 0's receive buffer is written (guard bytes on both sides stay intact), and inside it
 *       only rank 1's block may hold the peer's bytes (rank 0's own block holds its own data or nothing);</li>
 *   <li>the call returns or fails with a {@link RailcollException} (mismatch, peer lost, time-out), never another
 *       exception.</li>
 * </ul>
 * Regression inputs: {@code src/test/resources/io/railcoll/engine/CraftedFrameFuzzTestInputs/gatherFromAPeer/}.
 */
class CraftedFrameFuzzTest {
    private static final int BLOCK = 16;
    private static final int GUARD = 64;
    private static final byte GUARD_BYTE = (byte) 0xA5;
    private static final byte UNTOUCHED = (byte) 0x5A;
    private static final byte MINE = (byte) 0x11;
    private static final Algorithm GATHER = AlgorithmCatalog.standard().byId(DirectGather.ID);
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final byte[] TYPES = {FrameHeader.DATA, FrameHeader.DATA, FrameHeader.DATA, FrameHeader.ABORT,
            FrameHeader.GOODBYE, FrameHeader.ACK, FrameHeader.REPLAY, FrameHeader.PULL, 7 /* retired: was PULLED */,
            FrameHeader.PULL_OFFER, FrameHeader.REPLAYS_DONE, 0, 10};

    @FuzzTest
    void gatherFromAPeer(FuzzedDataProvider data) throws Exception {
        gatherReceiving(craft(data));
    }

    /**
     * The target reaches delivery: a well-formed DATA frame from rank 1 (the collective's first sequence number, its
     * tag) completes the gather with rank 1's bytes in rank 1's block.
     */
    @org.junit.jupiter.api.Test
    void aWellFormedFrameCompletesTheGather() throws Exception {
        int delivered = 0;
        for (int tag = 0; tag < 4; tag++) {
            FrameHeader h = new FrameHeader();
            h.type = FrameHeader.DATA;
            h.sourceRank = 1;
            h.seq = 1;
            h.collective = Collective.GATHER.wireCode();
            h.root = 0;
            h.tag = tag;
            h.algorithm = DirectGather.ID.hashCode();
            h.blockBytes = BLOCK;
            h.putLength = BLOCK;
            h.fragOffset = 0;
            h.fragLength = BLOCK;
            ByteBuffer frame = ByteBuffer.allocate(FrameHeader.BYTES + BLOCK);
            h.encode(frame);
            while (frame.hasRemaining()) {
                frame.put((byte) 0x77);
            }
            byte[] recv = gatherReceiving(frame.array());
            if (recv != null) {
                delivered++;
                for (int i = 0; i < BLOCK; i++) {
                    assertEquals(MINE, recv[i]);
                    assertEquals((byte) 0x77, recv[BLOCK + i]);
                }
            }
        }
        assertEquals(1, delivered, "exactly one tag is the one rank 0 expects from rank 1");
    }

    /** Runs the gather on rank 0 while rank 1's side of the rail sends {@code stream}; the receive buffer if it completed. */
    private static byte[] gatherReceiving(byte[] stream) throws Exception {
        Placement placement = Placement.uniform(2, 1);
        Shape shape = new Shape(Collective.GATHER, placement, 1, BLOCK, 0);
        try (Arena arena = Arena.ofConfined();
             ServerSocketChannel server = ServerSocketChannel.open()
                     .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel peer = SocketChannel.open(server.getLocalAddress());
             SocketChannel mine = server.accept()) {
            MemorySegment whole = arena.allocate(GUARD + 2 * BLOCK + GUARD, 64);
            whole.fill(GUARD_BYTE);
            MemorySegment recv = whole.asSlice(GUARD, 2 * BLOCK);
            recv.fill(UNTOUCHED);
            MemorySegment send = arena.allocate(BLOCK, 64);
            send.fill(MINE);
            SocketChannel[][] channels = new SocketChannel[2][1]; // [0][0]: this rank, no connection
            channels[1][0] = mine;
            boolean completed = false;
            CollectiveEngine engine = new CollectiveEngine(0, placement, 300_000_000L);
            TcpRailTransport rails = TcpRailTransport.start(0, channels,
                    new RailSettings(1, 1, 1024, 4_000_000_000L, 16 * 1024), engine, QUIET);
            try {
                engine.attach(new Transport[] {null, rails}, new Transport[] {rails}, Blocker.parkOwner());
                peer.write(ByteBuffer.wrap(stream));
                peer.shutdownOutput();
                try {
                    engine.run(GATHER, shape, send, recv);
                    completed = true;
                } catch (RailcollException expected) {
                    // a mismatch, a lost peer or a time-out: a named error
                }
            } finally {
                rails.close();
                engine.close();
            }
            for (int i = 0; i < GUARD; i++) {
                assertEquals(GUARD_BYTE, whole.get(ValueLayout.JAVA_BYTE, i), "written before the buffer at " + i);
                assertEquals(GUARD_BYTE, whole.get(ValueLayout.JAVA_BYTE, GUARD + 2 * BLOCK + i),
                        "written after the buffer at " + i);
            }
            for (int i = 0; i < BLOCK; i++) {
                byte b = recv.get(ValueLayout.JAVA_BYTE, i);
                assertEquals(true, b == UNTOUCHED || b == MINE, "the peer wrote into rank 0's own block at " + i);
            }
            return completed ? recv.toArray(ValueLayout.JAVA_BYTE) : null;
        }
    }

    /** Frames near what rank 0 expects (the fuzzer decides how near), each with its payload, and maybe garbage. */
    private static byte[] craft(FuzzedDataProvider data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int frames = data.consumeInt(0, 4);
        FrameHeader h = new FrameHeader();
        ByteBuffer header = ByteBuffer.allocate(FrameHeader.BYTES);
        for (int f = 0; f < frames; f++) {
            h.type = TYPES[data.consumeInt(0, TYPES.length - 1)];
            h.sourceRank = data.consumeBoolean() ? 1 : data.consumeInt();
            h.seq = data.consumeBoolean() ? data.consumeLong(0, 2) : data.consumeLong();
            h.collective = data.consumeBoolean() ? Collective.GATHER.wireCode() : data.consumeInt();
            h.root = data.consumeBoolean() ? 0 : data.consumeInt();
            h.tag = data.consumeBoolean() ? data.consumeInt(0, 3) : data.consumeInt();
            h.algorithm = data.consumeBoolean() ? DirectGather.ID.hashCode() : data.consumeInt();
            h.blockBytes = data.consumeBoolean() ? BLOCK : data.consumeLong();
            h.putLength = data.consumeBoolean() ? BLOCK : data.consumeLong();
            h.fragOffset = data.consumeBoolean() ? data.consumeLong(0, BLOCK) : data.consumeLong();
            h.fragLength = data.consumeBoolean() ? data.consumeInt(0, BLOCK) : data.consumeInt();
            header.clear();
            h.encode(header);
            out.write(header.array(), 0, FrameHeader.BYTES);
            int payload = Math.max(0, Math.min(h.fragLength, 4096));
            out.write(data.consumeBytes(payload));
        }
        out.write(data.consumeRemainingAsBytes());
        return out.toByteArray();
    }
}
