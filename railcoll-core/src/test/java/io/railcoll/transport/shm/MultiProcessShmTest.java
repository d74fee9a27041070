package io.railcoll.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shared-memory transport between real processes, one JVM per rank (see {@link ShmRankMain}).
 * Each job checks many cases, because starting a JVM costs about half a second of CPU here.
 */
class MultiProcessShmTest {
    private static final Path SHM = ShmConfig.DEFAULT_DIRECTORY;

    private static String newJobId(String what) {
        return "t" + what + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static List<Path> filesOf(String jobId) throws Exception {
        try (var files = Files.list(SHM)) {
            return files.filter(p -> p.getFileName().toString().startsWith(RegionFiles.PREFIX + jobId)).toList();
        }
    }

    @Test
    void everySizeOfStreamCopyAndNodeCollectiveIsDeliveredIntactOnNodesOfOneToEightRanks() throws Exception {
        String job = newJobId("matrix");
        int processes = 8;
        List<List<String>> args = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            args.add(List.of("matrix", job, Integer.toString(p), Integer.toString(processes)));
        }
        try (RankProcesses ranks = RankProcesses.start(ShmRankMain.class, args)) {
            int[] codes = ranks.awaitExit(150_000);
            assertArrayEquals(new int[processes], codes, ranks.describeAll());
            for (int p = 0; p < processes; p++) {
                String out = ranks.output(p);
                assertTrue(out.contains("DONE"), out);
                // process p belongs to the nodes of sizes p+1 .. 8
                for (int localSize = p + 1; localSize <= processes; localSize++) {
                    assertTrue(out.contains("OK localSize=" + localSize + " checks="), "process " + p + ":\n" + out);
                }
            }
        }
        assertEquals(List.of(), filesOf(job), "a finished job leaves no region file");
    }

    @ParameterizedTest(name = "killed local rank {0}")
    @ValueSource(ints = {0, 1})
    void killingARankMidStreamMakesItsNodeMatesFailAsPeerLost(int victim) throws Exception {
        String job = newJobId("kill");
        List<List<String>> args = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            args.add(List.of("kill", job, Integer.toString(p), Integer.toString(victim)));
        }
        try (RankProcesses ranks = RankProcesses.start(ShmRankMain.class, args)) {
            ranks.awaitOutput(victim, "MIDWAY", 60_000);
            long victimPid = ranks.pid(victim);
            ranks.kill(victim);
            // The survivors wait with a 60 s deadline; they must notice the death long before it.
            int[] codes = ranks.awaitExit(20_000);
            for (int p = 0; p < 3; p++) {
                if (p == victim) {
                    continue;
                }
                String out = ranks.output(p);
                assertEquals(3, codes[p], ranks.describeAll());
                assertTrue(out.contains("SHM_FAILURE PEER_LOST"), out);
                assertTrue(out.contains("local rank " + victim + " (pid " + victimPid + ") has exited"), out);
            }
            int reader = (victim + 1) % 3;
            assertTrue(ranks.output(reader).contains("data in the ring from local rank " + victim + " to local rank " + reader),
                    ranks.output(reader));
            int other = (victim + 2) % 3;
            assertTrue(ranks.output(other).contains("data in the ring from local rank " + victim + " to local rank " + other),
                    ranks.output(other));
        }
        assertEquals(List.of(), filesOf(job), "the creator unlinked the file once all ranks had attached");
        assertEquals(List.of(), NodeRegion.removeStale(job));
    }

    @Test
    void filesOfAJobKilledDuringStartUpAreReplacedOrRemovedAsStale() throws Exception {
        String job = newJobId("stale");
        try {
            killedCreatorsFilesAreReplacedOrRemoved(job);
        } finally {
            for (Path f : filesOf(job)) {
                Files.deleteIfExists(f); // a failed run leaves no file for later tests to trip on
            }
        }
    }

    private void killedCreatorsFilesAreReplacedOrRemoved(String job) throws Exception {
        long holderPid;
        try (RankProcesses holder = RankProcesses.start(ShmRankMain.class, List.of(List.of("hold", job, "2")))) {
            holder.awaitOutput(0, "CREATED", 60_000);
            holderPid = holder.pid(0);
            holder.kill(0);
        }
        Path node0 = NodeRegion.pathOf(SHM, job, 0);
        Path node1 = NodeRegion.pathOf(SHM, job, 1);
        assertEquals(List.of(node0, node1), filesOf(job).stream().sorted().toList(), "the killed creator's files remain");

        // A new run of the same job and node replaces the stale file, saying so on stderr.
        PrintStream saved = System.err;
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            NodeRegion.open(job, 0, 0, 1, ShmRankMain.CONFIG).close();
        } finally {
            System.setErr(saved);
        }
        String note = stderr.toString(StandardCharsets.UTF_8);
        assertTrue(note.contains("removing stale shared-memory region " + node0), note);
        assertTrue(note.contains("creator pid " + holderPid), note);
        assertFalse(Files.exists(node0));

        // A launcher cleaning up after the killed job removes the other one.
        assertEquals(List.of(node1), NodeRegion.removeStale(job));
        assertEquals(List.of(), filesOf(job));
    }
}
