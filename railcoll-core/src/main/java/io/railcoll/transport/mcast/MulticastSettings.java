package io.railcoll.transport.mcast;

import io.railcoll.settings.RailcollSettings;

import java.util.Map;

/**
 * Every tunable of the multicast broadcast, validated in one place; each names the environment variable that sets
 * it in {@link #fromEnvironment(Map)}.
 *
 * @param channels            C, the broadcast channels (sec. 4.1): how many broadcasts pipeline before a delayed
 *                            synchronization ({@code RAILCOLL_MCAST_CHANNELS}, 1..64, default 16)
 * @param payloadBytes        payload per datagram ({@code RAILCOLL_MCAST_PAYLOAD}, default 1400 so a datagram plus its
 *                            56-byte header and UDP/IP headers fits a 1500-byte MTU; up to 65000 on loopback)
 * @param checksum            integrity check ({@code RAILCOLL_MCAST_CHECKSUM}=crc32c|additive, default crc32c)
 * @param reliable            checksums, NACKs, retransmission and fail-over on a stuck stream
 *                            ({@code RAILCOLL_MCAST_RELIABLE}=on|off, default on); off only to measure their cost: a
 *                            lost datagram then ends in a time-out
 * @param bufferedLimitBytes  the root keeps a copy of a message up to this size and returns at once (the paper's
 *                            16 KB "copied into the channel" case); a larger message is sent from the caller's buffer
 *                            and its broadcast ends with a synchronization ({@code RAILCOLL_MCAST_BUFFERED_LIMIT},
 *                            default 65536)
 * @param nackDelayNs         a receiver waiting for a message that made no progress this long sends a NACK, and
 *                            again after each further such period ({@code RAILCOLL_MCAST_NACK_DELAY_US}, default 2 ms)
 * @param syncTimeoutNs       a root waiting this long in a synchronization re-sends every message it sent since the
 *                            last one (sender-side loss detection, doubling each time; {@code RAILCOLL_MCAST_SYNC_TIMEOUT_MS},
 *                            default 200 ms)
 * @param maxRetransmissions  a root asked by NACKs for one datagram again after each of this many re-sends of it
 *                            decides that multicast keeps failing and asks for fail-over, provided the requests
 *                            went on for at least this many times 8 NACK delays (one receiver asking at its slowest
 *                            pace; 640 ms by default)
 *                            ({@code RAILCOLL_MCAST_MAX_RETRANSMISSIONS}, 1..30000, default 40; at 5% loss one receiver
 *                            needs 40 re-sends of a datagram with probability 1e-52)
 * @param timeoutNs           how long any single wait may last before failing with a named error
 *                            ({@code RAILCOLL_TIMEOUT_MS}, shared with the rest of railcoll, default 30 s)
 * @param treeRadix           k of the k-nomial trees used for synchronization and fail-over
 *                            ({@code RAILCOLL_MCAST_TREE_RADIX}, default 4)
 * @param treeChunkBytes      fail-over data moves in control messages of at most this many bytes
 *                            ({@code RAILCOLL_MCAST_TREE_CHUNK}, default 65536)
 * @param receiveBufferBytes  SO_RCVBUF asked for the multicast socket (the kernel caps it at net.core.rmem_max)
 *                            ({@code RAILCOLL_MCAST_RCVBUF}, default 4 MiB)
 * @param faults              faults injected on the receive path ({@code RAILCOLL_MCAST_FAULTS}, see {@link FaultPlan})
 */
public record MulticastSettings(
        int channels,
        int payloadBytes,
        ChecksumKind checksum,
        boolean reliable,
        int bufferedLimitBytes,
        long nackDelayNs,
        long syncTimeoutNs,
        int maxRetransmissions,
        long timeoutNs,
        int treeRadix,
        int treeChunkBytes,
        int receiveBufferBytes,
        FaultPlan faults) {

    public static final int MAX_CHANNELS = 64;
    /** The largest UDP payload over IPv4 (65507) less the header, rounded down. */
    public static final int MAX_PAYLOAD_BYTES = 65_000;

    public MulticastSettings {
        if (channels < 1 || channels > MAX_CHANNELS) {
            throw new IllegalArgumentException("channels must be 1.." + MAX_CHANNELS + ", got " + channels);
        }
        if (payloadBytes < 1 || payloadBytes > MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("datagram payload must be 1.." + MAX_PAYLOAD_BYTES + " bytes, got " + payloadBytes);
        }
        if (bufferedLimitBytes < 0) {
            throw new IllegalArgumentException("buffered limit must be >= 0");
        }
        if (nackDelayNs <= 0 || syncTimeoutNs <= 0 || timeoutNs <= 0) {
            throw new IllegalArgumentException("NACK delay, sync time-out and time-out must be > 0");
        }
        if (maxRetransmissions < 1 || maxRetransmissions > 30_000) {
            throw new IllegalArgumentException("max retransmissions must be 1..30000, got " + maxRetransmissions);
        }
        if (treeRadix < 2) {
            throw new IllegalArgumentException("tree radix must be >= 2, got " + treeRadix);
        }
        if (treeChunkBytes < 1) {
            throw new IllegalArgumentException("tree chunk must be >= 1 byte");
        }
        if (receiveBufferBytes < 1) {
            throw new IllegalArgumentException("receive buffer must be >= 1 byte");
        }
        if (!reliable) {
            checksum = ChecksumKind.NONE;
        } else if (checksum == ChecksumKind.NONE) {
            throw new IllegalArgumentException("reliable mode needs a checksum (crc32c or additive)");
        }
    }

    public static MulticastSettings defaults() {
        return new MulticastSettings(16, 1400, ChecksumKind.CRC32C, true, 65536, 2_000_000L, 200_000_000L, 40,
                30_000_000_000L, 4, 65536, 4 << 20, FaultPlan.NONE);
    }

    /**
     * Reads the variables named on each component through their {@link RailcollSettings} definitions (one parser,
     * ranges checked in the type each is used as); absent ones keep their default.
     */
    public static MulticastSettings fromEnvironment(Map<String, String> env) {
        boolean reliable = RailcollSettings.MCAST_RELIABLE.read(env);
        return new MulticastSettings(
                RailcollSettings.MCAST_CHANNELS.read(env),
                RailcollSettings.MCAST_PAYLOAD.read(env),
                reliable ? ChecksumKind.parse(RailcollSettings.MCAST_CHECKSUM.read(env)) : ChecksumKind.NONE,
                reliable,
                RailcollSettings.MCAST_BUFFERED_LIMIT.read(env),
                RailcollSettings.MCAST_NACK_DELAY.read(env),
                RailcollSettings.MCAST_SYNC_TIMEOUT.read(env),
                RailcollSettings.MCAST_MAX_RETRANSMISSIONS.read(env),
                RailcollSettings.TIMEOUT.read(env),
                RailcollSettings.MCAST_TREE_RADIX.read(env),
                RailcollSettings.MCAST_TREE_CHUNK.read(env),
                RailcollSettings.MCAST_RCVBUF.read(env),
                FaultPlan.parse(RailcollSettings.MCAST_FAULTS.read(env)));
    }

    public MulticastSettings withChannels(int c) {
        return new MulticastSettings(c, payloadBytes, checksum, reliable, bufferedLimitBytes, nackDelayNs, syncTimeoutNs,
                maxRetransmissions, timeoutNs, treeRadix, treeChunkBytes, receiveBufferBytes, faults);
    }

    public MulticastSettings withPayloadBytes(int p) {
        return new MulticastSettings(channels, p, checksum, reliable, bufferedLimitBytes, nackDelayNs, syncTimeoutNs,
                maxRetransmissions, timeoutNs, treeRadix, treeChunkBytes, receiveBufferBytes, faults);
    }

    public MulticastSettings withReliability(boolean on, ChecksumKind kind) {
        return new MulticastSettings(channels, payloadBytes, on ? kind : ChecksumKind.NONE, on, bufferedLimitBytes,
                nackDelayNs, syncTimeoutNs, maxRetransmissions, timeoutNs, treeRadix, treeChunkBytes, receiveBufferBytes, faults);
    }

    public MulticastSettings withFaults(FaultPlan f) {
        return new MulticastSettings(channels, payloadBytes, checksum, reliable, bufferedLimitBytes, nackDelayNs, syncTimeoutNs,
                maxRetransmissions, timeoutNs, treeRadix, treeChunkBytes, receiveBufferBytes, f);
    }

    public MulticastSettings withTimeouts(long nackDelay, long syncTimeout, long timeout) {
        return new MulticastSettings(channels, payloadBytes, checksum, reliable, bufferedLimitBytes, nackDelay, syncTimeout,
                maxRetransmissions, timeout, treeRadix, treeChunkBytes, receiveBufferBytes, faults);
    }

    public MulticastSettings withMaxRetransmissions(int max) {
        return new MulticastSettings(channels, payloadBytes, checksum, reliable, bufferedLimitBytes, nackDelayNs, syncTimeoutNs,
                max, timeoutNs, treeRadix, treeChunkBytes, receiveBufferBytes, faults);
    }

    public MulticastSettings withBufferedLimit(int bytes) {
        return new MulticastSettings(channels, payloadBytes, checksum, reliable, bytes, nackDelayNs, syncTimeoutNs,
                maxRetransmissions, timeoutNs, treeRadix, treeChunkBytes, receiveBufferBytes, faults);
    }

    public MulticastSettings withTree(int radix, int chunkBytes) {
        return new MulticastSettings(channels, payloadBytes, checksum, reliable, bufferedLimitBytes, nackDelayNs, syncTimeoutNs,
                maxRetransmissions, timeoutNs, radix, chunkBytes, receiveBufferBytes, faults);
    }
}
