package io.railcoll.transport.mcast;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The control messages of the protocol, little-endian, each starting with a type byte:
 *
 * <pre>
 * REPORT / RETRANSMIT (member -> parent -> manager / manager -> all, down the tree)
 *   0 type | 1 final | 2 pad(2) | 4 originRank i32 | 8 epochStart i64 | 16 end i64 | 24 ackMask i64 |
 *   32 details i32 | 36 { seq i64 | fragCount i32 | ceil(fragCount/64) x received-bitmap i64 }...
 *     final=1: the member delivered every broadcast in [epochStart, end) and so did its subtree (an ACK);
 *     final=0: a NACK: bit i of ackMask says broadcast epochStart+i is complete here, every other broadcast in
 *              [epochStart, end) is missing, at fragment precision for the ones listed in the details.
 *     A RETRANSMIT is the manager relaying a NACK verbatim to every member, so each re-sends its own part.
 * RELEASE (manager -> all, down the tree): 0 type | 8 epochStart i64 | 16 end i64
 *     everyone has [epochStart, end): the channels are free again.
 * FAILOVER_REQUEST (member -> manager) and FAILOVER (manager -> all, down the tree):
 *   0 type | 4 originRank i32 | 8 length i32 | 12 UTF-8 reason
 * TREE_DATA (after fail-over, down the k-nomial tree rooted at the broadcast's root):
 *   0 type | 4 rootRank i32 | 8 seq i64 | 16 totalLength i32 | 20 offset i32 | 24 length i32 | 28 bytes
 * </pre>
 * Static helpers only; the protocol owns its encode buffer.
 */
final class ControlMessages {
    static final byte REPORT = 1;
    static final byte RETRANSMIT = 2;
    static final byte RELEASE = 3;
    static final byte FAILOVER_REQUEST = 4;
    static final byte FAILOVER = 5;
    static final byte TREE_DATA = 6;

    static final int REPORT_HEADER = 36;
    static final int TREE_HEADER = 28;

    private ControlMessages() {
    }

    static ByteBuffer le(ByteBuffer b) {
        return b.order(ByteOrder.LITTLE_ENDIAN);
    }

    static void putReportHeader(ByteBuffer b, byte type, boolean fin, int origin, long epochStart, long end, long ackMask) {
        le(b).clear();
        b.put(type).put((byte) (fin ? 1 : 0)).putShort((short) 0).putInt(origin).putLong(epochStart).putLong(end)
                .putLong(ackMask).putInt(0);
    }

    static void putRelease(ByteBuffer b, long epochStart, long end) {
        le(b).clear();
        b.put(RELEASE).put((byte) 0).putShort((short) 0).putInt(0).putLong(epochStart).putLong(end).flip();
    }

    static ByteBuffer putReason(ByteBuffer b, byte type, int origin, String reason) {
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        if (b.capacity() < 12 + r.length) {
            b = ByteBuffer.allocate(12 + r.length);
        }
        le(b).clear();
        b.put(type).put((byte) 0).putShort((short) 0).putInt(origin).putInt(r.length).put(r).flip();
        return b;
    }

    static String reason(ByteBuffer m) {
        int len = le(m).getInt(8);
        byte[] r = new byte[len];
        m.get(12, r);
        return new String(r, StandardCharsets.UTF_8);
    }
}
