package io.railcoll.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The fixed 72-byte header in front of every frame, on every transport (version 2). One mutable instance per
 * connection direction, reused for every frame (no allocation per frame). Little-endian:
 *
 * <pre>
 *  0      2     3      4           8                  16          20       24      28           32
 *  +------+-----+------+-----------+------------------+-----------+--------+-------+------------+
 *  |magic |ver  |type  |sourceRank | seq (i64)        |collective |root    |tag    |algorithm   |
 *  +------+-----+------+-----------+------------------+-----------+--------+-------+------------+
 *  32                  40                  48                  56                  64          68          72
 *  +-------------------+-------------------+-------------------+-------------------+-----------+-----------+
 *  | blockBytes (i64)  | putLength (i64)   | fragOffset (i64)  | context (i64)     |fragLength |crc32c     |
 *  +-------------------+-------------------+-------------------+-------------------+-----------+-----------+
 * </pre>
 * A DATA frame's {@code fragLength} payload bytes follow; they are bytes {@code [fragOffset, fragOffset+fragLength)}
 * of a put of {@code putLength} bytes. The collective fields (seq, collective, root, tag, algorithm, blockBytes)
 * let the receiver check that both ranks run the same collective with the same sizes and fail loudly on a
 * mismatch; the transport itself does not interpret them. {@code context} names the communicator the frame belongs
 * to (0: the world; a sub-communicator's is derived from its parent's, decision 0070); {@code seq} counts calls
 * within it, and the receiver routes the frame to that communicator's engine. The CRC covers bytes 0..67 and
 * catches a stream that lost its framing. ABORT frames carry a UTF-8 reason as payload, GOODBYE frames none.
 *
 * <p>Three control frames, used by the TCP rails only and never carrying a payload, make rail fail-over possible
 * (see {@code docs/rails.md}):
 * <ul>
 *   <li>{@link #ACK}: {@code seq} = how many DATA frames the sender of the ACK has completely received on this
 *       connection so far (cumulative). Also sent as a heartbeat when a connection has been quiet.</li>
 *   <li>{@link #REPLAY}: announces that the next DATA frame on this connection is a re-sent copy of the frame that
 *       was the {@code seq}-th DATA frame (from 0) on connection (lane) {@code tag}; {@code blockBytes} is the
 *       bit mask of lanes to the receiver that the sender has given up. The receiver stops reading those lanes and
 *       delivers the copy only if the original was not delivered.</li>
 *   <li>{@link #REPLAYS_DONE}: every frame the sender held of connection (lane {@code tag}, generation
 *       {@code root}) was re-sent ahead of it on this connection.</li>
 * </ul>
 */
public final class FrameHeader {
    public static final int BYTES = 72;
    /** Where the CRC32C lies; it covers every byte before it. */
    public static final int CRC_OFFSET = BYTES - 4;
    public static final short MAGIC = 0x5243;
    /** 2: the 8-byte communication context at 56 (version 1 had none and was 64 bytes long). */
    public static final byte VERSION = 2;

    public static final byte DATA = 1;
    public static final byte ABORT = 2;
    public static final byte GOODBYE = 3;
    /** Cumulative acknowledgement / heartbeat of a TCP rail connection; no payload. */
    public static final byte ACK = 4;
    /** Prefix of a re-sent DATA frame on a TCP rail connection; no payload. */
    public static final byte REPLAY = 5;
    /**
     * Shared memory only: a DATA frame whose payload stays in the sender's memory. The header is a DATA frame's
     * (same collective fields and lengths, {@code fragLength} bytes of the put); an 8-byte payload follows with the
     * address of those bytes in the sender's process. The receiver pulls them with {@code process_vm_readv} once
     * the destination is posted, then counts it finished in the ring's control block (docs/shared-memory.md).
     */
    public static final byte PULL = 6;
    /*
     * 7 was PULLED, the receiver's answer to a PULL as a frame on the ring back. It could wait there behind frames
     * of a later call that the sender, still waiting for the answer, could not take: a hang (decision 0217). The
     * answer is now a count beside the ring's head, and 7 is an unknown type.
     */
    /**
     * Shared memory only, first frame on every ring: {@code root} = 1 when the sender of this frame may pull from
     * the receiver's memory (so the receiver may send it {@link #PULL} frames), 0 otherwise; no payload.
     */
    public static final byte PULL_OFFER = 8;
    /**
     * TCP rails only, no payload: the sender has re-sent, ahead of this frame on this connection, every DATA frame it
     * held of its connection of lane {@code tag} and generation {@code root}, which it gave up or the receiver closed.
     * Until it comes, the receiver reads frames of later collectives from that peer into memory of its own rather
     * than pausing on them: a re-sent frame may travel behind one (decision 0246).
     */
    public static final byte REPLAYS_DONE = 9;

    public byte type;
    public int sourceRank;
    public long seq;
    public int collective;
    public int root;
    public int tag;
    public int algorithm;
    public long blockBytes;
    public long putLength;
    public long fragOffset;
    /** The communicator the frame belongs to (0: the world); see {@code engine.ContextRouter}. */
    public long context;
    public int fragLength;
    /**
     * Not on the wire: where a DATA frame's payload lands in the memory its {@link FrameSink} returned, set by the
     * sink when it accepts the frame (see {@link FrameSink#onDataHeader}).
     */
    public long landingOffset;

    private final CRC32C crc = new CRC32C();

    /** Writes this header at {@code buf}'s position (little-endian) and advances it by {@link #BYTES}. */
    public void encode(ByteBuffer buf) {
        ByteOrder saved = buf.order();
        buf.order(ByteOrder.LITTLE_ENDIAN);
        int start = buf.position();
        buf.putShort(MAGIC).put(VERSION).put(type).putInt(sourceRank).putLong(seq)
                .putInt(collective).putInt(root).putInt(tag).putInt(algorithm)
                .putLong(blockBytes).putLong(putLength).putLong(fragOffset).putLong(context).putInt(fragLength);
        crcOf(buf, start);
        buf.putInt((int) crc.getValue());
        buf.order(saved);
    }

    /**
     * The checksum of the {@link #CRC_OFFSET} bytes at {@code start} into {@link #crc}, read through {@code buf} itself
     * (its limit narrowed, then restored) rather than a slice of it: a header costs no allocation. Leaves the position
     * just past them.
     */
    private void crcOf(ByteBuffer buf, int start) {
        int limit = buf.limit();
        crc.reset();
        buf.limit(start + CRC_OFFSET).position(start);
        crc.update(buf);
        buf.limit(limit);
    }

    /**
     * Reads a header at {@code buf}'s position and advances it. Returns null when it is valid, else what is wrong
     * (bad magic, version or checksum): the stream can no longer be trusted.
     */
    public String decode(ByteBuffer buf) {
        ByteOrder saved = buf.order();
        buf.order(ByteOrder.LITTLE_ENDIAN);
        int start = buf.position();
        try {
            crcOf(buf, start);
            buf.position(start);
            int expected = (int) crc.getValue();
            short magic = buf.getShort();
            byte version = buf.get();
            type = buf.get();
            sourceRank = buf.getInt();
            seq = buf.getLong();
            collective = buf.getInt();
            root = buf.getInt();
            tag = buf.getInt();
            algorithm = buf.getInt();
            blockBytes = buf.getLong();
            putLength = buf.getLong();
            fragOffset = buf.getLong();
            context = buf.getLong();
            fragLength = buf.getInt();
            int actual = buf.getInt();
            if (magic != MAGIC) {
                return "bad frame magic 0x" + Integer.toHexString(magic & 0xffff) + " (stream out of sync or not railcoll)";
            }
            if (version != VERSION) {
                return "frame version " + version + ", expected " + VERSION;
            }
            if (actual != expected) {
                return "frame header checksum mismatch (corrupted stream)";
            }
            // putLength - fragLength cannot overflow once both are >= 0; fragOffset + fragLength could (found by
            // FrameHeaderFuzzTest: an offset near 2^63 wrapped negative and passed, and the receiver's slice failed).
            if (fragLength < 0 || fragOffset < 0 || putLength < 0
                    || fragOffset > putLength - fragLength && (type == DATA || type == PULL)) {
                return "frame with impossible lengths: fragment " + fragOffset + "+" + fragLength + " of " + putLength;
            }
            return null;
        } finally {
            buf.order(saved);
        }
    }

    /** Copies every field of {@code other} into this header. */
    public void copyFrom(FrameHeader other) {
        type = other.type;
        sourceRank = other.sourceRank;
        seq = other.seq;
        collective = other.collective;
        root = other.root;
        tag = other.tag;
        algorithm = other.algorithm;
        blockBytes = other.blockBytes;
        putLength = other.putLength;
        fragOffset = other.fragOffset;
        context = other.context;
        fragLength = other.fragLength;
    }

    @Override
    public String toString() {
        return "frame[type=" + type + " from=" + sourceRank + " ctx=" + Long.toHexString(context) + " seq=" + seq + " coll=" + collective + " root=" + root
                + " tag=" + tag + " alg=" + algorithm + " block=" + blockBytes + " put=" + putLength
                + " frag=" + fragOffset + "+" + fragLength + "]";
    }
}
