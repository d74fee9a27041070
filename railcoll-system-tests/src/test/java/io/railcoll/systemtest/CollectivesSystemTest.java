package io.railcoll.systemtest;

import io.railcoll.bench.CheckApp;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collective with every algorithm of the catalog, checked byte for byte on every rank, on real processes
 * over real loopback rails. One job per placement checks all of its cases, so JVM start-up is paid once per job.
 */
class CollectivesSystemTest {
    /** The second pass of the jobs marked {@code large}: 1 MiB blocks by the default selection. */
    static final List<String> LARGE_BY_DEFAULT = List.of("sizes=1048576", "algorithms=auto", "roots=last",
            "buffers=segment,direct");

    /**
     * Where {@code large}, the job's second pass checks 1 MiB blocks with the default selection (root last, segment
     * and direct buffers; these ran as jobs of their own, with the same placement, rails and settings, until
     * decision 0100), so that the 16 and 8 JVMs start once for both.
     */
    @ParameterizedTest(name = "placement {0}, {1} rails, sizes {2}, then 1 MiB by the default selection: {3}")
    @CsvSource(delimiter = ';', value = {
            "1;      2; 0,1,7,1023,1025,65537,1048576; false",
            "1,1;    2; 0,1,7,1023,1025,65537,1048576; false",
            "2,1;    2; 0,1,7,1023,1025,65537,1048576; false",
            "2,3;    2; 0,1,7,1023,1025,65537,1048576; false",
            "3,4,1;  2; 0,1,7,1023,1025,65537;         true",
            // 3,4,2 on 1 rail (sizes 0,1,7,1025,65537), 4x4 on 2 (0,1,7,1023,1025,65537, then 1 MiB), 1x5 on 1
            // (0,1,7,1025,65537) and 4x4 on 1 (0,7,1025): CheckJobsSystemTest, in one job with the other classes'
            // checks of that placement and rails (decision 0082)
    })
    void everyAlgorithmIsByteExact(String placement, int rails, String sizes, boolean large) {
        Placement p = Placement.parse(placement);
        List<String> args = new ArrayList<>(List.of("sizes=" + sizes, "algorithms=all,auto", "roots=0,last,middle"));
        int passes = 1;
        if (large) {
            args.add(CheckPasses.THEN);
            args.addAll(LARGE_BY_DEFAULT);
            passes++;
        }
        // Each pass keeps the deadline it had as a job of its own: on a loaded host the 4x4 job's first pass alone
        // has taken most of one.
        Jobs.Outcome o = Jobs.run(p, rails, CheckPasses.class, args, Map.of(), Jobs.DEFAULT_JVM,
                Jobs.JOB_TIMEOUT.multipliedBy(passes)).assertSucceeded();
        assertEquals(passes, o.stdout().lines().filter(l -> l.startsWith("[r0] CHECKED ")).count(), o.stdout());
    }

    /**
     * The in-place all-gather (decision 0220) on two nodes of two over two rails, which no check job above has: every
     * all-gather forced, blocking and not, byte for byte around junk (CheckApp checks the in-place form with every
     * all-gather case; the jobs above and CheckJobsSystemTest's cover 1, 1,1, 2,1, 2,3, 3,4,1, 1x5, 3,4,2 and 4x4).
     */
    @org.junit.jupiter.api.Test
    void inPlaceAllgatherOnTwoNodesOfTwoOverTwoRails() {
        Jobs.Outcome o = Jobs.run(Placement.parse("2,2"), 2, CheckApp.class, List.of("collectives=allgather",
                "sizes=0,1,7,1025,65537", "algorithms=all,auto", "buffers=array,segment,mixed"), Map.of())
                .assertSucceeded();
        assertTrue(o.stdout().contains("CHECKED "), o.stdout());
    }

    @ParameterizedTest(name = "one node of {0} ranks, shared memory {1}")
    @CsvSource({"8, on", "5, off"})
    void intraNodeTrafficThroughSharedMemoryOrTheRails(int ranks, String shm) {
        Jobs.Outcome o = Jobs.run(Placement.singleNode(ranks), 1, CheckApp.class,
                List.of("sizes=0,1,63,64,4095,4096,65537,4194304", "algorithms=auto", "roots=0,last",
                        "buffers=array,segment"), Map.of("RAILCOLL_SHM", shm)).assertSucceeded();
        assertTrue(o.stdout().contains("CHECKED "), o.stdout());
    }
}
