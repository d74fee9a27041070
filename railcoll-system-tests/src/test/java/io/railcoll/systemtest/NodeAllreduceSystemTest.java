package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code allreduce.shm} and {@code allreduce.shm-single-copy} (decisions 0170, 0171) on real processes sharing a
 * real node region: forced and as the automatic choice on one node, every type against the sequential reference,
 * bit-identical on every rank, the non-commutative user operator in rank order ({@link AllreduceApps.Check}), counts
 * 0, 1, odd, a count at which the node's contributions outgrow the small form, and one whose vector (of longs and
 * doubles) is larger than the node buffer, so it goes through it in chunks; heap and native buffers and in place (the
 * app's forms), so the single copy's staging of heap buffers runs too. 1x5 and the uneven 3,4,2 run it (or, on
 * several nodes, leave it out) in {@link CheckJobsSystemTest}.
 */
class NodeAllreduceSystemTest {

    @ParameterizedTest(name = "1x{0}")
    @ValueSource(ints = {2, 3, 5})
    void forcedAndAutomaticMatchTheSequentialReference(int ranks) {
        Jobs.Outcome o = Jobs.run(Placement.singleNode(ranks), 1, AllreduceApps.Check.class,
                List.of("counts=0,1,7,1001,300007", "algorithms=allreduce.shm,allreduce.shm-single-copy,allreduce.shm-doubling,auto", "ops=sum,minloc,affine-compose"),
                Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("ALLREDUCE-CHECKED "), o.stdout());
        assertTrue(o.stdout().contains("ALLREDUCE-TIME allreduce.shm:"), o.stdout());
        assertTrue(o.stdout().contains("ALLREDUCE-TIME allreduce.shm-single-copy:"), o.stdout());
        assertTrue(o.stdout().contains("ALLREDUCE-TIME allreduce.shm-doubling:"), o.stdout());
        // The staged loops, end to end: what a JVM without the module combines with (decisions 0045, 0233).
        assertTrue(o.stdout().contains("[r0] COMBINERS vector-api=false"), o.stdout());
    }

    /**
     * Ranks started with the Vector API's module (decisions 0210, 0213) combine the cases' int, long, float, double and
     * byte with it (each rank says so), and the JVM's incubator line does not reach the job's output (decision 0233):
     * the same check against the sequential reference, bit-identical on every rank, on one node and on two uneven ones
     * (the rail algorithms' combines too); heap forms of the app fall back to the staged loops in the same job.
     */
    @ParameterizedTest(name = "ranks per node {0}: {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = ';', value = {
            "3;auto,allreduce.shm", "2,1;auto,allreduce.rabenseifner,allreduce.recursive-doubling"})
    void ranksWithTheVectorApiMatchTheSequentialReference(String ranksPerNode, String algorithms) {
        Placement p = Placement.ofCounts(java.util.Arrays.stream(ranksPerNode.split(",")).mapToInt(Integer::parseInt).toArray());
        Jobs.Outcome o = Jobs.run(p, 1, AllreduceApps.Check.class,
                List.of("counts=0,1,7,1001,300007", "algorithms=" + algorithms),
                Map.of(), List.of("--add-modules=jdk.incubator.vector")).assertSucceeded();
        assertTrue(o.stdout().contains("ALLREDUCE-CHECKED "), o.stdout());
        for (int r = 0; r < p.size(); r++) {
            assertTrue(o.stdout().contains("[r" + r + "] COMBINERS vector-api=true"), "rank " + r + ":\n" + o.stdout());
        }
        // The JVM printed its incubator line on every rank; the launcher drops it (decision 0233), and only it.
        assertFalse(o.stderr().contains("incubator"), o.stderr());
    }

    /**
     * Node steps carry no frame header: ranks that disagree on type, operator, count or user operator meet each
     * other's call digest at their first flag wait and every rank fails with a mismatch, long before the deadline.
     */
    @ParameterizedTest(name = "{0} mismatch on 1x3")
    @ValueSource(strings = {"type", "operator", "count", "user"})
    void aDisagreementOnOneNodeFailsEveryRankWithAMismatch(String kind) {
        Placement p = Placement.singleNode(3);
        Jobs.Outcome o = Jobs.run(p, 1, AllreduceApps.Mismatch.class, List.of(kind, "1"),
                Map.of("RAILCOLL_TIMEOUT_MS", "60000"), Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.MismatchException: ").matcher(err).find(),
                    "rank " + r + ":\n" + err);
        }
        assertTrue(o.elapsedMs() < 50_000, "took " + o.elapsedMs() + " ms");
    }
}
