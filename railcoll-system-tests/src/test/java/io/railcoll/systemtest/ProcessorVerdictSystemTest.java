package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whether every rank has a processor of its own (decision 0196), settled from the counts every rank published at the
 * rendezvous, on real processes: every rank of a job, and of its sub-communicators, selects alike, and the verdict
 * follows the processors against the ranks that share them. {@code RAILCOLL_NODE_CPUS} (with binding off, which
 * would set it itself) stands for the machine's processors, so the test means the same on any host.
 */
class ProcessorVerdictSystemTest {
    private static final Pattern VERDICT = Pattern.compile(
            "VERDICT rank (\\d+) allgather=(\\S+) barrier=(\\S+) allreduce=(\\S+) sub-allgather=(\\S+) gather-1m=(\\S+)"
                    + " allreduce-1m=(\\S+)");

    @TempDir
    Path dir;

    /** Each rank's line: its all-gather, gather, all-reduce and sub-communicator all-gather choices. */
    private static List<List<String>> verdicts(Jobs.Outcome o, int ranks) {
        List<List<String>> out = new ArrayList<>();
        Matcher m = VERDICT.matcher(o.stdout());
        while (m.find()) {
            out.add(List.of(m.group(2), m.group(3), m.group(4), m.group(5), m.group(6), m.group(7)));
        }
        assertEquals(ranks, out.size(), o.stdout());
        assertTrue(o.stdout().contains("VERDICT-CHECKED"), o.stdout());
        return out;
    }

    private static Jobs.Outcome run(Placement p, String processors, Map<String, String> more) {
        Map<String, String> env = new java.util.HashMap<>(more);
        env.put("RAILCOLL_BIND", "none");
        env.put("RAILCOLL_NODE_CPUS", processors);
        return Jobs.run(p, 1, ProcessorVerdictApps.Select.class, List.of(), env).assertSucceeded();
    }

    /**
     * The built-in table on one node of 3 ranks: with 3 processors every rank has one, and the barrier and an 8 B
     * all-reduce go by recursive doubling in node flags; with 2 they share, and both take the node buffer's master
     * forms (decisions 0201, 0230). A 1 MiB gather and all-reduce go single copy either way (decisions 0197, 0234), and
     * each ran checked.
     */
    @Test
    void oneNodeOfThreeSelectsByWhetherEveryRankHasAProcessor() {
        Placement p = Placement.singleNode(3);
        List<String> large = List.of("gather.shm-single-copy", "allreduce.shm-single-copy");
        for (List<String> v : verdicts(run(p, "3", Map.of()), 3)) {
            assertEquals(List.of("barrier.shm-dissemination", "allreduce.shm-doubling"), v.subList(1, 3), v.toString());
            assertEquals(large, v.subList(4, 6), v.toString());
        }
        for (List<String> v : verdicts(run(p, "2", Map.of()), 3)) {
            assertEquals(List.of("barrier.shm", "allreduce.shm"), v.subList(1, 3), v.toString());
            assertEquals(large, v.subList(4, 6), v.toString());
        }
    }

    /**
     * An emulated cluster of 2 nodes x 2 ranks: the launcher says 4 ranks share the host (RAILCOLL_HOST_RANKS), so 3
     * processors are too few although each node has only 2 ranks, and 4 are enough. A tuning file whose all-gather
     * rules depend on nothing else shows the verdict on the world and on the sub-communicators, which keep it.
     */
    @Test
    void anEmulatedClusterCountsTheHostsRanksAndSubCommunicatorsKeepTheVerdict() throws IOException {
        Path tuning = dir.resolve("processors.properties");
        Files.writeString(tuning, """
                railcoll.tuning.version = 1
                model.shm.alpha-ns = 2000
                model.shm.ns-per-byte = 0.25
                model.rail.alpha-ns = 30000
                model.rail.ns-per-byte = 0.5
                rule.allgather.10 = allgather.ring if processors=own
                rule.allgather.20 = allgather.direct if processors=shared
                """);
        Placement p = Placement.parse("2x2");
        Map<String, String> env = Map.of("RAILCOLL_TUNING", tuning.toString());
        for (List<String> v : verdicts(run(p, "4", env), 4)) {
            assertEquals("allgather.ring", v.get(0), v.toString());
            assertEquals("allgather.ring", v.get(3), v.toString());
        }
        for (List<String> v : verdicts(run(p, "3", env), 4)) {
            assertEquals("allgather.direct", v.get(0), v.toString());
            assertEquals("allgather.direct", v.get(3), v.toString());
        }
    }
}
