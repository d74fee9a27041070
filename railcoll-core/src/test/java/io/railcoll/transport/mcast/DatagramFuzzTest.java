package io.railcoll.transport.mcast;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz target: a multicast datagram as it arrives from the network. {@link DatagramHeader#readFrom} never throws, and
 * a datagram it calls OK has a fragment that lies inside its message and exactly fills the datagram, so the receiver
 * can copy it without checks of its own. The input's first byte picks the checksum the receiver expects (and whether
 * the fuzzer's datagram gets a correct one, so the checks behind it are reached).
 *
 * <p>Regression inputs: {@code src/test/resources/io/railcoll/transport/mcast/DatagramFuzzTestInputs/readFrom/}.
 */
class DatagramFuzzTest {
    private static final long JOB = 0x1234_5678_9abc_def0L;
    private static final int COMMUNICATOR = 7;

    @FuzzTest
    void readFrom(byte[] input) {
        if (input.length == 0) {
            return;
        }
        ChecksumKind kind = switch (input[0] & 3) {
            case 0 -> ChecksumKind.CRC32C;
            case 1 -> ChecksumKind.ADDITIVE;
            default -> ChecksumKind.NONE;
        };
        boolean fixChecksum = (input[0] & 4) != 0;
        boolean ours = (input[0] & 8) != 0;
        byte[] datagram = java.util.Arrays.copyOfRange(input, 1, input.length);
        ByteBuffer b = ByteBuffer.wrap(datagram).order(ByteOrder.LITTLE_ENDIAN);
        ChecksumKind.Checksummer checksummer = new ChecksumKind.Checksummer(kind);
        if (datagram.length >= DatagramHeader.BYTES) {
            if (ours) {
                b.putShort(0, DatagramHeader.MAGIC).put(2, DatagramHeader.VERSION).put(3, DatagramHeader.TYPE_DATA);
                b.putLong(8, JOB).putInt(16, COMMUNICATOR);
            }
            if (fixChecksum && kind != ChecksumKind.NONE) {
                b.put(4, (byte) kind.code);
                int fragLength = b.getInt(48);
                if (fragLength >= 0 && fragLength <= datagram.length - DatagramHeader.BYTES) {
                    b.putInt(DatagramHeader.CHECKSUM_OFFSET, checksummer.checksum(b, 0, DatagramHeader.CHECKSUM_OFFSET,
                            DatagramHeader.BYTES, DatagramHeader.BYTES + fragLength));
                }
            }
        }
        DatagramHeader h = new DatagramHeader();
        DatagramHeader.Verdict v = h.readFrom(b, datagram.length, JOB, COMMUNICATOR, checksummer);
        if (v == DatagramHeader.Verdict.OK) {
            assertTrue(h.fragLength >= 0 && DatagramHeader.BYTES + h.fragLength == datagram.length, "fragment fills it");
            assertTrue(h.fragOffset >= 0 && (long) h.fragOffset + h.fragLength <= h.totalLength, "inside its message");
            assertTrue(h.fragIndex >= 0 && h.fragIndex < h.fragCount && h.seq >= 0, "index and sequence");
        }
    }
}
