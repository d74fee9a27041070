package io.railcoll.transport.mcast;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 56-byte header at the front of every multicast datagram, little-endian, then {@code fragLength} payload
 * bytes:
 *
 * <pre>
 *  0       2     3     4     5     6         8                   16          20          24
 *  +-------+-----+-----+-----+-----+---------+-------------------+-----------+-----------+
 *  | magic | ver |type |csum |flags| channel | jobHash (i64)     | commId    | rootRank  |
 *  +-------+-----+-----+-----+-----+---------+-------------------+-----------+-----------+
 *  24                  32          36          40          44          48          52          56
 *  +-------------------+-----------+-----------+-----------+-----------+-----------+-----------+
 *  | seq (i64)         | totalLen  | fragIndex | fragCount | fragOffset| fragLength| checksum  |
 *  +-------------------+-----------+-----------+-----------+-----------+-----------+-----------+
 *  56 .. 56+fragLength: payload = bytes [fragOffset, fragOffset+fragLength) of the message
 * </pre>
 *
 * <ul>
 *   <li>{@code jobHash} and {@code commId} let a member drop another job's or communicator's datagrams that reach
 *       the same group and port (group addresses are hashed, so they can collide).</li>
 *   <li>{@code seq} is the communicator's broadcast number; {@code channel} is {@code seq mod C}, carried so a
 *       receiver configured with another channel count fails loudly instead of overwriting a channel.</li>
 *   <li>{@code checksum} covers bytes 0..51 and the payload ({@link ChecksumKind}); {@code csum} says which kind,
 *       0 = none (reliability off).</li>
 *   <li>{@code flags} bit 0 marks a retransmission (for counters only).</li>
 * </ul>
 * One mutable instance per thread, reused for every datagram.
 */
public final class DatagramHeader {
    public static final int BYTES = 56;
    public static final short MAGIC = 0x524d; // "RM"
    public static final byte VERSION = 1;
    public static final byte TYPE_DATA = 1;
    public static final int FLAG_RETRANSMISSION = 1;
    static final int CHECKSUM_OFFSET = 52;

    public int checksumCode;
    public int flags;
    public int channel;
    public long jobHash;
    public int communicatorId;
    public int rootRank;
    public long seq;
    public int totalLength;
    public int fragIndex;
    public int fragCount;
    public int fragOffset;
    public int fragLength;

    /**
     * Writes this header at index 0 of {@code datagram} (whose payload is already at 56..56+fragLength), computes the
     * checksum over header and payload, and sets the buffer's position 0 and limit to the datagram's length.
     */
    public void writeTo(ByteBuffer datagram, ChecksumKind.Checksummer checksummer) {
        ByteBuffer b = datagram.order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, MAGIC).put(2, VERSION).put(3, TYPE_DATA).put(4, (byte) checksummer.kind().code)
                .put(5, (byte) flags).putShort(6, (short) channel).putLong(8, jobHash).putInt(16, communicatorId)
                .putInt(20, rootRank).putLong(24, seq).putInt(32, totalLength).putInt(36, fragIndex)
                .putInt(40, fragCount).putInt(44, fragOffset).putInt(48, fragLength);
        int end = BYTES + fragLength;
        b.putInt(CHECKSUM_OFFSET, checksummer.checksum(b, 0, CHECKSUM_OFFSET, BYTES, end));
        b.position(0).limit(end);
    }

    /** Outcome of {@link #readFrom}. */
    public enum Verdict { OK, NOT_OURS, MALFORMED, CORRUPT }

    /**
     * Reads the header of the datagram in {@code datagram[0, length)}. {@code NOT_OURS}: another protocol, job or
     * communicator; {@code MALFORMED}: lengths that cannot be right; {@code CORRUPT}: checksum mismatch (checked
     * only when {@code checksummer} is not NONE; a datagram sent without checksum is then refused as corrupt too,
     * because reliability on one side and off on the other is a configuration error the checksum would hide).
     */
    public Verdict readFrom(ByteBuffer datagram, int length, long expectJobHash, int expectCommunicator,
                            ChecksumKind.Checksummer checksummer) {
        if (length < BYTES) {
            return Verdict.MALFORMED;
        }
        ByteBuffer b = datagram.order(ByteOrder.LITTLE_ENDIAN);
        if (b.getShort(0) != MAGIC || b.get(2) != VERSION || b.get(3) != TYPE_DATA) {
            return Verdict.NOT_OURS;
        }
        checksumCode = b.get(4) & 0xff;
        flags = b.get(5) & 0xff;
        channel = b.getShort(6) & 0xffff;
        jobHash = b.getLong(8);
        communicatorId = b.getInt(16);
        rootRank = b.getInt(20);
        seq = b.getLong(24);
        totalLength = b.getInt(32);
        fragIndex = b.getInt(36);
        fragCount = b.getInt(40);
        fragOffset = b.getInt(44);
        fragLength = b.getInt(48);
        // Checked first: a corrupted job hash must count as corruption, not as someone else's traffic.
        if (checksummer.kind() != ChecksumKind.NONE) {
            if (checksumCode != checksummer.kind().code || fragLength < 0 || fragLength > length - BYTES
                    || b.getInt(CHECKSUM_OFFSET) != checksummer.checksum(b, 0, CHECKSUM_OFFSET, BYTES, BYTES + fragLength)) {
                return Verdict.CORRUPT;
            }
        }
        if (jobHash != expectJobHash || communicatorId != expectCommunicator) {
            return Verdict.NOT_OURS;
        }
        if (fragLength < 0 || BYTES + fragLength != length || totalLength < 0 || fragCount < 1
                || fragIndex < 0 || fragIndex >= fragCount || fragOffset < 0
                || (long) fragOffset + fragLength > totalLength || seq < 0) {
            return Verdict.MALFORMED;
        }
        return Verdict.OK;
    }
}
