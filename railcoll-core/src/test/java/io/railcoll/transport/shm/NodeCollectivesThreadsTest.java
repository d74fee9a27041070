package io.railcoll.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Node collectives with the ranks as threads of one process, each with its own mapping: fast
 * checks of the step protocol, agreement checks and peer loss. The multi-process test repeats
 * the data checks with real processes.
 */
class NodeCollectivesThreadsTest {
    private static final long TIMEOUT_NS = 20_000_000_000L;
    private static final int RANKS = 3;
    private Path dir;
    private List<NodeRegion> regions;
    private ExecutorService pool;

    @BeforeEach
    void setUp() throws Exception {
        dir = RegionFixtures.scratchDirectory();
        // A 1 KiB node buffer: 128-byte pieces per rank, so most sizes take many steps.
        ShmConfig config = ShmConfig.defaults().withDirectory(dir).withRingBytes(4096).withNodeBufferBytes(1024);
        regions = RegionFixtures.openAll("threads", 0, RANKS, config);
        pool = Executors.newFixedThreadPool(RANKS);
    }

    @AfterEach
    void tearDown() throws Exception {
        pool.shutdownNow();
        for (NodeRegion r : regions) {
            r.close();
        }
        RegionFixtures.deleteTree(dir);
    }

    interface RankBody {
        void run(int rank, NodeCollectives collectives, Arena arena);
    }

    private List<Throwable> runAll(RankBody body) throws Exception {
        List<Future<?>> futures = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            int rank = r;
            futures.add(pool.submit(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    body.run(rank, regions.get(rank).collectives(), arena);
                }
                return null;
            }));
        }
        List<Throwable> failures = new ArrayList<>();
        for (Future<?> f : futures) {
            try {
                f.get(60, TimeUnit.SECONDS);
                failures.add(null);
            } catch (ExecutionException e) {
                failures.add(e.getCause());
            }
        }
        return failures;
    }

    private static byte value(int rank, long i, int call) {
        return (byte) (rank * 59 + i * 7 + call * 13 + (i >>> 9));
    }

    private static MemorySegment block(Arena arena, int rank, long size, int call) {
        MemorySegment s = arena.allocate(Math.max(1, size));
        for (long i = 0; i < size; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, value(rank, i, call));
        }
        return s;
    }

    private static void expectBlock(MemorySegment dst, long offset, int rank, long size, int call, String what) {
        for (long i = 0; i < size; i++) {
            byte got = dst.get(ValueLayout.JAVA_BYTE, offset + i);
            if (got != value(rank, i, call)) {
                throw new AssertionError(what + ": byte " + i + " of rank " + rank + "'s block is " + got
                        + ", expected " + value(rank, i, call));
            }
        }
    }

    @ParameterizedTest(name = "mailboxes {0}")
    @ValueSource(booleans = {false, true})
    void everyCollectiveDeliversEveryByteForManySizesAndRoots(boolean mailboxes) throws Exception {
        long[] sizes = {0, 1, 63, 64, 127, 128, 129, 247, 248, 249, 1000, 4095, 4096, 10_007};
        List<Throwable> failures = runAll((rank, coll, arena) -> {
            coll.useMailboxes(mailboxes);
            int call = 0;
            for (long size : sizes) {
                for (int root = 0; root < RANKS; root++) {
                    call++;
                    MemorySegment dst = arena.allocate(Math.max(1, size * RANKS));
                    coll.nodeGather(root, block(arena, rank, size, call), 0, size, rank == root ? dst : null, 0, TIMEOUT_NS);
                    if (rank == root) {
                        for (int q = 0; q < RANKS; q++) {
                            expectBlock(dst, q * size, q, size, call, "gather size " + size + " root " + root);
                        }
                    }
                    call++;
                    MemorySegment buffer = rank == root ? block(arena, rank, size, call) : arena.allocate(Math.max(1, size));
                    coll.nodeBroadcast(root, buffer, 0, size, TIMEOUT_NS);
                    expectBlock(buffer, 0, root, size, call, "broadcast size " + size + " root " + root);
                }
                call++;
                MemorySegment all = arena.allocate(Math.max(1, size * RANKS) + 16);
                coll.nodeAllgather(block(arena, rank, size, call), 0, size, all, 16, TIMEOUT_NS);
                for (int q = 0; q < RANKS; q++) {
                    expectBlock(all, 16 + q * size, q, size, call, "allgather size " + size);
                }
                coll.nodeBarrier(TIMEOUT_NS);
            }
        });
        assertEquals(java.util.Collections.nCopies(RANKS, null), failures);
    }

    @ParameterizedTest(name = "mailboxes {0}")
    @ValueSource(booleans = {false, true})
    void ranksThatDisagreeOnTheSizeFailWithMismatch(boolean mailboxes) throws Exception {
        List<Throwable> failures = runAll((rank, coll, arena) -> {
            coll.useMailboxes(mailboxes);
            long size = rank == 2 ? 200 : 100;
            coll.nodeAllgather(block(arena, rank, size, 1), 0, size, arena.allocate(3 * size), 0, 2_000_000_000L);
        });
        List<Throwable> mismatches = failures.stream()
                .filter(t -> t instanceof ShmException e && e.reason() == ShmException.Reason.MISMATCH).toList();
        assertTrue(!mismatches.isEmpty(), "no rank reported the mismatch: " + failures);
        assertTrue(mismatches.getFirst().getMessage().contains("allgather in the node buffer (200 bytes per rank"),
                mismatches.getFirst().getMessage());
    }

    /**
     * Back-to-back small broadcasts and gathers through the mailboxes, where some ranks wait for nobody and could lap
     * the others: first from one root (the root runs furthest ahead), then from moving roots, then mixed with
     * all-gathers.
     */
    @Test
    void manySmallBroadcastsAndGathersInARowThroughTheMailboxesDeliverEveryByte() throws Exception {
        List<Throwable> failures = runAll((rank, coll, arena) -> {
            coll.useMailboxes(true);
            MemorySegment buffer = arena.allocate(NodeCollectives.MAILBOX_DATA_BYTES);
            MemorySegment all = arena.allocate(3 * 8);
            for (int call = 1; call <= 3000; call++) {
                int root = call <= 1000 ? 0 : call % RANKS;
                long size = call % (NodeCollectives.MAILBOX_DATA_BYTES + 1);
                MemorySegment message = rank == root ? block(arena, rank, size, call) : buffer;
                coll.nodeBroadcast(root, message, 0, size, TIMEOUT_NS);
                expectBlock(message, 0, root, size, call, "broadcast " + call + " of " + size + " bytes from " + root);
                if (call % 5 == 0) {
                    MemorySegment gathered = arena.allocate(3 * size + 1);
                    coll.nodeGather(root, block(arena, rank, size, -call), 0, size, rank == root ? gathered : null, 0,
                            TIMEOUT_NS);
                    for (int q = 0; rank == root && q < RANKS; q++) {
                        expectBlock(gathered, q * size, q, size, -call, "gather after broadcast " + call);
                    }
                }
                if (call > 2000 && call % 3 == 0) {
                    coll.nodeAllgather(block(arena, rank, 8, call), 0, 8, all, 0, TIMEOUT_NS);
                    for (int q = 0; q < RANKS; q++) {
                        expectBlock(all, q * 8L, q, 8, call, "allgather after broadcast " + call);
                    }
                }
            }
        });
        assertEquals(java.util.Collections.nCopies(RANKS, null), failures);
    }

    @Test
    void ranksWithDifferentSingleCopyThresholdsFailWithMismatchInsteadOfMisreadingSteps() throws Exception {
        List<Throwable> failures = runAll((rank, coll, arena) -> {
            if (rank != 1) {
                coll.enableSingleCopy(64, true);
            }
            coll.nodeAllgather(block(arena, rank, 100, 1), 0, 100, arena.allocate(300), 0, 2_000_000_000L);
        });
        List<Throwable> mismatches = failures.stream()
                .filter(t -> t instanceof ShmException e && e.reason() == ShmException.Reason.MISMATCH).toList();
        assertTrue(!mismatches.isEmpty(), "no rank reported the mismatch: " + failures);
        assertTrue(mismatches.getFirst().getMessage().contains("single-copy announce step first"),
                mismatches.getFirst().getMessage());
    }

    @ParameterizedTest(name = "mailboxes {0}")
    @ValueSource(booleans = {false, true})
    void aRankThatClosesItsRegionMakesTheOthersFailAsPeerLost(boolean mailboxes) throws Exception {
        List<Throwable> failures = runAll((rank, coll, arena) -> {
            coll.useMailboxes(mailboxes);
            if (rank == 1) {
                regions.get(1).close();
                return;
            }
            coll.nodeBarrier(TIMEOUT_NS);
        });
        for (int r : new int[] {0, 2}) {
            ShmException e = assertInstanceOf(ShmException.class, failures.get(r));
            assertEquals(ShmException.Reason.PEER_LOST, e.reason());
            assertTrue(e.getMessage().contains("local rank 1 (pid") && e.getMessage().contains("closed its end"),
                    e.getMessage());
            assertTrue(e.getMessage().contains(mailboxes ? "header of barrier #1 in its mailbox"
                    : "barrier #1 in the node buffer"), e.getMessage());
        }
        assertTrue(failures.get(0).getMessage().contains("job threads, node 0, local rank 0"), failures.get(0).getMessage());
        assertEquals(1, regions.get(0).peers().firstLost());
    }

    /**
     * A failed cross-memory transfer names the node-mate it was moving bytes with (the kernel's error only knows a
     * pid): the root of a single-copy broadcast offers a buffer at an address nothing is mapped at, so the others'
     * reads from it and its own writes from it fail with EFAULT. The first rank to fail reports CMA_FAILED (the
     * others may instead see its abort first); each CMA_FAILED names the rank on the other end: the root for a
     * reader, the first rank it writes to for the root.
     */
    @Test
    void aFailedSingleCopyTransferNamesTheNodeMateOnTheOtherEnd() throws Exception {
        long bytes = 8192;
        List<Throwable> failures = runAll((rank, coll, arena) -> {
            coll.enableSingleCopy(1, true);
            MemorySegment buffer = rank == 0 ? MemorySegment.ofAddress(4096).reinterpret(bytes) : arena.allocate(bytes);
            coll.nodeBroadcast(0, buffer, 0, bytes, TIMEOUT_NS);
        });
        int transferFailures = 0;
        for (int r = 0; r < RANKS; r++) {
            ShmException e = assertInstanceOf(ShmException.class, failures.get(r), "rank " + r);
            if (e.reason() == ShmException.Reason.ABORTED) {
                continue;
            }
            assertEquals(ShmException.Reason.CMA_FAILED, e.reason(), e.getMessage());
            int other = r == 0 ? 1 : 0;
            assertEquals(other, e.localPeer(), e.getMessage());
            assertTrue(e.getMessage().contains((r == 0 ? "writing 2688 bytes to local rank " : "reading 5504 bytes from "
                    + "local rank ") + other + " (pid") && e.getMessage().contains("single-copy broadcast #1"),
                    e.getMessage());
            transferFailures++;
        }
        assertTrue(transferFailures > 0, "no rank reported the failed transfer: " + failures);
    }
    /**
     * Broadcasts have their own single-copy threshold (decision 0182): with broadcasts left in the node buffer and
     * all-gathers and gathers single-copy from 1 byte, a 64 KiB broadcast arrives through the node buffer (no
     * single-copy call) while the all-gather and the gather of the same size go single-copy, byte for byte.
     */
    @Test
    void broadcastsKeepTheNodeBufferWhileTheOthersGoSingleCopy() throws Exception {
        long bytes = 65536;
        List<Throwable> failures = runAll((rank, coll, arena) -> {
            coll.enableSingleCopy(Long.MAX_VALUE, 1, 1, true);
            for (int root = 0; root < RANKS; root++) {
                long before = coll.singleCopyCalls();
                MemorySegment buffer = rank == root ? block(arena, rank, bytes, 7) : arena.allocate(bytes);
                coll.nodeBroadcast(root, buffer, 0, bytes, TIMEOUT_NS);
                expectBlock(buffer, 0, root, bytes, 7, "broadcast root " + root);
                assertEquals(before, coll.singleCopyCalls(), "a broadcast went single-copy");
            }
            long before = coll.singleCopyCalls();
            MemorySegment all = arena.allocate(bytes * RANKS);
            coll.nodeAllgather(block(arena, rank, bytes, 8), 0, bytes, all, 0, TIMEOUT_NS);
            for (int q = 0; q < RANKS; q++) {
                expectBlock(all, q * bytes, q, bytes, 8, "allgather");
            }
            assertEquals(before + 1, coll.singleCopyCalls(), "the all-gather did not go single-copy");
        });
        assertEquals(java.util.Collections.nCopies(RANKS, null), failures);
    }
}
