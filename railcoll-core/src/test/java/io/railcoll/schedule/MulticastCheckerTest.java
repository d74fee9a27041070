package io.railcoll.schedule;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker on hand-built programs with Multicast ops (decision 0146): right ones pass, wrong ones are caught. */
class MulticastCheckerTest {
    private static final long B = 100;
    /** Root 4: on the second node of 3,4,2. */
    private static final Shape BROADCAST = new Shape(Collective.BROADCAST, Placement.parse("3,4,2"), 2, B, 4);
    private static final Shape ALLGATHER = new Shape(Collective.ALLGATHER, Placement.parse("2x2"), 2, B, 0);

    private static ScheduleChecker.Report check(Shape shape, IntFunction<List<Op>> ops) {
        return ScheduleChecker.check("hand-built", shape, r -> new RankProgram(r, ops.apply(r), 0), null);
    }

    @Test
    void oneMulticastFromTheRootIsABroadcast() {
        ScheduleChecker.Report report = check(BROADCAST, r -> List.of(new Op.Multicast(4, Buffer.RECV, 0, B)));
        assertTrue(report.ok(), report.describe());
    }

    @Test
    void aMemberWithoutTheMulticastIsAMismatch() {
        ScheduleChecker.Report report = check(BROADCAST, r -> r == 7 ? List.of()
                : List.of(new Op.Multicast(4, Buffer.RECV, 0, B)));
        assertTrue(report.violates(ScheduleChecker.Rule.MATCHING), report.describe());
        assertTrue(report.describe().contains("every rank takes part"), report.describe());
    }

    @Test
    void aLengthOtherThanTheRootsIsAMismatch() {
        ScheduleChecker.Report report = check(BROADCAST, r -> List.of(new Op.Multicast(4, Buffer.RECV, 0,
                r == 2 ? B - 1 : B)));
        assertTrue(report.violates(ScheduleChecker.Rule.MATCHING), report.describe());
        assertTrue(report.describe().contains("rank 2"), report.describe());
    }

    @Test
    void membersNamingDifferentRootsAreAMismatch() {
        ScheduleChecker.Report report = check(BROADCAST, r -> List.of(new Op.Multicast(r == 8 ? 0 : 4, Buffer.RECV,
                0, B)));
        assertTrue(report.violates(ScheduleChecker.Rule.MATCHING), report.describe());
    }

    @Test
    void aRootOutOfRangeOrAReceiverWritingSendIsStructure() {
        ScheduleChecker.Report outOfRange = check(BROADCAST, r -> List.of(new Op.Multicast(9, Buffer.RECV, 0, B)));
        assertTrue(outOfRange.violates(ScheduleChecker.Rule.STRUCTURE), outOfRange.describe());
        ScheduleChecker.Report intoSend = check(ALLGATHER, r -> List.of(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, r * B,
                B), new Op.Multicast(0, Buffer.SEND, 0, B)));
        assertTrue(intoSend.violates(ScheduleChecker.Rule.STRUCTURE), intoSend.describe());
        assertTrue(intoSend.describe().contains("writes the SEND buffer"), intoSend.describe());
    }

    /** The root multicasts RECV before its gather landed: it sends bytes nobody wrote. */
    @Test
    void sendingBeforeTheDataIsThereIsAnUninitializedRead() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> r == 0
                ? List.of(new Op.Multicast(0, Buffer.RECV, 0, 4 * B), new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, B))
                : List.of(new Op.Multicast(0, Buffer.RECV, 0, 4 * B)));
        assertTrue(report.violates(ScheduleChecker.Rule.UNINITIALIZED_READ), report.describe());
    }

    /** Gather to rank 0, then multicast: right; with the multicast before the last Recv, the data is incomplete. */
    @Test
    void aGatherThenAMulticastIsAnAllgatherAndOrderMatters() {
        ScheduleChecker.Report right = check(ALLGATHER, r -> gatherThenMulticast(r, false));
        assertTrue(right.ok(), right.describe());
        ScheduleChecker.Report early = check(ALLGATHER, r -> gatherThenMulticast(r, true));
        assertTrue(!early.ok(), early.describe());
    }

    private static List<Op> gatherThenMulticast(int r, boolean multicastBeforeLastRecv) {
        Op cast = new Op.Multicast(0, Buffer.RECV, 0, 4 * B);
        if (r != 0) {
            return List.of(new Op.Put(0, Buffer.SEND, 0, B, 1), cast);
        }
        Op copy = new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, B);
        Op r1 = new Op.Recv(1, 1, Buffer.RECV, B, B);
        Op r2 = new Op.Recv(2, 1, Buffer.RECV, 2 * B, B);
        Op r3 = new Op.Recv(3, 1, Buffer.RECV, 3 * B, B);
        return multicastBeforeLastRecv ? List.of(copy, r1, r2, cast, r3) : List.of(copy, r1, r2, r3, cast);
    }

    /** The root waits for a put a receiver makes only after the multicast: every member waits in it, a deadlock. */
    @Test
    void aRootWaitingForSomethingSentAfterTheMulticastDeadlocks() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> r == 0
                ? List.of(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, B), new Op.Recv(1, 1, Buffer.RECV, B, B),
                        new Op.Multicast(0, Buffer.RECV, 0, 4 * B))
                : r == 1 ? List.of(new Op.Multicast(0, Buffer.RECV, 0, 4 * B), new Op.Put(0, Buffer.SEND, 0, B, 1))
                : List.of(new Op.Multicast(0, Buffer.RECV, 0, 4 * B)));
        assertTrue(report.violates(ScheduleChecker.Rule.DEADLOCK), report.describe());
        assertTrue(report.describe().contains("Multicast"), report.describe());
    }
}
