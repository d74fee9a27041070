package io.railcoll.schedule;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker on hand-built programs with node steps (decision 0101): right ones pass, wrong ones are caught. */
class NodeStepsCheckerTest {
    private static final long B = 100;
    private static final Shape BROADCAST = new Shape(Collective.BROADCAST, Placement.parse("1x3"), 2, B, 0);
    private static final Shape BARRIER = new Shape(Collective.BARRIER, Placement.parse("1x3"), 2, 0, 0);

    private static ScheduleChecker.Report check(Shape shape, IntFunction<List<Op>> ops) {
        return ScheduleChecker.check("hand-built", shape, r -> new RankProgram(r, ops.apply(r), 0), null);
    }

    /** The root writes once and raises; the others wait for the raise and read. */
    @Test
    void aBroadcastThroughTheNodeBufferPasses() {
        ScheduleChecker.Report report = check(BROADCAST, r -> r == 0
                ? List.of(new Op.NodeWrite(Buffer.RECV, 0, 0, B), new Op.Publish(0))
                : List.of(new Op.AwaitFlag(0, 0, 1), new Op.NodeRead(0, Buffer.RECV, 0, B)));
        assertTrue(report.ok(), report.describe());
    }

    @Test
    void aReadBeforeThePublishIsARace() {
        ScheduleChecker.Report report = check(BROADCAST, r -> r == 0
                ? List.of(new Op.NodeWrite(Buffer.RECV, 0, 0, B), new Op.Publish(0))
                : r == 1 ? List.of(new Op.NodeRead(0, Buffer.RECV, 0, B), new Op.AwaitFlag(0, 0, 1))
                : List.of(new Op.AwaitFlag(0, 0, 1), new Op.NodeRead(0, Buffer.RECV, 0, B)));
        assertTrue(report.violates(ScheduleChecker.Rule.NODE_RACE), report.describe());
        assertTrue(report.describe().contains("rank 1 op 0"), report.describe());
    }

    /** Two chunks through one slot: the second write must wait until every reader copied the first out. */
    @Test
    void aSlotReusedBeforeItsReadersAreDoneIsARace() {
        ScheduleChecker.Report report = check(BROADCAST, r -> twoChunksThroughOneSlot(r, false));
        assertTrue(report.violates(ScheduleChecker.Rule.NODE_RACE), report.describe());
        ScheduleChecker.Report drained = check(BROADCAST, r -> twoChunksThroughOneSlot(r, true));
        assertTrue(drained.ok(), drained.describe());
    }

    private static List<Op> twoChunksThroughOneSlot(int rank, boolean awaitDrains) {
        long half = B / 2;
        List<Op> ops = new ArrayList<>();
        if (rank == 0) {
            ops.add(new Op.NodeWrite(Buffer.RECV, 0, 0, half));
            ops.add(new Op.Publish(0));
            if (awaitDrains) {
                ops.add(new Op.AwaitFlag(1, 1, 1));
                ops.add(new Op.AwaitFlag(2, 1, 1));
            }
            ops.add(new Op.NodeWrite(Buffer.RECV, half, 0, half));
            ops.add(new Op.Publish(0));
        } else {
            ops.add(new Op.AwaitFlag(0, 0, 1));
            ops.add(new Op.NodeRead(0, Buffer.RECV, 0, half));
            ops.add(new Op.Publish(1));
            ops.add(new Op.AwaitFlag(0, 0, 2));
            ops.add(new Op.NodeRead(0, Buffer.RECV, half, half));
        }
        return ops;
    }

    @Test
    void aReadOfBytesNobodyWroteIsCaught() {
        ScheduleChecker.Report report = check(BROADCAST, r -> r == 0
                ? List.of(new Op.NodeWrite(Buffer.RECV, 0, 0, B), new Op.Publish(0))
                : List.of(new Op.AwaitFlag(0, 0, 1), new Op.NodeRead(B, Buffer.RECV, 0, B)));
        assertTrue(report.violates(ScheduleChecker.Rule.UNINITIALIZED_READ), report.describe());
    }

    @Test
    void anAwaitOfARaiseNeverMadeIsAMismatch() {
        ScheduleChecker.Report report = check(BROADCAST, r -> r == 0
                ? List.of(new Op.NodeWrite(Buffer.RECV, 0, 0, B), new Op.Publish(0))
                : List.of(new Op.AwaitFlag(0, 0, 2), new Op.NodeRead(0, Buffer.RECV, 0, B)));
        assertTrue(report.violates(ScheduleChecker.Rule.MATCHING), report.describe());
    }

    @Test
    void flagsOfAnotherNodeCannotBeAwaited() {
        Shape twoNodes = new Shape(Collective.BARRIER, Placement.parse("2x1"), 1, 0, 0);
        ScheduleChecker.Report report = check(twoNodes, r -> List.of(new Op.Publish(0), new Op.AwaitFlag(1 - r, 0, 1)));
        assertTrue(report.violates(ScheduleChecker.Rule.STRUCTURE), report.describe());
    }

    @Test
    void aBarrierOfFlagsMustHearFromEveryRank() {
        ScheduleChecker.Report all = check(BARRIER, r -> {
            List<Op> ops = new ArrayList<>(List.of(new Op.Publish(0)));
            for (int q = 0; q < 3; q++) {
                if (q != r) {
                    ops.add(new Op.AwaitFlag(q, 0, 1));
                }
            }
            return ops;
        });
        assertTrue(all.ok(), all.describe());
        ScheduleChecker.Report deaf = check(BARRIER, r -> r == 2
                ? List.of(new Op.Publish(0), new Op.AwaitFlag(0, 0, 1))
                : List.of(new Op.Publish(0), new Op.AwaitFlag(2, 0, 1)));
        assertTrue(deaf.violates(ScheduleChecker.Rule.BARRIER), deaf.describe());
        assertFalse(deaf.ok());
    }

    @Test
    void waitingInACircleIsADeadlock() {
        ScheduleChecker.Report report = check(BARRIER, r -> List.of(new Op.AwaitFlag((r + 1) % 3, 0, 1),
                new Op.Publish(0)));
        assertTrue(report.violates(ScheduleChecker.Rule.DEADLOCK), report.describe());
    }

    // Bytes carried in a flag's own line (decision 0202).

    private static final long SMALL = 8;
    private static final Shape SMALL_ALLGATHER = new Shape(Collective.ALLGATHER, Placement.parse("1x3"), 2, SMALL, 0);

    /** Every rank's block in its raise, read by every node-mate's await: the all-gather's result, byte for byte. */
    private static List<Op> allgatherInFlagLines(int rank) {
        List<Op> ops = new ArrayList<>();
        ops.add(new Op.Publish(0, Buffer.SEND, 0, SMALL));
        ops.add(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, rank * SMALL, SMALL));
        for (int q = 0; q < 3; q++) {
            if (q != rank) {
                ops.add(new Op.AwaitFlag(q, 0, 1, Buffer.RECV, q * SMALL, SMALL));
            }
        }
        return ops;
    }

    @Test
    void anAllgatherInTheFlagsLinesPasses() {
        ScheduleChecker.Report report = check(SMALL_ALLGATHER, NodeStepsCheckerTest::allgatherInFlagLines);
        assertTrue(report.ok(), report.describe());
    }

    @Test
    void aBroadcastInTheRootsFlagLinePasses() {
        Shape shape = new Shape(Collective.BROADCAST, Placement.parse("1x3"), 2, NodeBuffer.PAYLOAD_BYTES, 1);
        ScheduleChecker.Report report = check(shape, r -> r == 1
                ? List.of(new Op.Publish(0, Buffer.RECV, 0, NodeBuffer.PAYLOAD_BYTES))
                : List.of(new Op.AwaitFlag(1, 0, 1, Buffer.RECV, 0, NodeBuffer.PAYLOAD_BYTES)));
        assertTrue(report.ok(), report.describe());
    }

    /** Rank 1 uses rank 0's block before the await that brings it: nothing wrote those bytes yet. */
    @Test
    void aReaderThatUsesTheBytesBeforeTheAwaitIsCaught() {
        ScheduleChecker.Report report = check(SMALL_ALLGATHER, r -> {
            List<Op> ops = allgatherInFlagLines(r);
            if (r == 1) {
                ops.add(1, new Op.Copy(Buffer.RECV, 0, Buffer.RECV, 2 * SMALL, SMALL));
            }
            return ops;
        });
        assertTrue(report.violates(ScheduleChecker.Rule.UNINITIALIZED_READ), report.describe());
    }

    /** The payload came with raise 2; an await of raise 1 that reads it would read before the bytes are there. */
    @Test
    void anAwaitThatReadsAPayloadOfAnotherRaiseIsCaught() {
        ScheduleChecker.Report report = check(SMALL_ALLGATHER, r -> {
            List<Op> ops = allgatherInFlagLines(r);
            if (r == 0) {
                ops.set(0, new Op.Publish(0));
                ops.add(1, new Op.Publish(0, Buffer.SEND, 0, SMALL));
            }
            return ops;
        });
        assertTrue(report.violates(ScheduleChecker.Rule.MATCHING), report.describe());
        assertTrue(report.describe().contains("carries 0"), report.describe());
        ScheduleChecker.Report shorter = check(SMALL_ALLGATHER, r -> {
            List<Op> ops = allgatherInFlagLines(r);
            if (r == 0) {
                ops.set(0, new Op.Publish(0, Buffer.SEND, 0, SMALL - 1));
            }
            return ops;
        });
        assertTrue(shorter.violates(ScheduleChecker.Rule.MATCHING), shorter.describe());
    }

    /** A second raise with bytes would overwrite the line's area while node-mates may still read the first. */
    @Test
    void aSecondPayloadRaiseOfAFlagInACallIsARace() {
        ScheduleChecker.Report report = check(SMALL_ALLGATHER, r -> {
            List<Op> ops = allgatherInFlagLines(r);
            if (r == 2) {
                ops.add(new Op.Publish(0, Buffer.RECV, 0, SMALL));
            }
            return ops;
        });
        assertTrue(report.violates(ScheduleChecker.Rule.NODE_RACE), report.describe());
        assertTrue(report.describe().contains("a second time"), report.describe());
    }

    /** What the raise carries must be what the writer published: a payload taken from a wrong range fails. */
    @Test
    void aPayloadOfTheWrongBytesFailsTheResultCheck() {
        ScheduleChecker.Report report = check(SMALL_ALLGATHER, r -> {
            List<Op> ops = allgatherInFlagLines(r);
            if (r == 0) {
                ops.add(0, new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 2 * SMALL, SMALL));
                ops.set(1, new Op.Publish(0, Buffer.RECV, 2 * SMALL + 1, SMALL - 1));
            }
            return ops;
        });
        assertFalse(report.ok(), report.describe());
    }

    @Test
    void aPayloadLargerThanTheLineHoldsIsRefused() {
        long tooMany = NodeBuffer.PAYLOAD_BYTES + 1;
        assertThrows(IllegalArgumentException.class, () -> new Op.Publish(0, Buffer.SEND, 0, tooMany));
        assertThrows(IllegalArgumentException.class, () -> new Op.AwaitFlag(0, 0, 1, Buffer.RECV, 0, tooMany));
    }
}
