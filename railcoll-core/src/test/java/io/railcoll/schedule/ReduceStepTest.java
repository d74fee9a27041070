package io.railcoll.schedule;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IR's Reduce step under the checker: symbolically a reduced range holds an ordered combination of the ranks'
 * contributions, and {@link ScheduleChecker#checkReduction} accepts exactly the programs whose result combines
 * every rank once (in rank order when asked). The programs are hand-built reductions; the shapes are all-gather
 * shapes only for their buffer sizes (SEND b bytes, RECV N*b), the result living in RECV[0, b).
 */
class ReduceStepTest {
    private static final long B = 16;

    private static Shape shape(String placement) {
        return new Shape(Collective.ALLGATHER, Placement.parse(placement), 2, B, 0);
    }

    private static ScheduleChecker.Report check(Shape shape, IntFunction<List<Op>> ops, long tempBytes,
                                                ReductionResult expected) {
        return ScheduleChecker.checkReduction("test", shape, r -> new RankProgram(r, ops.apply(r), tempBytes), null,
                expected);
    }

    /**
     * Recursive doubling (N a power of two), in rank order: at step s the partner is r ^ 2^s; the lower half's
     * partial result is the left operand. Every step receives into a fresh TEMP range and accumulates into a fresh
     * range too, so no put's source is written while the peer may still read it.
     */
    static List<Op> recursiveDoubling(int r, int n) {
        List<Op> ops = new ArrayList<>();
        int steps = Integer.numberOfTrailingZeros(n);
        Buffer accBuffer = Buffer.SEND;
        long acc = 0;
        for (int s = 0; s < steps; s++) {
            int partner = r ^ (1 << s);
            long received = s * B;
            long fresh = (steps + s) * B;
            ops.add(new Op.Put(partner, accBuffer, acc, B, s));
            ops.add(new Op.Recv(partner, s, Buffer.TEMP, received, B));
            if (partner < r) {
                ops.add(new Op.Copy(accBuffer, acc, Buffer.TEMP, fresh, B));
                ops.add(new Op.Reduce(Buffer.TEMP, received, Buffer.TEMP, fresh, B));
                acc = fresh;
            } else {
                ops.add(new Op.Reduce(accBuffer, acc, Buffer.TEMP, received, B));
                acc = received;
            }
            accBuffer = Buffer.TEMP;
        }
        ops.add(new Op.Copy(accBuffer, acc, Buffer.RECV, 0, B));
        return ops;
    }

    /** Every rank puts to the root; the root combines with rank {@code order[0]} leftmost. */
    static List<Op> linearToRoot(int r, int n, int[] order) {
        List<Op> ops = new ArrayList<>();
        if (r != 0) {
            ops.add(new Op.Put(0, Buffer.SEND, 0, B, 0));
            return ops;
        }
        for (int q = 1; q < n; q++) {
            ops.add(new Op.Recv(q, 0, Buffer.TEMP, q * B, B));
        }
        ops.add(new Op.Copy(Buffer.SEND, 0, Buffer.TEMP, 0, B));
        // Combine right to left: start from the last in order, then put each earlier one on its left.
        ops.add(new Op.Copy(Buffer.TEMP, order[order.length - 1] * B, Buffer.RECV, 0, B));
        for (int i = order.length - 2; i >= 0; i--) {
            ops.add(new Op.Reduce(Buffer.TEMP, order[i] * B, Buffer.RECV, 0, B));
        }
        return ops;
    }

    @Test
    void recursiveDoublingCombinesEveryRankInRankOrder() {
        for (String placement : new String[] {"1x2", "2x2", "4x2", "2x8"}) {
            Shape shape = shape(placement);
            int n = shape.size();
            int steps = Integer.numberOfTrailingZeros(n);
            ScheduleChecker.Report report = check(shape, r -> recursiveDoubling(r, n), 2 * steps * B,
                    ReductionResult.everyRank(B, true));
            assertTrue(report.ok(), report::describe);
            assertEquals(steps, report.measured().steps());
        }
    }

    @Test
    void aReverseOrderPassesOnlyWhenTheOperatorCommutes() {
        Shape shape = shape("3,4,2");
        int n = shape.size();
        int[] reverse = new int[n];
        int[] forward = new int[n];
        for (int i = 0; i < n; i++) {
            reverse[i] = n - 1 - i;
            forward[i] = i;
        }
        assertTrue(check(shape, r -> linearToRoot(r, n, forward), n * B, ReductionResult.atRoot(B, true, 0)).ok());
        assertTrue(check(shape, r -> linearToRoot(r, n, reverse), n * B, ReductionResult.atRoot(B, false, 0)).ok());
        ScheduleChecker.Report ordered = check(shape, r -> linearToRoot(r, n, reverse), n * B,
                ReductionResult.atRoot(B, true, 0));
        ScheduleChecker.Violation v = only(ordered, ScheduleChecker.Rule.RESULT);
        assertEquals(0, v.rank());
        assertTrue(v.message().contains("rank 7 is combined after rank 8, but a non-commutative operator needs rank order"),
                v.message());
    }

    @Test
    void aMissingOrDoubledContributionIsCaught() {
        Shape shape = shape("1x4");
        int n = 4;
        ScheduleChecker.Violation missing = only(check(shape, r -> linearToRoot(r, n, new int[] {0, 1, 3}), n * B,
                ReductionResult.atRoot(B, false, 0)), ScheduleChecker.Rule.RESULT);
        assertTrue(missing.message().contains("rank 2's contribution is missing"), missing.message());
        ScheduleChecker.Violation twice = only(check(shape, r -> linearToRoot(r, n, new int[] {0, 1, 2, 2, 3}), n * B,
                ReductionResult.atRoot(B, false, 0)), ScheduleChecker.Rule.RESULT);
        assertTrue(twice.message().contains("rank 2's contribution appears twice"), twice.message());
        // The result must sit at the same offset as the contributions: a shifted combine is wrong.
        ScheduleChecker.Violation everyRank = only(check(shape, r -> linearToRoot(r, n, new int[] {0, 1, 2, 3}), n * B,
                ReductionResult.everyRank(B, false)), ScheduleChecker.Rule.RESULT);
        assertEquals(1, everyRank.rank());
        assertTrue(everyRank.message().contains("holds nothing: no data"), everyRank.message());
    }

    @Test
    void aReduceThatOverlapsItselfOrWritesSendIsRefused() {
        ScheduleChecker.Violation v = only(check(shape("1x2"), r -> List.of(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, B),
                new Op.Copy(Buffer.SEND, 0, Buffer.RECV, B, B), new Op.Reduce(Buffer.RECV, 0, Buffer.RECV, 8, B)), 0,
                ReductionResult.everyRank(B, false)), ScheduleChecker.Rule.STRUCTURE);
        assertTrue(v.message().contains("Reduce source and destination overlap in RECV"), v.message());
        assertThrows(IllegalArgumentException.class, () -> new Op.Reduce(Buffer.RECV, 0, Buffer.SEND, 0, B));
    }

    @Test
    void aReduceIntoBytesAPutMayStillReadIsAHazard() {
        // Rank 0 puts RECV[0,b) to rank 1 and combines into the same bytes at once: rank 1 may not have read them.
        ScheduleChecker.Report report = check(shape("1x2"), r -> r == 0
                ? List.of(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, B), new Op.Put(1, Buffer.RECV, 0, B, 0),
                        new Op.Recv(1, 0, Buffer.TEMP, 0, B), new Op.Reduce(Buffer.TEMP, 0, Buffer.RECV, 0, B))
                : List.of(new Op.Put(0, Buffer.SEND, 0, B, 0), new Op.Recv(0, 0, Buffer.TEMP, 0, B),
                        new Op.Copy(Buffer.TEMP, 0, Buffer.RECV, 0, B), new Op.Reduce(Buffer.SEND, 0, Buffer.RECV, 0, B)),
                B, ReductionResult.everyRank(B, false));
        assertTrue(report.violates(ScheduleChecker.Rule.HAZARD), report::describe);
        assertTrue(report.violations().stream().anyMatch(v -> v.rank() == 0 && v.message().contains("Reduce TEMP[0,16) into RECV[0,16)")),
                report::describe);
    }

    @Test
    void aCombinedRangeIsNotWhatADataMovingCollectiveExpects() {
        // An all-gather whose rank 1 combines its own block into rank 0's: the RECV block holds a combination.
        Shape shape = shape("1x2");
        ScheduleChecker.Report report = ScheduleChecker.check("test", shape, r -> new RankProgram(r, List.of(
                new Op.Copy(Buffer.SEND, 0, Buffer.RECV, r * B, B),
                new Op.Put(1 - r, Buffer.SEND, 0, B, 0),
                new Op.Recv(1 - r, 0, Buffer.RECV, (1 - r) * B, B),
                new Op.Reduce(Buffer.SEND, 0, Buffer.RECV, (1 - r) * B, B)), 0), null);
        ScheduleChecker.Violation v = only(report, ScheduleChecker.Rule.RESULT);
        assertTrue(v.message().contains(" op "), v.message());
    }

    private static ScheduleChecker.Violation only(ScheduleChecker.Report report, ScheduleChecker.Rule rule) {
        assertFalse(report.ok(), "the broken schedule passed");
        assertTrue(report.violations().stream().allMatch(v -> v.rule() == rule), report::describe);
        return report.violations().getFirst();
    }
}
