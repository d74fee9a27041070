package io.railcoll.transport.mcast;

import io.railcoll.MismatchException;
import io.railcoll.RailcollException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The synchronization bookkeeping alone: what proves a release, and errors that say which reports collided. */
class SyncRoundTest {
    @Test
    void onlyABroadcastPastTheEndProvesTheReleaseAndOnlyAfterThisMemberReported() {
        SyncRound join = new SyncRound(1, new int[0]);
        join.enter(0, 0);
        assertFalse(join.provenReleasedBy(0), "not reported yet: nothing can have been released");
        join.reportedFinal = true;
        // A RETRANSMIT of [0, 0) (the join's own range) names no broadcast: its last one is #-1.
        assertFalse(join.provenReleasedBy(0 - 1));
        assertTrue(join.provenReleasedBy(0), "a datagram of broadcast #0 comes from a released root");

        SyncRound round = new SyncRound(1, new int[0]);
        round.enter(16, 0);
        round.reportedFinal = true;
        assertFalse(round.provenReleasedBy(15));
        assertTrue(round.provenReleasedBy(16));
        round.reset();
        assertFalse(round.provenReleasedBy(16), "released already");
    }

    @Test
    void aSecondReportInOneSynchronizationNamesBothReportsAndThisMembersState() {
        SyncRound manager = new SyncRound(0, new int[] {1, 2, 3});
        manager.enter(0, 0);
        manager.childReported(2, 0, 0, 0, 0);
        manager.childReported(3, 0, 0, 0, 0);
        RailcollException e = assertThrows(RailcollException.class, () -> manager.childReported(2, 0, 3, 0, 0));
        assertEquals("rank 0 got a second synchronization report from rank 2 before its synchronization ended: "
                + "broadcasts #0..#2 after the join; rank 0 is in the synchronization of the join with reports from ranks "
                + "[2, 3] of [1, 2, 3], its own report or release not sent yet: rank 2 went on without the release rank 0 "
                + "waits for", e.getMessage());
        assertFalse(e instanceof MismatchException, "a protocol fault, not the user's");
    }

    @Test
    void aReportBeforeThisMemberEntersIsKeptAndASecondOneBeforeItsReleaseIsNamed() {
        SyncRound member = new SyncRound(1, new int[] {3});
        member.childReported(3, 16, 32, 16, 20); // the child got there first: counted, its end checked on entry
        RailcollException e = assertThrows(RailcollException.class, () -> member.childReported(3, 16, 33, 16, 20));
        assertTrue(e.getMessage().contains("broadcasts #16..#32 after broadcasts #16..#31; rank 1 is between "
                + "synchronizations (broadcasts from #16 on, next #20)"), e.getMessage());
        member.enter(32, 0);
        assertTrue(member.subtreeDone());
    }

    @Test
    void aReportFromARankThatIsNoChildIsNamed() {
        SyncRound member = new SyncRound(1, new int[] {3});
        member.enter(8, 0);
        RailcollException e = assertThrows(RailcollException.class, () -> member.childReported(2, 0, 8, 0, 8));
        assertEquals("rank 1 got a synchronization report of broadcasts #0..#7 from rank 2, which is not its child in "
                + "the synchronization tree (children: [3])", e.getMessage());
    }

    @Test
    void aChildThatSynchronizesAnotherRangeIsAMismatch() {
        SyncRound member = new SyncRound(1, new int[] {3});
        member.enter(8, 0);
        assertThrows(MismatchException.class, () -> member.childReported(3, 0, 9, 0, 8));
    }
}
