package io.railcoll.transport.shm;

import io.railcoll.memory.WaitStrategy;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of the shared-memory transport, validated at construction. Every rank of a node must
 * use the same {@code ringBytes} (the region's header records it and a rank with a different
 * value fails to attach); the other settings are per rank.
 *
 * @param directory where region files live; {@code /dev/shm} (a tmpfs) in production, so the
 *        "file" is memory and never touches a disk
 * @param ringBytes bytes of each {@link ShmChannel} ring, one per ordered pair of local ranks; a
 *        power of two from 4 KiB to 1 GiB. 64 KiB - 1 MiB is the useful range: larger rings only
 *        let a writer run further ahead of its reader
 * @param attachTimeoutNs how long {@link NodeRegion#open} waits for the creator and for every
 *        local rank to attach
 * @param waitStrategy how waiting threads spin, yield and sleep; {@code null} picks
 *        {@link WaitStrategy#forRanks} for the node's size
 */
public record ShmConfig(Path directory, int ringBytes, long attachTimeoutNs,
                        WaitStrategy waitStrategy) {
    public static final Path DEFAULT_DIRECTORY = Path.of("/dev/shm");
    public static final int DEFAULT_RING_BYTES = 256 * 1024;
    public static final long DEFAULT_ATTACH_TIMEOUT_NS = 30_000_000_000L;

    public ShmConfig {
        Objects.requireNonNull(directory, "directory");
        if (Integer.bitCount(ringBytes) != 1 || ringBytes < 4096 || ringBytes > (1 << 30)) {
            throw new IllegalArgumentException("ringBytes must be a power of two in [4096, 2^30], got " + ringBytes);
        }
        if (attachTimeoutNs <= 0) {
            throw new IllegalArgumentException("attachTimeoutNs must be positive, got " + attachTimeoutNs);
        }
    }

    /** The defaults: {@code /dev/shm}, 256 KiB rings, 30 s to attach. */
    public static ShmConfig defaults() {
        return new ShmConfig(DEFAULT_DIRECTORY, DEFAULT_RING_BYTES, DEFAULT_ATTACH_TIMEOUT_NS, null);
    }

    public ShmConfig withRingBytes(int bytes) {
        return new ShmConfig(directory, bytes, attachTimeoutNs, waitStrategy);
    }

    public ShmConfig withAttachTimeoutNs(long ns) {
        return new ShmConfig(directory, ringBytes, ns, waitStrategy);
    }

    public ShmConfig withDirectory(Path dir) {
        return new ShmConfig(dir, ringBytes, attachTimeoutNs, waitStrategy);
    }

    public ShmConfig withWaitStrategy(WaitStrategy strategy) {
        return new ShmConfig(directory, ringBytes, attachTimeoutNs, strategy);
    }

    /** The configured strategy, or the default for {@code localSize} ranks sharing this machine. */
    WaitStrategy waitStrategyFor(int localSize) {
        return waitStrategy != null ? waitStrategy : WaitStrategy.forRanks(localSize);
    }
}
