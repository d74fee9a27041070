package io.railcoll.transport.mcast;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The integrity check carried by every datagram (paper 003, sec. 4.4): a CRC32C (default, hardware-assisted in
 * the JDK), the paper's 32-bit additive checksum (sum of the little-endian 32-bit words, tail zero-padded, modulo
 * 2^32: cheaper to define, weaker: it misses swapped words), or none when reliability is switched off.
 *
 * <p>Each call of {@link #checksum} uses a {@link CRC32C} owned by the caller's {@link Checksummer}, so one
 * checksummer per thread.
 */
public enum ChecksumKind {
    CRC32C(1), ADDITIVE(2), NONE(0);

    /** The code written in the datagram header, so a receiver can tell a sender configured differently. */
    public final int code;

    ChecksumKind(int code) {
        this.code = code;
    }

    public static ChecksumKind parse(String s) {
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "crc32c", "crc" -> CRC32C;
            case "additive", "sum" -> ADDITIVE;
            case "none", "off" -> NONE;
            default -> throw new IllegalArgumentException("checksum must be crc32c, additive or none, got '" + s + "'");
        };
    }

    /** Computes checksums of one kind; holds the CRC state, so it belongs to one thread. */
    public static final class Checksummer {
        private final ChecksumKind kind;
        private final CRC32C crc = new CRC32C();

        public Checksummer(ChecksumKind kind) {
            this.kind = kind;
        }

        public ChecksumKind kind() {
            return kind;
        }

        /** The checksum of {@code buf[from, to)} then {@code buf[from2, to2)} (absolute indices; position untouched). */
        public int checksum(ByteBuffer buf, int from, int to, int from2, int to2) {
            return switch (kind) {
                case NONE -> 0;
                case CRC32C -> {
                    crc.reset();
                    crc.update(buf.slice(from, to - from));
                    crc.update(buf.slice(from2, to2 - from2));
                    yield (int) crc.getValue();
                }
                case ADDITIVE -> additive(buf, from, to) + additive(buf, from2, to2);
            };
        }

        /** Sum of the little-endian 32-bit words of {@code buf[from, to)}, modulo 2^32; a short tail is zero-padded. */
        static int additive(ByteBuffer buf, int from, int to) {
            ByteBuffer b = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            long sum = 0;
            int i = from;
            // Eight bytes at a time: the low and high words of a little-endian long are the two 32-bit words.
            for (; i + 8 <= to; i += 8) {
                long v = b.getLong(i);
                sum += (v & 0xffffffffL) + (v >>> 32);
            }
            for (; i + 4 <= to; i += 4) {
                sum += b.getInt(i) & 0xffffffffL;
            }
            int tail = 0;
            for (int shift = 0; i < to; i++, shift += 8) {
                tail |= (b.get(i) & 0xff) << shift;
            }
            return (int) (sum + (tail & 0xffffffffL));
        }
    }
}
