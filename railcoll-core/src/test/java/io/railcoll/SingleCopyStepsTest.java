package io.railcoll;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Single-copy steps run by the engine (decision 0143) on real communicators sharing one node region in this JVM:
 * cross-memory attach between ranks that are threads of one process is the same system call on the same kernel path
 * (the process reads itself), with heap buffers (staged into native memory by the engine) and native ones, 0-byte,
 * odd and above-2-MiB sizes, roots other than 0, back to back and several in flight at once, byte for byte.
 */
class SingleCopyStepsTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(120));
    private static final long[] SIZES = {0, 1, 65_537, 3 * 1024 * 1024 + 5};

    @Test
    void threeRanksHeapAndNativeBuffersEverySizeAndRoot() throws Exception {
        runOn(3);
    }

    @Test
    void fiveRanksInFlightTogether() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(5, CONFIG)) {
            ranks.onEveryRank(c -> {
                force(c);
                int n = c.size();
                long b = 100_003;
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment send = arena.allocate(b);
                    fill(send, c.rank());
                    MemorySegment all = arena.allocate(b * n);
                    MemorySegment gathered = arena.allocate(b * n);
                    byte[] message = new byte[(int) b];
                    int root = n - 2;
                    if (c.rank() == root) {
                        fill(MemorySegment.ofArray(message), 77);
                    }
                    for (int round = 0; round < 3; round++) {
                        Request a = c.iallgather(send, all);
                        Request g = c.igather(send, gathered, 1);
                        Request m = c.ibroadcast(MemorySegment.ofArray(message), root);
                        m.await();
                        g.await();
                        a.await();
                        for (int q = 0; q < n; q++) {
                            check(all.asSlice(q * b, b), q);
                            if (c.rank() == 1) {
                                check(gathered.asSlice(q * b, b), q);
                            }
                        }
                        check(MemorySegment.ofArray(message), 77);
                    }
                }
            });
        }
    }

    /**
     * With cross-memory attach off on the node (RAILCOLL_CMA=off; the kernel's own refusal, ptrace_scope 3 or another
     * uid, reaches the same node agreement through the start-up probe, which this host cannot provoke for ranks that
     * are threads of one process), the node agrees on no single copy: selection never picks it, and forcing it fails
     * with a message naming why, while the call through the node buffer still runs.
     */
    @Test
    void whereTheNodeRefusedSingleCopyForcingItFailsClearly() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(2, CONFIG.withCma(false))) {
            ranks.onEveryRank(c -> {
                c.forceAlgorithm("allgather.shm-single-copy");
                byte[] send = new byte[8];
                byte[] all = new byte[16];
                IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalArgumentException.class, () -> c.allgather(send, all));
                org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("single copy is off here"),
                        e.getMessage());
                c.forceAlgorithm("allgather.shm");
                fill(MemorySegment.ofArray(send), c.rank());
                c.allgather(send, all);
                check(MemorySegment.ofArray(all).asSlice(8L * (1 - c.rank()), 8), 1 - c.rank());
            });
        }
    }

    /**
     * The contention-free single-copy broadcast (decision 0180), byte for byte: 2, 3, 5 and 8 ranks, every root, heap
     * and native buffers, 0 bytes to more than the node buffer (parts of 64-byte multiples, trailing ones empty at 63
     * bytes), then three back to back in flight with an all-gather between.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5, 8})
    void theScatterAllgatherBroadcastIsByteExactOnEveryRoot(int size) throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(size, CONFIG)) {
            ranks.onEveryRank(c -> {
                c.forceAlgorithm("broadcast.shm-scatter-allgather");
                int n = c.size();
                for (long b : new long[] {0, 1, 63, 65_537, 3 * 1024 * 1024 + 5}) {
                    for (int root = 0; root < n; root++) {
                        boolean heap = (root + b) % 2 == 0;
                        try (Arena arena = Arena.ofShared()) {
                            MemorySegment message = buffer(arena, b, heap);
                            if (c.rank() == root) {
                                fill(message, 100 + root);
                            }
                            c.broadcast(message, root);
                            check(message, 100 + root);
                        }
                    }
                }
                try (Arena arena = Arena.ofShared()) {
                    long b = 200_001;
                    MemorySegment[] messages = new MemorySegment[3];
                    Request[] requests = new Request[3];
                    for (int i = 0; i < 3; i++) {
                        messages[i] = arena.allocate(b);
                        if (c.rank() == i % n) {
                            fill(messages[i], 40 + i);
                        }
                        requests[i] = c.ibroadcast(messages[i], i % n);
                    }
                    byte[] send = new byte[8];
                    byte[] all = new byte[8 * n];
                    fill(MemorySegment.ofArray(send), c.rank());
                    c.allgather(send, all);
                    for (int i = 2; i >= 0; i--) {
                        requests[i].await();
                        check(messages[i], 40 + i);
                    }
                }
            });
        }
    }

    private static void runOn(int size) throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(size, CONFIG)) {
            ranks.onEveryRank(c -> {
                force(c);
                int n = c.size();
                for (long b : SIZES) {
                    for (boolean heap : new boolean[] {true, false}) {
                        for (int root : new int[] {0, n - 1}) {
                            try (Arena arena = Arena.ofShared()) {
                                MemorySegment send = buffer(arena, b, heap);
                                fill(send, c.rank());
                                MemorySegment all = buffer(arena, b * n, heap);
                                c.allgather(send, all);
                                for (int q = 0; q < n; q++) {
                                    check(all.asSlice(q * b, b), q);
                                }
                                MemorySegment gathered = buffer(arena, c.rank() == root ? b * n : 0, heap);
                                c.gather(send, gathered, root);
                                if (c.rank() == root) {
                                    for (int q = 0; q < n; q++) {
                                        check(gathered.asSlice(q * b, b), q);
                                    }
                                }
                                MemorySegment message = buffer(arena, b, heap);
                                if (c.rank() == root) {
                                    fill(message, 100 + root);
                                }
                                c.broadcast(message, root);
                                check(message, 100 + root);
                            }
                        }
                    }
                }
            });
        }
    }

    private static void force(Communicator c) {
        c.forceAlgorithm("allgather.shm-single-copy");
        c.forceAlgorithm("gather.shm-single-copy");
        c.forceAlgorithm("broadcast.shm-single-copy");
    }

    private static MemorySegment buffer(Arena arena, long bytes, boolean heap) {
        return heap ? MemorySegment.ofArray(new byte[(int) bytes]) : arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
    }

    private static void fill(MemorySegment s, int seed) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed * 7));
        }
    }

    private static void check(MemorySegment s, int seed) {
        for (long i = 0; i < s.byteSize(); i++) {
            byte want = (byte) (i * 31 + seed * 7);
            if (s.get(ValueLayout.JAVA_BYTE, i) != want) {
                assertEquals(want, s.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of " + s.byteSize() + " (seed "
                        + seed + ")");
            }
        }
    }
}
