package io.railcoll.transport.shm.bench;

import io.railcoll.memory.WaitStrategy;
import io.railcoll.transport.shm.Cma;
import io.railcoll.transport.shm.NodeRegion;
import io.railcoll.transport.shm.ShmChannel;
import io.railcoll.transport.shm.ShmConfig;
import io.railcoll.transport.shm.ShmException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Shared-memory micro-benchmarks between two processes (this one as local rank 0 and a child JVM
 * as local rank 1): memcpy baseline, ring streaming bandwidth, single-copy (CMA) bandwidth,
 * wake-up latency of a ping-pong, and the CPU a rank burns while blocked. Not a test: it asserts
 * nothing, it prints figures for {@code docs/shared-memory.md}.
 *
 * <pre>
 * mvn -q -B -ntp -pl railcoll-core test-compile
 * java --enable-native-access=ALL-UNNAMED -cp railcoll-core/target/classes:railcoll-core/target/test-classes \
 *      io.railcoll.transport.shm.bench.ShmBench
 * </pre>
 */
public final class ShmBench {
    private static final long TIMEOUT_NS = 60_000_000_000L;
    private static final int[] RING_BYTES = {64 << 10, 256 << 10, 1 << 20};
    private static final long[] MESSAGE_BYTES = {1 << 20, 4 << 20};
    private static final long STREAM_TOTAL_BYTES = 512L << 20;
    private static final long[] CMA_BYTES = {1 << 20, 4 << 20, 16 << 20};
    private static final int PING_PONGS = 20_000;
    private static final int PING_PONGS_PARKED = 3_000;

    private ShmBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("rank")) {
            run(1, args[1]);
            return;
        }
        System.out.printf(Locale.ROOT, "cpus=%d java=%s%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        memcpy();
        String job = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ShmBench.class.getName(), "rank", job).inheritIO().start();
        try {
            run(0, job);
        } finally {
            if (child.waitFor() != 0) {
                System.out.println("child exited with " + child.exitValue());
            }
        }
    }

    private static void memcpy() {
        try (Arena arena = Arena.ofConfined()) {
            for (long bytes : new long[] {1 << 20, 4 << 20, 16 << 20}) {
                MemorySegment src = arena.allocate(bytes, 4096);
                MemorySegment dst = arena.allocate(bytes, 4096);
                src.fill((byte) 1);
                dst.fill((byte) 2);
                long total = 0;
                long start = System.nanoTime();
                for (int i = 0; i < 5; i++) { // warm-up
                    MemorySegment.copy(src, 0, dst, 0, bytes);
                }
                start = System.nanoTime();
                while (total < STREAM_TOTAL_BYTES) {
                    MemorySegment.copy(src, 0, dst, 0, bytes);
                    total += bytes;
                }
                System.out.printf(Locale.ROOT, "memcpy        %6d KiB blocks: %6.2f GB/s%n", bytes >> 10,
                        total / (double) (System.nanoTime() - start));
            }
        }
    }

    private static void run(int me, String job) throws Exception {
        int node = 0;
        for (int ring : RING_BYTES) {
            try (NodeRegion region = open(job, node++, me, ShmConfig.defaults().withRingBytes(ring))) {
                for (long message : MESSAGE_BYTES) {
                    stream(region, message, ring);
                }
            }
        }
        try (NodeRegion region = open(job, node++, me, ShmConfig.defaults())) {
            cma(region);
        }
        try (NodeRegion region = open(job, node++, me, ShmConfig.defaults())) {
            pingPong(region, PING_PONGS, "default wait (spin, yield, futex)");
        }
        try (NodeRegion region = open(job, node++, me,
                ShmConfig.defaults().withWaitStrategy(new WaitStrategy(0, 0, 10_000_000L)))) {
            pingPong(region, PING_PONGS_PARKED, "futex only (no spin, no yield)");
        }
        try (NodeRegion region = open(job, node++, me, ShmConfig.defaults())) {
            idle(region);
        }
        try (NodeRegion region = open(job, node++, me, ShmConfig.defaults())) {
            idleOnNodeFlag(region);
        }
    }

    private static NodeRegion open(String job, int node, int me, ShmConfig config) {
        return NodeRegion.open(job, node, me, 2, config);
    }

    /** Rank 0 streams {@code STREAM_TOTAL_BYTES} as {@code message}-byte writes; rank 1 reads them; rank 0 times it to the ack. */
    private static void stream(NodeRegion region, long message, int ring) {
        int me = region.localRank();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(message, 4096);
            buffer.fill((byte) (me + 1));
            MemorySegment ack = arena.allocate(8);
            long rounds = STREAM_TOTAL_BYTES / message;
            for (int pass = 0; pass < 2; pass++) { // first pass warms up the JIT and the pages
                long start = System.nanoTime();
                if (me == 0) {
                    ShmChannel out = region.channelTo(1);
                    for (long i = 0; i < rounds; i++) {
                        out.writeFully(buffer, 0, message, TIMEOUT_NS);
                    }
                    region.channelFrom(1).readFully(ack, 0, 8, TIMEOUT_NS);
                } else {
                    ShmChannel in = region.channelFrom(0);
                    for (long i = 0; i < rounds; i++) {
                        in.readFully(buffer, 0, message, TIMEOUT_NS);
                    }
                    region.channelTo(0).writeFully(ack, 0, 8, TIMEOUT_NS);
                }
                long ns = System.nanoTime() - start;
                if (me == 0 && pass == 1) {
                    System.out.printf(Locale.ROOT, "ring %4d KiB, %5d KiB messages: %6.2f GB/s (%d MiB streamed)%n",
                            ring >> 10, message >> 10, rounds * message / (double) ns, STREAM_TOTAL_BYTES >> 20);
                }
            }
        }
    }

    /** Rank 0 publishes (pid, address, length); rank 1 reads it with process_vm_readv and acks; timed at rank 1. */
    private static void cma(NodeRegion region) {
        int me = region.localRank();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment notice = arena.allocate(24, 8);
            MemorySegment ackOrTime = arena.allocate(8, 8);
            if (me == 1 && !region.cmaUsableWith(0)) {
                System.out.println("cma: not usable here: " + Cma.ptraceDiagnosis());
            }
            for (long bytes : CMA_BYTES) {
                MemorySegment buffer = arena.allocate(bytes, 4096);
                buffer.fill((byte) 7);
                int rounds = (int) Math.max(4, STREAM_TOTAL_BYTES / bytes);
                long copyNs = 0;
                for (int i = 0; i < rounds + 2; i++) { // two warm-up rounds
                    if (me == 0) {
                        notice.set(ValueLayout.JAVA_LONG, 0, ProcessHandle.current().pid());
                        notice.set(ValueLayout.JAVA_LONG, 8, buffer.address());
                        notice.set(ValueLayout.JAVA_LONG, 16, bytes);
                        region.channelTo(1).writeFully(notice, 0, 24, TIMEOUT_NS);
                        region.channelFrom(1).readFully(ackOrTime, 0, 8, TIMEOUT_NS);
                    } else {
                        region.channelFrom(0).readFully(notice, 0, 24, TIMEOUT_NS);
                        long start = System.nanoTime();
                        try {
                            Cma.read(notice.get(ValueLayout.JAVA_LONG, 0), notice.get(ValueLayout.JAVA_LONG, 8), buffer,
                                    0, notice.get(ValueLayout.JAVA_LONG, 16));
                        } catch (ShmException e) {
                            System.out.println("cma: " + e.getMessage());
                        }
                        if (i >= 2) {
                            copyNs += System.nanoTime() - start;
                        }
                        region.channelTo(0).writeFully(ackOrTime, 0, 8, TIMEOUT_NS);
                    }
                }
                if (me == 1) {
                    ackOrTime.set(ValueLayout.JAVA_LONG, 0, copyNs);
                    region.channelTo(0).writeFully(ackOrTime, 0, 8, TIMEOUT_NS);
                } else {
                    region.channelFrom(1).readFully(ackOrTime, 0, 8, TIMEOUT_NS);
                    long ns = ackOrTime.get(ValueLayout.JAVA_LONG, 0);
                    System.out.printf(Locale.ROOT, "cma process_vm_readv %5d KiB: %6.2f GB/s%n", bytes >> 10,
                            rounds * bytes / (double) ns);
                }
            }
        }
    }

    /** 8-byte token back and forth through the two rings; reports the one-way latency (half a round trip). */
    private static void pingPong(NodeRegion region, int rounds, String label) {
        int me = region.localRank();
        ShmChannel out = region.channelTo(1 - me);
        ShmChannel in = region.channelFrom(1 - me);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment token = arena.allocate(8, 8);
            long[] roundTrips = new long[rounds];
            int warmUp = rounds / 10;
            for (int i = -warmUp; i < rounds; i++) {
                if (me == 0) {
                    long start = System.nanoTime();
                    out.writeFully(token, 0, 8, TIMEOUT_NS);
                    in.readFully(token, 0, 8, TIMEOUT_NS);
                    if (i >= 0) {
                        roundTrips[i] = System.nanoTime() - start;
                    }
                } else {
                    in.readFully(token, 0, 8, TIMEOUT_NS);
                    out.writeFully(token, 0, 8, TIMEOUT_NS);
                }
            }
            if (me == 0) {
                Arrays.sort(roundTrips);
                System.out.printf(Locale.ROOT, "ping-pong, %s: one-way p50 %.1f us, p90 %.1f us, p99 %.1f us (%d round trips)%n",
                        label, roundTrips[rounds / 2] / 2000.0, roundTrips[rounds * 9 / 10] / 2000.0,
                        roundTrips[rounds * 99 / 100] / 2000.0, rounds);
            }
        }
    }

    /**
     * Rank 1 waits for a node flag of rank 0 for about a second while rank 0 sleeps (what a node step does when a
     * node-mate is late); rank 1 reports the CPU it used.
     */
    private static void idleOnNodeFlag(NodeRegion region) throws InterruptedException {
        int me = region.localRank();
        var area = region.stepArea();
        if (me == 0) {
            Thread.sleep(1000);
            area.raise(0, 1, 0);
            return;
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long wall = System.nanoTime();
        long thread = threads.getCurrentThreadCpuTime();
        long process = os.getProcessCpuTime();
        long deadline = wall + TIMEOUT_NS;
        while (area.flag(0, 0) < 1) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("local rank 0 did not raise node flag 0 within the deadline");
            }
            area.await(0, 0, 1, 100_000_000L, false);
        }
        wall = System.nanoTime() - wall;
        thread = threads.getCurrentThreadCpuTime() - thread;
        process = os.getProcessCpuTime() - process;
        System.out.println(String.format(Locale.ROOT, "idle on a node flag: blocked %.0f ms; waiting thread used"
                + " %.2f ms CPU (%.2f%% of a core), whole process %.2f ms (%.2f%%)", wall / 1e6,
                thread / 1e6, 100.0 * thread / wall, process / 1e6, 100.0 * process / wall));
    }

    /** Rank 1 blocks in a read for about a second while rank 0 sleeps; rank 1 reports the CPU it used. */
    private static void idle(NodeRegion region) throws InterruptedException {
        int me = region.localRank();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment token = arena.allocate(8, 8);
            if (me == 0) {
                Thread.sleep(1000);
                region.channelTo(1).writeFully(token, 0, 8, TIMEOUT_NS);
                region.channelFrom(1).readFully(token, 0, 8, TIMEOUT_NS);
                return;
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long wall = System.nanoTime();
            long thread = threads.getCurrentThreadCpuTime();
            long process = os.getProcessCpuTime();
            region.channelFrom(0).readFully(token, 0, 8, TIMEOUT_NS);
            wall = System.nanoTime() - wall;
            thread = threads.getCurrentThreadCpuTime() - thread;
            process = os.getProcessCpuTime() - process;
            List<String> lines = new ArrayList<>();
            lines.add(String.format(Locale.ROOT, "idle: blocked %.0f ms; waiting thread used %.2f ms CPU (%.2f%% of a core),"
                    + " whole process %.2f ms (%.2f%%)", wall / 1e6, thread / 1e6, 100.0 * thread / wall,
                    process / 1e6, 100.0 * process / wall));
            lines.forEach(System.out::println);
            region.channelTo(0).writeFully(token, 0, 8, TIMEOUT_NS);
        }
    }
}
