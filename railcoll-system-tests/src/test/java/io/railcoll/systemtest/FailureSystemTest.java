package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input and broken peers end in clear, named errors within the deadline: never a hang or a wrong result. */
class FailureSystemTest {
    private static final Map<String, String> SHORT_DEADLINE = Map.of("RAILCOLL_TIMEOUT_MS", "8000");

    @Test
    void aKilledRankMakesTheOthersFailNamingIt() {
        java.util.Set<String> before = railcollSharedMemory();
        Jobs.Outcome o = Jobs.run(Placement.uniform(2, 2), 2, FaultApps.DieMidway.class, List.of("2"), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        assertEquals(2, o.result().failedRank(), o.all());
        // Every survivor reports the lost rank by number, well inside the job's deadline.
        for (int r : new int[] {0, 1, 3}) {
            assertTrue(o.namesLostRank(r, 2), "rank " + r + " did not name the lost rank:\n" + o.stderr());
        }
        assertTrue(o.elapsedMs() < 60_000, "took " + o.elapsedMs() + " ms");
        assertNoSharedMemoryLeft(before);
    }

    /**
     * Killed inside {@code allgather.smp-direct-shm}'s overlapped layout (3 ranks x 128 KiB per node), where a master
     * hands pieces to its node through the node buffer while the rest of the exchange is on the rails: a node-mate,
     * then a master. Every survivor names the lost rank, on its own node through shared memory, on the other through
     * its master's abort.
     */
    @ParameterizedTest(name = "victim {0}")
    @ValueSource(ints = {4, 3})
    void aRankKilledInTheOverlappedNodeStepsIsNamedByEveryone(int victim) {
        java.util.Set<String> before = railcollSharedMemory();
        Jobs.Outcome o = Jobs.run(Placement.uniform(2, 3), 2, FaultApps.DieMidway.class,
                List.of(Integer.toString(victim), "131072", "allgather.smp-direct-shm"), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        assertEquals(victim, o.result().failedRank(), o.all());
        for (int r = 0; r < 6; r++) {
            if (r != victim) {
                assertTrue(o.namesLostRank(r, victim), "rank " + r + " did not name the lost rank:\n" + o.stderr());
            }
        }
        assertTrue(o.elapsedMs() < 60_000, "took " + o.elapsedMs() + " ms");
        assertNoSharedMemoryLeft(before);
    }

    /**
     * Nothing of a finished job stays in /dev/shm, whether it ended well or a rank was killed: no railcoll file that
     * was not there before it ({@code before}; another test's, or another process's on this host, is not this job's).
     */
    private static void assertNoSharedMemoryLeft(java.util.Set<String> before) {
        List<String> left = railcollSharedMemory().stream().filter(n -> !before.contains(n)).sorted().toList();
        assertTrue(left.isEmpty(), "shared-memory files left behind: " + left);
    }

    private static java.util.Set<String> railcollSharedMemory() {
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("/dev/shm"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("railcoll"))
                    .collect(java.util.stream.Collectors.toSet());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aKilledNodeMateFailsItsNeighboursOverSharedMemory() {
        java.util.Set<String> before = railcollSharedMemory();
        Jobs.Outcome o = Jobs.run(Placement.singleNode(3), 1, FaultApps.DieMidway.class, List.of("1"), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        assertEquals(1, o.result().failedRank(), o.all());
        for (int r : new int[] {0, 2}) {
            assertTrue(o.namesLostRank(r, 1), "rank " + r + " did not name the lost rank:\n" + o.stderr());
        }
        assertTrue(o.elapsedMs() < 60_000, "took " + o.elapsedMs() + " ms");
        assertNoSharedMemoryLeft(before);
    }

    @Test
    void aRankThatNeverArrivesTimesOutNamingWhatWasAwaited() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(3, 1), 1, FaultApps.LateRank.class, List.of(),
                Map.of("RAILCOLL_TIMEOUT_MS", "3000"), Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        // Rank 0 waits for rank 1's block, never gets it, and says so instead of hanging.
        assertTrue(Pattern.compile("\\[r[02]] FAILED: io\\.railcoll\\.CollectiveTimeoutException: .*allgather #2.*timed out after"
                + " [0-9.]+ s waiting for 16 bytes .*from rank 1").matcher(o.stderr()).find(), o.stderr());
        assertTrue(o.elapsedMs() < 50_000, "took " + o.elapsedMs() + " ms");
    }

    @Test
    void aSizeMismatchIsReportedOnBothSides() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(1, 3), 1, FaultApps.SizeMismatch.class, List.of(), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        // Every rank fails with the mismatch, rank 1 included, instead of hanging: found in a frame's size ("size
        // mismatch"), in the node-mates' notes of their calls when the all-gather runs in node steps (decision 0194:
        // "runs another collective, algorithm, size or root"), or heard as a node-mate's abort that names the reason
        // (decision 0133).
        for (int r = 0; r < 3; r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.(MismatchException: .*(size mismatch|runs another"
                    + " collective, algorithm, size or root as call #2)|(MismatchException|CollectiveAbortedException):"
                    + " .*\\(MISMATCH; its own error says more\\))").matcher(err).find(), "rank " + r + ":\n" + err);
        }
    }

    /**
     * One rank calls {@code allgather.smp-direct-shm} with 1000-byte blocks while the others call it with 128 KiB
     * ones, where their masters overlap the node's hand-offs with the rails: the node-mates and the masters disagree
     * on the hand-offs themselves, and every rank fails with a mismatch (or an abort naming one) inside the deadline.
     */
    @ParameterizedTest(name = "odd rank {0}")
    @ValueSource(ints = {4, 3})
    void aSizeMismatchAgainstTheOverlappedPathFailsEveryRank(int odd) {
        java.util.Set<String> before = railcollSharedMemory();
        Jobs.Outcome o = Jobs.run(Placement.uniform(2, 3), 2, FaultApps.SizeMismatch.class,
                List.of("131072", Integer.toString(odd), "1000", "allgather.smp-direct-shm"), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        for (int r = 0; r < 6; r++) {
            // Its own mismatch, or an abort relaying one.
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.(MismatchException|CollectiveAbortedException:"
                    + " .*(?i:mismatch))").matcher(err).find(), "rank " + r + ":\n" + err);
        }
        assertTrue(o.elapsedMs() < 60_000, "took " + o.elapsedMs() + " ms");
        assertNoSharedMemoryLeft(before);
    }

    @Test
    void differentCollectivesAtTheSamePointFailLoudly() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(1, 3), 1, FaultApps.CollectiveMismatch.class, List.of(), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        // Through the engine's frames ("called barrier as collective #1 while rank 1 called allgather") or, on one
        // node, through the node-mates' notes of their calls, which node steps compare (decision 0194).
        assertTrue(o.stderr().contains("called barrier as collective #1 while rank")
                || o.stderr().contains("called allgather as collective #1 while rank")
                || o.stderr().contains("runs another collective, algorithm, size or root as call #1 than this rank's"),
                o.stderr());
    }

    @Test
    void stripedPutsUseEveryRail() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(2, 1), 2, FaultApps.RailUsage.class, List.of(), Map.of()).assertSucceeded();
        Matcher m = Pattern.compile("RAILS rank (\\d) (\\d+) (\\d+)").matcher(o.stdout());
        int seen = 0;
        while (m.find()) {
            seen++;
            long rail0 = Long.parseLong(m.group(2));
            long rail1 = Long.parseLong(m.group(3));
            assertTrue(rail0 >= 32768 && rail1 >= 32768, "a 64 KiB put must be split over both rails: " + m.group());
        }
        assertEquals(2, seen, o.stdout());
    }

    @Test
    void programmingErrorsThrowBeforeAnythingIsSent() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(1, 3), 1, FaultApps.ProgrammingErrors.class, List.of(), SHORT_DEADLINE, Jobs.SHORT_JOB)
                .assertSucceeded();
        for (int r = 0; r < 3; r++) {
            assertTrue(o.stdout().contains("PROGRAMMING-ERRORS-OK rank " + r), o.stdout());
        }
    }
}
