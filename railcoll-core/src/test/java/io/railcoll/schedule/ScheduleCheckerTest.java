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
 * The checker must reject each kind of broken schedule with the rule, rank, op and reason, and accept schedules
 * that look risky but are ordered by happens-before. Schedules here are hand-built: a three-rank all-gather by
 * direct puts is the base, broken one way per test.
 */
class ScheduleCheckerTest {
    private static final long B = 8;
    private static final Shape ALLGATHER = new Shape(Collective.ALLGATHER, Placement.uniform(3, 1), 2, B, 0);

    /** Correct direct all-gather for 3 ranks. */
    private static List<Op> direct(int r) {
        List<Op> ops = new ArrayList<>();
        ops.add(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, r * B, B));
        for (int i = 1; i < 3; i++) {
            ops.add(new Op.Put((r + i) % 3, Buffer.SEND, 0, B, 0));
        }
        for (int i = 1; i < 3; i++) {
            int from = (r + 3 - i) % 3;
            ops.add(new Op.Recv(from, 0, Buffer.RECV, from * B, B));
        }
        return ops;
    }

    private static ScheduleChecker.Report check(Shape shape, IntFunction<List<Op>> ops, long tempBytes) {
        return ScheduleChecker.check("test", shape, r -> new RankProgram(r, ops.apply(r), tempBytes), null);
    }

    private static ScheduleChecker.Violation only(ScheduleChecker.Report report, ScheduleChecker.Rule rule) {
        assertFalse(report.ok(), "the broken schedule passed");
        assertTrue(report.violations().stream().allMatch(v -> v.rule() == rule), report::describe);
        return report.violations().getFirst();
    }

    @Test
    void acceptsTheBaseSchedule() {
        ScheduleChecker.Report report = check(ALLGATHER, ScheduleCheckerTest::direct, 0);
        assertTrue(report.ok(), report::describe);
        assertEquals(1, report.measured().steps());
        assertEquals(2 * B, report.measured().interNodeSentBytes());
    }

    @Test
    void putWithoutRecv() {
        ScheduleChecker.Violation v = only(check(ALLGATHER, r -> {
            List<Op> ops = direct(r);
            if (r == 2) {
                ops.removeLast();
            }
            return ops;
        }, 0), ScheduleChecker.Rule.MATCHING);
        assertEquals(0, v.rank());
        assertTrue(v.message().contains("Put to rank 2 with tag 0 has no matching Recv"), v.message());
    }

    @Test
    void lengthMismatch() {
        ScheduleChecker.Violation v = only(check(ALLGATHER, r -> {
            List<Op> ops = direct(r);
            if (r == 1) {
                ops.set(3, new Op.Recv(0, 0, Buffer.RECV, 0, B - 1));
            }
            return ops;
        }, 0), ScheduleChecker.Rule.MATCHING);
        assertTrue(v.message().contains("has 8 bytes but the Recv (rank 1 op 3) expects 7"), v.message());
    }

    @Test
    void duplicateTag() {
        ScheduleChecker.Violation v = only(check(ALLGATHER, r -> {
            List<Op> ops = direct(r);
            if (r == 0) {
                ops.add(new Op.Put(1, Buffer.SEND, 0, B, 0));
            }
            return ops;
        }, 0), ScheduleChecker.Rule.MATCHING);
        assertEquals(0, v.rank());
        assertEquals(5, v.opIndex());
        assertTrue(v.message().startsWith("second Put to rank 1 with tag 0"), v.message());
    }

    @Test
    void outOfBoundsAndSelfAndSendWrites() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> {
            List<Op> ops = direct(r);
            if (r == 1) {
                ops.add(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 3 * B - 4, B));
                ops.add(new Op.Put(1, Buffer.SEND, 0, 0, 9));
                ops.add(new Op.Copy(Buffer.TEMP, 0, Buffer.TEMP, 2, 4));
            }
            return ops;
        }, 8);
        only(report, ScheduleChecker.Rule.STRUCTURE);
        String text = report.describe();
        assertTrue(text.contains("rank 1 op 5: Copy destination RECV[20,28) lies outside the 24-byte RECV buffer"), text);
        assertTrue(text.contains("rank 1 op 6: puts to or receives from itself"), text);
        assertTrue(text.contains("rank 1 op 7: Copy source and destination overlap in TEMP"), text);
    }

    @Test
    void deadlockNamesWhoWaitsForWhom() {
        // Every rank receives from its left neighbour before it puts to its right one: a cycle.
        ScheduleChecker.Violation v = only(check(ALLGATHER, r -> {
            List<Op> ops = new ArrayList<>();
            ops.add(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, r * B, B));
            int left = (r + 2) % 3;
            ops.add(new Op.Recv(left, 0, Buffer.RECV, left * B, B));
            ops.add(new Op.Put((r + 1) % 3, Buffer.SEND, 0, B, 0));
            return ops;
        }, 0), ScheduleChecker.Rule.DEADLOCK);
        assertTrue(v.message().contains("rank 0 op 1 waits for rank 2's put tag 0 (its op 2), but rank 2 is stuck at op 1"
                + " waiting for rank 1 tag 0"), v.message());
    }

    @Test
    void recvLandingOnARangeThatIsStillBeingPut() {
        // Rank 0 forwards RECV block 1 to rank 2 while a Recv that may land any time writes the same bytes.
        Shape shape = new Shape(Collective.BROADCAST, Placement.uniform(3, 1), 1, B, 1);
        ScheduleChecker.Report report = check(shape, r -> switch (r) {
            case 1 -> List.of(new Op.Put(0, Buffer.RECV, 0, B, 0), new Op.Put(0, Buffer.RECV, 0, B, 1),
                    new Op.Put(2, Buffer.RECV, 0, B, 0));
            case 0 -> List.of(new Op.Recv(1, 0, Buffer.RECV, 0, B), new Op.Put(2, Buffer.RECV, 0, B, 1),
                    new Op.Recv(1, 1, Buffer.RECV, 0, B));
            default -> List.of(new Op.Recv(0, 1, Buffer.TEMP, 0, B), new Op.Recv(1, 0, Buffer.RECV, 0, B));
        }, B);
        only(report, ScheduleChecker.Rule.HAZARD);
        // Both Recvs of rank 0 race with each other, and the second with the forwarding put.
        assertEquals(2, report.violationCount(), report::describe);
        ScheduleChecker.Violation v = report.violations().stream()
                .filter(x -> x.message().contains("Put to rank 2")).findFirst().orElseThrow();
        assertEquals(0, v.rank());
        assertEquals(2, v.opIndex());
        assertTrue(v.message().contains("op 2 (Recv from rank 1 tag 1 into RECV[0,8)")
                && v.message().contains("op 1 (Put to rank 2 tag 1 reading RECV[0,8)")
                && v.message().contains("nothing orders one after the other"), v.message());
    }

    @Test
    void copyIntoARangeARecvMayStillWrite() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> {
            List<Op> ops = direct(r);
            if (r == 2) {
                // Block 0 of rank 2's RECV is the destination of its last Recv, not yet reached.
                ops.add(1, new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, B));
            }
            return ops;
        }, 0);
        assertTrue(report.violates(ScheduleChecker.Rule.HAZARD), report::describe);
        assertTrue(report.describe().contains("rank 2 op 5: op 5 (Recv from rank 0 tag 0 into RECV[0,8)"),
                report::describe);
    }

    @Test
    void reuseOrderedByHappensBeforeIsAccepted() {
        // Rank 0 receives into TEMP, forwards it, and only refills TEMP after rank 1 confirms it got the first
        // message (rank 1's second put is issued after its first Recv): no race, though the range is reused.
        Shape shape = new Shape(Collective.BROADCAST, Placement.uniform(2, 1), 1, B, 0);
        ScheduleChecker.Report report = check(shape, r -> r == 0
                ? List.of(new Op.Put(1, Buffer.RECV, 0, B, 0), new Op.Recv(1, 1, Buffer.TEMP, 0, B),
                        new Op.Recv(1, 2, Buffer.TEMP, 0, B))
                : List.of(new Op.Recv(0, 0, Buffer.RECV, 0, B), new Op.Put(0, Buffer.RECV, 0, B, 1),
                        new Op.Recv(0, 3, Buffer.TEMP, 0, 0), new Op.Put(0, Buffer.RECV, 0, B, 2)), B);
        assertTrue(report.violates(ScheduleChecker.Rule.MATCHING), "tag 3 has no put: " + report.describe());
        ScheduleChecker.Report ordered = check(shape, r -> r == 0
                ? List.of(new Op.Put(1, Buffer.RECV, 0, B, 0), new Op.Recv(1, 1, Buffer.TEMP, 0, B),
                        new Op.Put(1, Buffer.TEMP, 0, 0, 3), new Op.Recv(1, 2, Buffer.TEMP, 0, B))
                : List.of(new Op.Recv(0, 0, Buffer.RECV, 0, B), new Op.Put(0, Buffer.RECV, 0, B, 1),
                        new Op.Recv(0, 3, Buffer.TEMP, 0, 0), new Op.Put(0, Buffer.RECV, 0, B, 2)), B);
        assertTrue(ordered.ok(), ordered::describe);
        ScheduleChecker.Report racy = check(shape, r -> r == 0
                ? List.of(new Op.Put(1, Buffer.RECV, 0, B, 0), new Op.Recv(1, 1, Buffer.TEMP, 0, B),
                        new Op.Recv(1, 2, Buffer.TEMP, 0, B))
                : List.of(new Op.Recv(0, 0, Buffer.RECV, 0, B), new Op.Put(0, Buffer.RECV, 0, B, 1),
                        new Op.Put(0, Buffer.RECV, 0, B, 2)), B);
        only(racy, ScheduleChecker.Rule.HAZARD);
    }

    @Test
    void readOfUnwrittenTemp() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> {
            List<Op> ops = direct(r);
            if (r == 0) {
                ops.set(1, new Op.Put(1, Buffer.TEMP, 0, B, 0));
            }
            return ops;
        }, B);
        // The garbage then shows up in rank 1's result as well.
        assertEquals(2, report.violationCount(), report::describe);
        assertTrue(report.violates(ScheduleChecker.Rule.RESULT), report::describe);
        ScheduleChecker.Violation v = report.violations().getFirst();
        assertEquals(ScheduleChecker.Rule.UNINITIALIZED_READ, v.rule());
        assertEquals(0, v.rank());
        assertEquals(1, v.opIndex());
        assertTrue(v.message().contains("reads TEMP[0,8) which no earlier op wrote"), v.message());
    }

    @Test
    void wrongBytesInTheResult() {
        Shape alltoall = new Shape(Collective.ALLTOALL, Placement.uniform(3, 1), 2, B, 0);
        ScheduleChecker.Report report = check(alltoall, r -> {
            List<Op> ops = new ArrayList<>();
            ops.add(new Op.Copy(Buffer.SEND, r * B, Buffer.RECV, r * B, B));
            for (int i = 1; i < 3; i++) {
                int to = (r + i) % 3;
                // Bug: sends its own block (offset r) instead of the peer's (offset to) from rank 1.
                ops.add(new Op.Put(to, Buffer.SEND, (r == 1 ? r : to) * B, B, 0));
            }
            for (int i = 1; i < 3; i++) {
                int from = (r + 3 - i) % 3;
                ops.add(new Op.Recv(from, 0, Buffer.RECV, from * B, B));
            }
            return ops;
        }, 0);
        only(report, ScheduleChecker.Rule.RESULT);
        assertTrue(report.describe().contains(
                "rank 0: RECV[8,16) holds rank 1 SEND[8,16), expected rank 1 SEND[0,8)"), report::describe);
    }

    @Test
    void barrierRankThatLeavesEarly() {
        Shape barrier = new Shape(Collective.BARRIER, Placement.uniform(3, 1), 1, 0, 0);
        // A chain 0 -> 1 -> 2: rank 0 and 1 may leave before rank 2 has entered.
        ScheduleChecker.Report report = check(barrier, r -> switch (r) {
            case 0 -> List.of(new Op.Put(1, Buffer.SEND, 0, 0, 0));
            case 1 -> List.of(new Op.Recv(0, 0, Buffer.RECV, 0, 0), new Op.Put(2, Buffer.SEND, 0, 0, 0));
            default -> List.of(new Op.Recv(1, 0, Buffer.RECV, 0, 0));
        }, 0);
        ScheduleChecker.Violation v = only(report, ScheduleChecker.Rule.BARRIER);
        assertEquals(0, v.rank());
        assertTrue(v.message().startsWith("can leave the barrier before rank 1 has entered it"), v.message());
    }

    @Test
    void claimedCostMustMatch() {
        CostTerms wrong = new CostTerms(2, B, 0, 0, 2 * B, 2 * B, "wrong");
        ScheduleChecker.Report report = ScheduleChecker.check("test", ALLGATHER,
                r -> new RankProgram(r, direct(r), 0), wrong);
        ScheduleChecker.Violation v = only(report, ScheduleChecker.Rule.COST);
        assertTrue(v.message().contains("claimed steps=2") && v.message().contains("measure steps=1"), v.message());
        assertThrows(ScheduleViolationException.class, report::orThrow);
    }

    @Test
    void anAlgorithmThatThrowsIsReported() {
        ScheduleChecker.Report report = ScheduleChecker.check("test", ALLGATHER, r -> {
            throw new IllegalStateException("boom " + r);
        }, null);
        assertTrue(report.describe().contains("[PROGRAM] rank 0: program(shape, 0) threw java.lang.IllegalStateException: boom 0"),
                report::describe);
    }
}
