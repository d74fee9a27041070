package io.railcoll.transport.mcast;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Datagram header, fragmentation and checksums: what goes on the wire and what a receiver refuses. */
class WireFormatTest {
    private static ByteBuffer datagram(ChecksumKind kind, byte[] message, int fragment, int payload) {
        DatagramHeader h = new DatagramHeader();
        h.jobHash = 0x1122334455667788L;
        h.communicatorId = 3;
        h.rootRank = 5;
        h.seq = 17;
        h.channel = 1;
        ByteBuffer d = ByteBuffer.allocate(DatagramHeader.BYTES + payload);
        new Fragmenter(payload).write(h, MemorySegment.ofArray(message), fragment, d, new ChecksumKind.Checksummer(kind));
        return d;
    }

    @Test
    void fragmentsCoverTheMessageExactlyOnce() {
        Fragmenter f = new Fragmenter(1400);
        assertEquals(1, f.fragmentCount(0));
        assertEquals(1, f.fragmentCount(1400));
        assertEquals(2, f.fragmentCount(1401));
        assertEquals(2996, f.fragmentCount(4 << 20));
        long covered = 0;
        for (int i = 0; i < f.fragmentCount(4 << 20); i++) {
            assertEquals(covered, f.offset(i));
            covered += f.length(i, 4 << 20);
        }
        assertEquals(4 << 20, covered);
        assertThrows(IllegalArgumentException.class, () -> new Fragmenter(0));
        assertThrows(IllegalArgumentException.class, () -> new Fragmenter(MulticastSettings.MAX_PAYLOAD_BYTES + 1));
    }

    @ParameterizedTest
    @EnumSource(ChecksumKind.class)
    void aHeaderReadsBackWhatWasWritten(ChecksumKind kind) {
        byte[] msg = new byte[3000];
        new Random(1).nextBytes(msg);
        ByteBuffer d = datagram(kind, msg, 2, 1400);
        assertEquals(DatagramHeader.BYTES + 200, d.limit());
        DatagramHeader r = new DatagramHeader();
        assertEquals(DatagramHeader.Verdict.OK, r.readFrom(d, d.limit(), 0x1122334455667788L, 3, new ChecksumKind.Checksummer(kind)));
        assertEquals(17, r.seq);
        assertEquals(5, r.rootRank);
        assertEquals(1, r.channel);
        assertEquals(3000, r.totalLength);
        assertEquals(2, r.fragIndex);
        assertEquals(3, r.fragCount);
        assertEquals(2800, r.fragOffset);
        assertEquals(200, r.fragLength);
        assertEquals(kind.code, r.checksumCode);
        byte[] payload = new byte[200];
        d.get(DatagramHeader.BYTES, payload);
        byte[] expected = new byte[200];
        System.arraycopy(msg, 2800, expected, 0, 200);
        assertArrayEquals(expected, payload);
    }

    @ParameterizedTest
    @EnumSource(value = ChecksumKind.class, names = {"CRC32C", "ADDITIVE"})
    void everySingleBitFlipIsCaught(ChecksumKind kind) {
        byte[] msg = new byte[700];
        new Random(2).nextBytes(msg);
        ByteBuffer clean = datagram(kind, msg, 0, 1400);
        ChecksumKind.Checksummer c = new ChecksumKind.Checksummer(kind);
        for (int bit = 0; bit < clean.limit() * 8; bit++) {
            ByteBuffer d = ByteBuffer.allocate(clean.limit());
            d.put(clean.duplicate().position(0)).flip();
            d.put(bit >>> 3, (byte) (d.get(bit >>> 3) ^ (1 << (bit & 7))));
            DatagramHeader.Verdict v = new DatagramHeader().readFrom(d, d.limit(), 0x1122334455667788L, 3, c);
            // A flip in magic, version or type makes it someone else's datagram; anywhere else it is corrupt.
            DatagramHeader.Verdict expected = bit < 32 ? DatagramHeader.Verdict.NOT_OURS : DatagramHeader.Verdict.CORRUPT;
            assertEquals(expected, v, "bit " + bit);
        }
    }

    @Test
    void theAdditiveChecksumIsTheSumOfLittleEndianWords() {
        ByteBuffer b = ByteBuffer.wrap(new byte[] {1, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 2, 0, 0, 0, 5});
        // 1 + 0xffffffff + 2 + 5 (tail zero-padded) = 7 mod 2^32
        assertEquals(7, ChecksumKind.Checksummer.additive(b, 0, 13));
        assertEquals(0xffffffff + 1, ChecksumKind.Checksummer.additive(b, 0, 8));
    }

    @Test
    void otherJobsAndCommunicatorsAreNotOurs() {
        ByteBuffer d = datagram(ChecksumKind.CRC32C, new byte[10], 0, 1400);
        ChecksumKind.Checksummer c = new ChecksumKind.Checksummer(ChecksumKind.CRC32C);
        assertEquals(DatagramHeader.Verdict.NOT_OURS, new DatagramHeader().readFrom(d, d.limit(), 1L, 3, c));
        assertEquals(DatagramHeader.Verdict.NOT_OURS, new DatagramHeader().readFrom(d, d.limit(), 0x1122334455667788L, 4, c));
        assertEquals(DatagramHeader.Verdict.MALFORMED, new DatagramHeader().readFrom(d, 20, 0x1122334455667788L, 3, c));
        // A sender without checksum seen by a reliable receiver: refused, not trusted.
        ByteBuffer plain = datagram(ChecksumKind.NONE, new byte[10], 0, 1400);
        assertEquals(DatagramHeader.Verdict.CORRUPT, new DatagramHeader().readFrom(plain, plain.limit(), 0x1122334455667788L, 3, c));
    }

    @Test
    void groupAddressesAreDerivedTheSameEverywhereAndDifferPerCommunicator() throws Exception {
        java.net.InetAddress lo = java.net.InetAddress.getLoopbackAddress();
        MulticastGroup a = MulticastGroup.derive("job-1", 0, new int[] {0, 1}, 0, lo);
        MulticastGroup b = MulticastGroup.derive("job-1", 0, new int[] {0, 1}, 1, lo);
        MulticastGroup c = MulticastGroup.derive("job-1", 1, new int[] {0, 1}, 1, lo);
        assertEquals(a.groupAddress(), b.groupAddress());
        assertEquals(a.port(), b.port());
        assertEquals(true, a.groupAddress().getHostAddress().startsWith("239."));
        assertEquals(false, a.groupAddress().equals(c.groupAddress()) && a.port() == c.port());
        assertThrows(IllegalArgumentException.class, () -> MulticastGroup.derive("job-1", 0, new int[] {0, 1}, 2, lo));
    }
}
