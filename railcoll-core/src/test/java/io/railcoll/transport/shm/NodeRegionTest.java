package io.railcoll.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Region life cycle in one process: creation, attachment, unlinking, failures, stale files. */
class NodeRegionTest {
    private Path dir;
    private ShmConfig config;

    @BeforeEach
    void setUp() throws Exception {
        dir = RegionFixtures.scratchDirectory();
        config = ShmConfig.defaults().withDirectory(dir).withRingBytes(4096)
                .withAttachTimeoutNs(10_000_000_000L);
    }

    @AfterEach
    void tearDown() throws Exception {
        RegionFixtures.deleteTree(dir);
    }

    @Test
    void theFileIsPrivateWhileRanksAttachAndGoneOnceAllHave() throws Exception {
        Path path = NodeRegion.pathOf(dir, "job1", 3);
        CompletableFuture<NodeRegion> creator = CompletableFuture.supplyAsync(() -> NodeRegion.open("job1", 3, 0, 2, config));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!Files.exists(path) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
        try (NodeRegion peer = NodeRegion.open("job1", 3, 1, 2, config);
             NodeRegion first = creator.get(10, TimeUnit.SECONDS)) {
            assertFalse(Files.exists(path), "unlinked as soon as every rank attached");
            assertTrue(first.isCreator());
            assertEquals(2, peer.localSize());
            assertTrue(peer.peers().isAlive(0));
            assertTrue(peer.cmaUsableWith(0), "a process may always read itself");
        }
        assertEquals(List.of(), Files.list(dir).toList());
    }

    @Test
    void aRankWithoutCreatorTimesOutSayingWhatItAwaitedAndWhere() {
        ShmException e = assertThrows(ShmException.class,
                () -> NodeRegion.open("job2", 0, 1, 2, config.withAttachTimeoutNs(100_000_000L)));
        assertEquals(ShmException.Reason.TIMED_OUT, e.reason());
        assertTrue(e.getMessage().contains("local rank 0 to create and initialise"), e.getMessage());
        assertTrue(e.getMessage().contains("railcoll-job2-n0"), e.getMessage());
        assertTrue(e.getMessage().contains("job job2, node 0, local rank 1"), e.getMessage());
    }

    @Test
    void aCreatorWhosePeersNeverComeNamesThemAndLeavesNoFile() throws Exception {
        ShmException e = assertThrows(ShmException.class,
                () -> NodeRegion.open("job3", 0, 0, 3, config.withAttachTimeoutNs(100_000_000L)));
        assertEquals(ShmException.Reason.TIMED_OUT, e.reason());
        assertTrue(e.getMessage().contains("local ranks [1, 2] of 3 to attach"), e.getMessage());
        assertEquals(List.of(), Files.list(dir).toList(), "a failed start-up leaves nothing behind");
    }

    @Test
    void aRankThatGivesUpDuringStartUpFailsTheOthersAtOnce() {
        CompletableFuture<NodeRegion> creator = CompletableFuture.supplyAsync(
                () -> NodeRegion.open("job8", 0, 0, 3, config.withAttachTimeoutNs(30_000_000_000L)));
        ShmException impatient = assertThrows(ShmException.class,
                () -> NodeRegion.open("job8", 0, 1, 3, config.withAttachTimeoutNs(1_000_000_000L)));
        assertEquals(ShmException.Reason.TIMED_OUT, impatient.reason());
        assertTrue(impatient.getMessage().contains("local ranks [2] of 3"), impatient.getMessage());
        Exception e = assertThrows(Exception.class, () -> creator.get(20, TimeUnit.SECONDS));
        ShmException cause = (ShmException) e.getCause();
        assertEquals(ShmException.Reason.PEER_LOST, cause.reason());
        assertTrue(cause.getMessage().contains("local rank 1 (pid " + ProcessHandle.current().pid()
                + ") gave up during start-up"), cause.getMessage());
    }

    @Test
    void aRankConfiguredDifferentlyFailsAtOnceWithMismatch() {
        CompletableFuture<NodeRegion> creator = CompletableFuture.supplyAsync(
                () -> NodeRegion.open("job4", 0, 0, 2, config.withAttachTimeoutNs(500_000_000L)));
        ShmException e = assertThrows(ShmException.class,
                () -> NodeRegion.open("job4", 0, 1, 2, config.withRingBytes(8192)));
        assertEquals(ShmException.Reason.MISMATCH, e.reason());
        assertTrue(e.getMessage().contains("ring bytes 4096 vs 8192"), e.getMessage());
        Exception creatorFailure = assertThrows(Exception.class, () -> creator.get(10, TimeUnit.SECONDS));
        assertTrue(creatorFailure.getCause() instanceof ShmException, creatorFailure.toString());
    }

    @Test
    void aStaleRegionOfADeadCreatorIsReportedAndReplaced() throws Exception {
        Path path = NodeRegion.pathOf(dir, "job5", 0);
        long dead = RegionFixtures.deadPid();
        RegionFixtures.writeRegionFile(path, RegionHeader.of("job5", 0, dead, 0, new RegionLayout(1, 4096)));
        String stderr = captureStderr(() -> {
            try (NodeRegion region = NodeRegion.open("job5", 0, 0, 1, config)) {
                assertEquals(1, region.localSize());
            }
        });
        assertTrue(stderr.contains("removing stale shared-memory region " + path), stderr);
        assertTrue(stderr.contains("creator pid " + dead + " (job 'job5') has exited"), stderr);
        assertFalse(Files.exists(path));
    }

    @Test
    void aRegionOfAnotherJobUnderThisNameIsReplaced() throws Exception {
        Path path = NodeRegion.pathOf(dir, "job6", 0);
        RegionFixtures.writeRegionFile(path, RegionHeader.of("other", 0, ProcessHandle.current().pid(),
                Processes.currentStartMillis(), new RegionLayout(1, 4096)));
        String stderr = captureStderr(() -> NodeRegion.open("job6", 0, 0, 1, config).close());
        assertTrue(stderr.contains("not job 'job6'"), stderr);
    }

    @Test
    void aLiveRegionOfThisJobIsNotTakenOver() throws Exception {
        Path path = NodeRegion.pathOf(dir, "job7", 0);
        RegionFixtures.writeRegionFile(path, RegionHeader.of("job7", 0, ProcessHandle.current().pid(),
                Processes.currentStartMillis(), new RegionLayout(1, 4096)));
        ShmException e = assertThrows(ShmException.class, () -> NodeRegion.open("job7", 0, 0, 1, config));
        assertEquals(ShmException.Reason.REGION, e.reason());
        assertTrue(e.getMessage().contains("is in use"), e.getMessage());
        assertTrue(Files.exists(path));
    }

    @Test
    void removeStaleTakesOnlyFilesOfDeadCreatorsWithTheJobPrefix() throws Exception {
        RegionLayout layout = new RegionLayout(2, 4096);
        long dead = RegionFixtures.deadPid();
        long me = ProcessHandle.current().pid();
        long myStart = Processes.currentStartMillis();
        Path deadA = NodeRegion.pathOf(dir, "killed-a", 0);
        Path deadB = NodeRegion.pathOf(dir, "killed-b", 1);
        Path live = NodeRegion.pathOf(dir, "killed-live", 0);
        Path otherJob = NodeRegion.pathOf(dir, "other", 0);
        RegionFixtures.writeRegionFile(deadA, RegionHeader.of("killed-a", 0, dead, 0, layout));
        RegionFixtures.writeRegionFile(deadB, RegionHeader.of("killed-b", 1, dead, 0, layout));
        RegionFixtures.writeRegionFile(live, RegionHeader.of("killed-live", 0, me, myStart, layout));
        RegionFixtures.writeRegionFile(otherJob, RegionHeader.of("other", 0, dead, 0, layout));
        Path young = dir.resolve("railcoll-killed-young-n0");
        Files.write(young, new byte[10]); // no header yet: its creator may be starting

        List<Path> removed = NodeRegion.removeStale(dir, "killed");
        assertEquals(List.of(deadA, deadB).stream().sorted().toList(), removed.stream().sorted().toList());
        assertTrue(Files.exists(live) && Files.exists(otherJob) && Files.exists(young));
        assertEquals(List.of(otherJob), NodeRegion.removeStale(dir, null));
    }

    @Test
    void jobIdsMustBeSafeFileNameParts() {
        assertThrows(IllegalArgumentException.class, () -> NodeRegion.pathOf(dir, "../etc", 0));
        assertThrows(IllegalArgumentException.class, () -> NodeRegion.pathOf(dir, "", 0));
        assertThrows(IllegalArgumentException.class, () -> NodeRegion.pathOf(dir, "a b", 0));
        assertEquals(dir.resolve("railcoll-j_1.x-n2"), NodeRegion.pathOf(dir, "j_1.x", 2));
    }

    private static String captureStderr(Runnable action) {
        PrintStream saved = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
