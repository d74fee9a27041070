package io.railcoll.transport.shm;

import io.railcoll.memory.Idler;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * One rank of a multi-process shared-memory test, started by {@link RankProcesses}. Prints
 * progress lines, {@code DONE} on success, and exits 0; on a shared-memory failure prints
 * {@code SHM_FAILURE <reason> <message>} and exits 3; on anything else exits 1.
 *
 * <ul>
 *   <li>{@code matrix <jobId> <process> <maxLocal> [minLocal]}: for every node size L = minLocal..maxLocal, the
 *       processes 0..L-1 form node L and check, byte for byte, streaming between every ordered
 *       pair, single-copy reads, gather, broadcast and all-gather for every message size, and
 *       the barrier.</li>
 *   <li>{@code kill <jobId> <process> <victim>}: three ranks; the victim stops half-way through
 *       a stream to the next rank and prints {@code MIDWAY} (the test then kills it); the next
 *       rank reads that stream, the other waits in a barrier. Both must fail with PEER_LOST.</li>
 *   <li>{@code hold <jobId> <nodes>}: creates the regions of nodes 0..nodes-1 as local rank 0 of
 *       two, prints {@code CREATED} once the files exist and waits for peers that never come (the
 *       test kills it, leaving stale files).</li>
 * </ul>
 */
public final class ShmRankMain {
    static final long[] SIZES = {0, 1, 63, 64, 4095, 4096, 65537, 4L << 20};
    static final long PATTERN_BYTES = 8L << 20;
    static final long TIMEOUT_NS = 60_000_000_000L;
    /** Small rings, so that most sizes wrap and stream in many chunks. */
    static final ShmConfig CONFIG = ShmConfig.defaults().withRingBytes(64 * 1024)
            .withAttachTimeoutNs(60_000_000_000L);

    private ShmRankMain() {
    }

    public static void main(String[] args) {
        try {
            switch (args[0]) {
                case "matrix" -> matrix(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                        args.length > 4 ? Integer.parseInt(args[4]) : 1);
                case "kill" -> kill(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
                case "hold" -> hold(args[1], Integer.parseInt(args[2]));
                default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
            }
            System.out.println("DONE");
            System.out.flush();
            System.exit(0);
        } catch (ShmException e) {
            System.out.println("SHM_FAILURE " + e.reason() + " " + e.getMessage());
            System.out.flush();
            System.exit(3);
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }

    // ---- matrix ------------------------------------------------------------------------------

    private static void matrix(String jobId, int process, int maxLocal, int minLocal) {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment pattern = pattern(arena);
            for (int localSize = minLocal; localSize <= maxLocal; localSize++) {
                if (process >= localSize) {
                    continue;
                }
                long checks = 0;
                try (NodeRegion region = NodeRegion.open(jobId, localSize, process, localSize, CONFIG)) {
                    checks += streams(region, pattern);
                    checks += singleCopy(region, pattern);
                }
                System.out.println("OK localSize=" + localSize + " checks=" + checks);
            }
        }
    }

    /** Every rank streams a message of every size to every other rank at once, non-blocking, as the engine would. */
    private static long streams(NodeRegion region, MemorySegment pattern) {
        int size = region.localSize();
        int me = region.localRank();
        Idler idler = region.newIdler();
        long checks = 0;
        for (int index = 0; index < SIZES.length; index++) {
            long bytes = SIZES[index];
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment[] received = new MemorySegment[size];
                long[] sent = new long[size];
                long[] got = new long[size];
                for (int peer = 0; peer < size; peer++) {
                    received[peer] = arena.allocate(Math.max(1, bytes));
                }
                long lastProgress = System.nanoTime();
                boolean finished = false;
                while (!finished) {
                    boolean progress = false;
                    finished = true;
                    for (int peer = 0; peer < size; peer++) {
                        if (peer == me) {
                            continue;
                        }
                        if (sent[peer] < bytes) {
                            long n = region.channelTo(peer).write(pattern, offset(me, peer, index, bytes) + sent[peer],
                                    bytes - sent[peer]);
                            sent[peer] += n;
                            progress |= n > 0;
                        }
                        if (got[peer] < bytes) {
                            long n = region.channelFrom(peer).read(received[peer], got[peer], bytes - got[peer]);
                            got[peer] += n;
                            progress |= n > 0;
                        }
                        finished &= sent[peer] == bytes && got[peer] == bytes;
                    }
                    if (progress) {
                        idler.reset();
                        lastProgress = System.nanoTime();
                    } else if (!finished) {
                        if (System.nanoTime() - lastProgress > TIMEOUT_NS) {
                            throw new AssertionError("streams of " + bytes + " bytes made no progress for 60 s");
                        }
                        idler.idle();
                    }
                }
                idler.reset();
                for (int peer = 0; peer < size; peer++) {
                    if (peer != me) {
                        expect(received[peer], 0, pattern, offset(peer, me, index, bytes), bytes,
                                "stream of " + bytes + " bytes from local rank " + peer);
                        checks++;
                    }
                }
            }
        }
        return checks;
    }

    /** Each rank reads a block straight out of the previous rank's memory, told where by a channel message. */
    private static long singleCopy(NodeRegion region, MemorySegment pattern) {
        int size = region.localSize();
        if (size < 2) {
            return 0;
        }
        int me = region.localRank();
        int next = (me + 1) % size;
        int previous = (me + size - 1) % size;
        if (!region.cmaUsableWith(previous)) {
            System.out.println("CMA not usable here: " + Cma.ptraceDiagnosis());
            return 0;
        }
        long checks = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment notice = arena.allocate(24, 8);
            MemorySegment ack = arena.allocate(1);
            for (long bytes : new long[] {65537, 4L << 20}) {
                long source = 12345 + me;
                notice.set(ValueLayout.JAVA_LONG, 0, ProcessHandle.current().pid());
                notice.set(ValueLayout.JAVA_LONG, 8, pattern.address() + source);
                notice.set(ValueLayout.JAVA_LONG, 16, bytes);
                region.channelTo(next).writeFully(notice, 0, 24, TIMEOUT_NS);
                region.channelFrom(previous).readFully(notice, 0, 24, TIMEOUT_NS);
                MemorySegment copy = arena.allocate(bytes);
                Cma.read(notice.get(ValueLayout.JAVA_LONG, 0), notice.get(ValueLayout.JAVA_LONG, 8), copy, 0,
                        notice.get(ValueLayout.JAVA_LONG, 16));
                region.channelTo(previous).writeFully(ack, 0, 1, TIMEOUT_NS); // the owner may reuse its buffer
                expect(copy, 0, pattern, 12345 + previous, bytes, "single-copy read of " + bytes + " bytes");
                region.channelFrom(next).readFully(ack, 0, 1, TIMEOUT_NS);
                checks++;
            }
        }
        return checks;
    }

    // ---- kill ------------------------------------------------------------------------------

    private static void kill(String jobId, int process, int victim) {
        try (Arena arena = Arena.ofShared(); NodeRegion region = NodeRegion.open(jobId, 0, process, 3, CONFIG)) {
            MemorySegment pattern = pattern(arena);
            int reader = (victim + 1) % 3;
            System.out.println("ATTACHED");
            System.out.flush();
            if (process == victim) {
                region.channelTo(reader).writeFully(pattern, 0, 1000, TIMEOUT_NS); // part of a 1 MiB message
                System.out.println("MIDWAY");
                System.out.flush();
                sleep(120_000);
            } else if (process == reader) {
                region.channelFrom(victim).readFully(arena.allocate(1 << 20), 0, 1 << 20, TIMEOUT_NS);
            } else {
                // The victim never writes to this rank: its read must end with the victim's death, not the deadline.
                region.channelFrom(victim).readFully(arena.allocate(1), 0, 1, TIMEOUT_NS);
            }
        }
    }

    // ---- hold ------------------------------------------------------------------------------

    private static void hold(String jobId, int nodes) throws Exception {
        for (int node = 0; node < nodes; node++) {
            int n = node;
            Thread.ofPlatform().start(() -> NodeRegion.open(jobId, n, 0, 2, CONFIG.withAttachTimeoutNs(120_000_000_000L)));
        }
        for (int node = 0; node < nodes; node++) {
            Path path = NodeRegion.pathOf(CONFIG.directory(), jobId, node);
            // Ready with this process as its creator: killed earlier, the file could record no creator (a loaded
            // host once took longer than a fixed pause here).
            while (RegionFiles.inspect(path).state() != RegionFiles.State.LIVE) {
                sleep(2);
            }
        }
        System.out.println("CREATED");
        System.out.flush();
        sleep(120_000);
    }

    // ---- data ------------------------------------------------------------------------------

    /** The same pseudo-random bytes in every process. */
    static MemorySegment pattern(Arena arena) {
        MemorySegment pattern = arena.allocate(PATTERN_BYTES, 64);
        long x = 0x9E3779B97F4A7C15L;
        for (long i = 0; i < PATTERN_BYTES; i += 8) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            pattern.set(ValueLayout.JAVA_LONG_UNALIGNED, i, x);
        }
        return pattern;
    }

    /** Where in the pattern the message of ({@code from}, {@code to}, size index) starts: arbitrary, often odd. */
    static long offset(int from, int to, int sizeIndex, long bytes) {
        long mix = (from * 1_000_003L + to * 7_919L + sizeIndex * 104_729L) * 0x9E3779B1L;
        return Math.floorMod(mix, PATTERN_BYTES - bytes + 1);
    }

    static void expect(MemorySegment actual, long actualOffset, MemorySegment pattern, long patternOffset, long bytes,
                       String what) {
        long at = MemorySegment.mismatch(actual, actualOffset, actualOffset + bytes, pattern, patternOffset,
                patternOffset + bytes);
        if (at != -1) {
            throw new AssertionError(what + ": first wrong byte at " + at);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
