package io.railcoll.algorithm;

import io.railcoll.algorithm.allgather.BruckAllgather;
import io.railcoll.algorithm.allgather.DirectAllgather;
import io.railcoll.algorithm.allgather.StandardExchangeAllgather;
import io.railcoll.algorithm.alltoall.BruckAlltoall;
import io.railcoll.algorithm.alltoall.DirectAlltoall;
import io.railcoll.algorithm.alltoall.StandardExchangeAlltoall;
import io.railcoll.algorithm.gather.BinomialTreeGather;
import io.railcoll.algorithm.gather.DirectGather;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Paper 000's Hockney equations, for the cases it covers (every rank on its own node, N a power of k+1 where the
 * paper needs it): the measured cost of the programs (the checker's) must equal the equation's {@code ts}
 * coefficient (steps) and {@code tau} coefficient (beta bytes), and all bytes travel inter-node.
 */
class PaperEquationsTest {
    private static final long B = 1000;

    /** (k, N) with N a power of k+1 up to 64, k = 1..4. */
    static Stream<Arguments> powers() {
        List<Arguments> list = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            int exponent = 1;
            for (long n = k + 1; n <= 64; n *= k + 1, exponent++) {
                list.add(Arguments.of(k, (int) n, exponent));
            }
        }
        return list.stream();
    }

    static Stream<Arguments> anyN() {
        List<Arguments> list = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            for (int n = 1; n <= 64; n++) {
                list.add(Arguments.of(k, n));
            }
        }
        return list.stream();
    }

    private static CostTerms measured(Algorithm algorithm, int n, int k) {
        Shape shape = new Shape(algorithm.collective(), Placement.uniform(n, 1), k, B, 0);
        ScheduleChecker.Report report = ScheduleChecker.check(algorithm, shape);
        assertTrue(report.ok(), report::describe);
        assertEquals(0, report.measured().intraNodeSentBytes() + report.measured().intraNodeReceivedBytes());
        return report.measured();
    }

    @ParameterizedTest(name = "k={0} N={1}")
    @MethodSource("powers")
    void equationOneBinomialGather(int k, int n, int log) {
        CostTerms c = measured(new BinomialTreeGather(), n, k);
        assertEquals(log, c.steps());
        assertEquals((n - 1) / k * B, c.betaBytes());
        assertEquals((n - 1) * B, c.interNodeReceivedBytes(), "the root receives every other block once");
    }

    @ParameterizedTest(name = "k={0} N={1}")
    @MethodSource("anyN")
    void equationTwoDirectGatherAllgatherAlltoall(int k, int n) {
        long steps = (n - 1 + k - 1) / k;
        for (Algorithm a : List.of(new DirectGather(), new DirectAllgather(), new DirectAlltoall())) {
            CostTerms c = measured(a, n, k);
            assertEquals(steps, c.steps(), a.id());
            assertEquals(steps * B, c.betaBytes(), a.id());
        }
    }

    @ParameterizedTest(name = "k={0} N={1}")
    @MethodSource("powers")
    void equationThreeStandardExchangeAllgather(int k, int n, int log) {
        CostTerms c = measured(new StandardExchangeAllgather(), n, k);
        assertEquals(log, c.steps());
        assertEquals((n - 1) / k * B, c.betaBytes());
        assertEquals((n - 1) * B, c.interNodeSentBytes());
    }

    @ParameterizedTest(name = "k={0} N={1}")
    @MethodSource("powers")
    void equationOneBruckAllgatherForPowers(int k, int n, int log) {
        CostTerms c = measured(new BruckAllgather(), n, k);
        assertEquals(log, c.steps());
        assertEquals((n - 1) / k * B, c.betaBytes());
    }

    /** "The total communication cost is the same as (1), for any N": ceil(log_{k+1} N) ts + ceil((N-1)/k) b tau. */
    @ParameterizedTest(name = "k={0} N={1}")
    @MethodSource("anyN")
    void equationOneBruckAllgatherForAnyN(int k, int n) {
        CostTerms c = measured(new BruckAllgather(), n, k);
        assertEquals(Radix.ceilLog(n, k + 1), c.steps());
        assertEquals(Radix.ceilDiv(n - 1, k) * B, c.betaBytes());
        assertEquals((n - 1) * B, c.interNodeSentBytes());
    }

    @ParameterizedTest(name = "k={0} N={1}")
    @MethodSource("powers")
    void equationFiveStandardExchangeAndBruckAlltoall(int k, int n, int log) {
        for (Algorithm a : List.of(new StandardExchangeAlltoall(), new BruckAlltoall())) {
            CostTerms c = measured(a, n, k);
            assertEquals(log, c.steps(), a.id());
            assertEquals((long) n / (k + 1) * log * B, c.betaBytes(), a.id());
            assertEquals((long) n / (k + 1) * k * log * B, c.interNodeSentBytes(), a.id());
        }
    }

    @ParameterizedTest(name = "k={0} N={1}")
    @MethodSource("anyN")
    void kNomialTreesTakeCeilLogSteps(int k, int n) {
        int steps = Radix.ceilLog(n, k + 1);
        assertEquals(steps, measured(new BinomialTreeGather(), n, k).steps());
        CostTerms broadcast = new io.railcoll.algorithm.broadcast.KnomialBroadcast()
                .cost(new Shape(Collective.BROADCAST, Placement.uniform(n, 1), k, B, n / 2));
        assertEquals(steps, broadcast.steps());
        assertEquals(steps * B, broadcast.betaBytes());
    }
}
