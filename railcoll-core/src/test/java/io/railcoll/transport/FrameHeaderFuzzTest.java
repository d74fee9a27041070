package io.railcoll.transport;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz target: the 72-byte frame header decoder every transport runs on bytes from a peer. Whatever the bytes, it
 * returns a reason or null without throwing, and a header it accepts has lengths a receiver can use without
 * overflow: {@code 0 <= fragOffset}, {@code 0 <= fragLength}, and for DATA frames
 * {@code fragOffset + fragLength <= putLength} in exact arithmetic. Half the inputs get a correct checksum, so the
 * fuzzer reaches the checks behind it.
 *
 * <p>Regression inputs: {@code src/test/resources/io/railcoll/transport/FrameHeaderFuzzTestInputs/decode/}. Fuzzing:
 * docs/fuzzing.md.
 */
class FrameHeaderFuzzTest {
    @FuzzTest
    void decode(byte[] input) {
        byte[] bytes = new byte[FrameHeader.BYTES];
        System.arraycopy(input, 0, bytes, 0, Math.min(input.length, bytes.length));
        if (input.length > FrameHeader.BYTES && (input[FrameHeader.BYTES] & 1) == 1) {
            CRC32C crc = new CRC32C();
            crc.update(bytes, 0, FrameHeader.CRC_OFFSET);
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(FrameHeader.CRC_OFFSET, (int) crc.getValue());
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        FrameHeader h = new FrameHeader();
        String bad = h.decode(buf);
        assertEquals(FrameHeader.BYTES, buf.position(), "the decoder consumed the header");
        if (bad == null) {
            assertTrue(h.fragOffset >= 0 && h.fragLength >= 0 && h.putLength >= 0, h.toString());
            if (h.type == FrameHeader.DATA || h.type == FrameHeader.PULL) {
                assertTrue(h.fragOffset <= h.putLength - h.fragLength,
                        "accepted a fragment beyond its put: " + h);
            }
            // What the encoder writes for these fields, the decoder reads back.
            ByteBuffer again = ByteBuffer.allocate(FrameHeader.BYTES);
            h.encode(again);
            again.flip();
            FrameHeader back = new FrameHeader();
            assertEquals(null, back.decode(again));
            assertEquals(h.toString(), back.toString());
        }
    }
}
