package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seeded random call generator (decision 0214) on real jobs: a few hundred calls per job of every collective,
 * blocking and in flight, on sub-communicators too, on awkward placements, each checked byte for byte against a
 * sequential reference on every rank. The soak that runs many more seeds is {@code bench/random-calls-soak.sh}.
 */
class RandomCallsSystemTest {

    /**
     * Found by seed 1 on 1x3 (decision 0214, bug 1): the future of an all-to-allv started non-blocking (a chained call:
     * counts, then data) was dropped when its data part started, and never completed though test() said done.
     */
    @org.junit.jupiter.api.Test
    void theFutureOfANonBlockingAlltoallvCompletes() {
        Placement p = Placement.parse("1x3");
        Jobs.Outcome o = Jobs.run(p, 1, RandomCallsRegressionApps.AlltoallvTestOnly.class, List.of("future"),
                Map.of("RAILCOLL_TIMEOUT_MS", "30000"), Jobs.SHORT_JOB).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("ALLTOALLV-OK rank " + r), o.all());
        }
    }

    /**
     * Found by seed 1 on 1x3 (decision 0214, bug 2): a non-blocking all-to-allv chose its data algorithm when its
     * counts arrived, under whatever was forced then; a program that cleared the forced algorithm after starting it
     * ran another algorithm than the ranks that ran it blocking, and every rank failed with a mismatch.
     */
    @org.junit.jupiter.api.Test
    void aNonBlockingAlltoallvRunsTheAlgorithmForcedWhenItStarted() {
        Placement p = Placement.parse("2,1");
        Jobs.Outcome o = Jobs.run(p, 1, RandomCallsRegressionApps.AlltoallvForcedThenCleared.class, List.of(),
                Map.of("RAILCOLL_TIMEOUT_MS", "30000"), Jobs.SHORT_JOB).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("FORCED-ALLTOALLV-OK rank " + r), o.all());
        }
    }

    /**
     * Found by seed 1 on 1x5 (decision 0214, bug 4): test() of a request that had finished returned at once, without
     * the round of progress Request#test promises, so a program driving other calls (or a future) by testing it
     * spun forever.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"1x3", "'2,1'"})
    void testingAFinishedRequestDrivesTheOthers(String placement) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, 1, RandomCallsRegressionApps.DriveByTestingAFinishedRequest.class, List.of(),
                Map.of("RAILCOLL_TIMEOUT_MS", "30000"), Jobs.SHORT_JOB).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("DRIVEN-OK rank " + r), o.all());
        }
    }

    /**
     * Found by seed 2 on 1x3 and seed 1 on 1x5 (decision 0214, bug 3, not fixed): ElementType says the padding of
     * LONG_INT and DOUBLE_INT (bytes 12-15) is neither read nor written, yet every reduction copies whole elements
     * into recv (allreduce, reduce, reduce-scatter, scan and exscan, one rank or many), so recv's padding comes from
     * some rank's send. Either the copies skip padding or the contract says padding is undefined.
     */
    @org.junit.jupiter.api.Disabled("reason: railcoll bug 3 of decision 0214: reductions write the pair types' padding,"
            + " which ElementType promises is neither read nor written; contract or copies to be fixed")
    @ParameterizedTest(name = "{0}")
    @CsvSource({"1x1", "1x3", "'2,1'"})
    void reductionsLeaveThePaddingOfPairTypesAlone(String placement) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, 1, RandomCallsRegressionApps.PaddingUntouched.class, List.of(),
                Map.of("RAILCOLL_TIMEOUT_MS", "30000"), Jobs.SHORT_JOB).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("PADDING-OK rank " + r), o.all());
        }
    }

    /**
     * Found by the soak (decision 0214, bug 5, not fixed): on "3,4,2", an all-to-all of 22005-byte blocks that ranks
     * 1, 3 and 8 start non-blocking and the others run blocking, followed by a blocking binomial reduce of 131070
     * bytes to root 1: rank 7 never finishes the all-to-all ("waiting for 1 outgoing frames to be delivered") while
     * the others go on. Every run hangs; with RAILCOLL_CMA=off or RAILCOLL_SHM=off it passes, and without the reduce.
     * Cause (confirmed): rank 7's ring from rank 8 pauses on the reduce's frame (a call rank 7 has not posted), and
     * rank 8's PULLED answer to rank 7's single-copy put of the all-to-all, queued behind it, is never read.
     */
    @org.junit.jupiter.api.Disabled("reason: railcoll bug 5 of decision 0214: a call hangs on a rank whose node-mate"
            + " keeps it in flight while starting a later call: a paused ring holds back a PULLED answer; fix pending review")
    @org.junit.jupiter.api.Test
    void aCallInFlightOnANodeMateDoesNotHoldBackABlockingOne() {
        Placement p = Placement.parse("3,4,2");
        Jobs.Outcome o = Jobs.run(p, 1, RandomCallsRegressionApps.MixedFormsFirstCalls.class, List.of("no-scatterv"),
                Map.of("RAILCOLL_TIMEOUT_MS", "30000")).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("MIXED-OK rank " + r), o.all());
        }
    }

    @ParameterizedTest(name = "{0}, {1} rail(s), seed {2}, {3} steps")
    @CsvSource({"1x5, 1, 1, 300", "'3,4,2', 1, 2, 300", "2x2, 2, 3, 300", "1x1, 1, 4, 300"})
    void aSeededRandomSequenceOfCallsChecksOutOnEveryRank(String placement, int rails, long seed, int steps) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, rails, RandomCallsApps.Run.class, List.of("seed=" + seed, "steps=" + steps),
                Map.of("RAILCOLL_TIMEOUT_MS", "120000")).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("RANDOM-CALLS-OK rank " + r + " seed " + seed + " steps " + steps + " "),
                    o.all());
        }
    }
}
