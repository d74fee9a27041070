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
 * All-reduce on real processes over real loopback rails and shared memory: a disagreement on type, operator or count
 * fails every rank with a mismatch; an operator that throws fails its rank and aborts the others well before their
 * deadline. Every algorithm (forced, then the automatic choice) x type x operator x count against a sequential
 * reference, floating point bit-identical on every rank, a non-commutative user operator in rank order
 * ({@link AllreduceApps.Check}), runs in {@link CheckJobsSystemTest}: on 1x5 (1 rail; counts 0, 1, 7, 100003) and
 * 3,4,2 (2 rails; 0, 1, 7, 30001) every type x operator, on 4x4 (2 rails: 0, 7, 30001; 1 rail: 1, 4099) each type
 * with one operator and the non-commutative one (decision 0121), each a pass of its placement's one job (decision 0082).
 */
class AllreduceSystemTest {
    private static final Map<String, String> SHORT_DEADLINE = Map.of("RAILCOLL_TIMEOUT_MS", "60000");

    @ParameterizedTest(name = "{0} mismatch")
    @ValueSource(strings = {"type", "operator", "count", "user"})
    void aDisagreementFailsEveryRankWithAMismatch(String kind) {
        Placement p = Placement.parse("2,1");
        Jobs.Outcome o = Jobs.run(p, 1, AllreduceApps.Mismatch.class, List.of(kind, "1"), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        for (int r = 0; r < p.size(); r++) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.MismatchException: .*(?i:mismatch)")
                    .matcher(err).find(), "rank " + r + ":\n" + err);
        }
        String named = switch (kind) {
            case "type" -> "FLOAT";
            case "operator" -> "max on INT";
            case "count" -> "size mismatch";
            default -> "user operator";
        };
        assertTrue(err.contains(named), err);
        assertTrue(o.elapsedMs() < 50_000, "took " + o.elapsedMs() + " ms");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"allreduce.recursive-doubling", "allreduce.ring"})
    void anOperatorThatThrowsAbortsThePeersAtOnce(String algorithm) {
        Placement p = Placement.parse("2,1");
        Jobs.Outcome o = Jobs.run(p, 1, AllreduceApps.ThrowingOperator.class, List.of(algorithm), SHORT_DEADLINE, Jobs.SHORT_JOB);
        assertFalse(o.result().succeeded());
        String err = o.stderr();
        assertTrue(err.contains("[r1] FAILED: io.railcoll.OperatorFailedException") && err.contains("fragile operator refuses"),
                err);
        for (int r : new int[] {0, 2}) {
            assertTrue(Pattern.compile("\\[r" + r + "] FAILED: io\\.railcoll\\.CollectiveAbortedException: .*fragile")
                    .matcher(err).find(), "rank " + r + ":\n" + err);
        }
        // Long before the 60 s deadline a peer waiting for rank 1 would otherwise run into.
        assertTrue(o.elapsedMs() < 50_000, "took " + o.elapsedMs() + " ms");
    }
}
