package io.railcoll.schedule;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker on single-copy steps (decision 0143): the catalog's single-copy algorithms pass on every shape they
 * take, and hand-built programs that pull before the owner published (a stale address), let the owner leave while a
 * node-mate still reads, or pull bytes the owner has not filled yet, are caught as PEER_RACE.
 */
class SingleCopyCheckerTest {
    private static final long B = 100;
    private static final Shape ALLGATHER = new Shape(Collective.ALLGATHER, Placement.parse("1x2"), 1, B, 0);
    private static final Shape BROADCAST = new Shape(Collective.BROADCAST, Placement.parse("1x2"), 1, B, 0);

    private static ScheduleChecker.Report check(Shape shape, IntFunction<List<Op>> ops) {
        return ScheduleChecker.check("hand-built", shape, r -> new RankProgram(r, ops.apply(r), B), null);
    }

    @Test
    void theCatalogsSingleCopyAlgorithmsAreRightOnEveryShapeTheyTake() {
        AlgorithmCatalog catalog = AlgorithmCatalog.standard();
        for (String id : List.of("allgather.shm-single-copy", "broadcast.shm-single-copy", "gather.shm-single-copy")) {
            Algorithm a = catalog.byId(id);
            for (int ranks : new int[] {2, 3, 4, 5}) {
                for (long b : new long[] {0, 1, 63, 64, 1000, 65_537, 3 << 20}) {
                    for (int root = 0; root < ranks; root += ranks - 1) {
                        Shape shape = new Shape(a.collective(), Placement.parse("1x" + ranks), 1, b, root);
                        ScheduleChecker.check(a, shape).orThrow();
                    }
                }
            }
        }
    }

    /**
     * The contention-free single-copy broadcast (decision 0180) on 2, 3, 5 and 8 ranks, every root, from 0 bytes to
     * more than the node buffer, sizes that leave trailing parts empty (63 bytes over 7 parts) or short.
     */
    @Test
    void theScatterAllgatherBroadcastIsRightOnEveryRootAndSize() {
        Algorithm a = AlgorithmCatalog.standard().byId("broadcast.shm-scatter-allgather");
        for (int ranks : new int[] {2, 3, 5, 8}) {
            for (long b : new long[] {0, 1, 63, 64, 65, 1000, 65_537, (2 << 20) + 1, 3 << 20}) {
                for (int root = 0; root < ranks; root++) {
                    Shape shape = new Shape(Collective.BROADCAST, Placement.parse("1x" + ranks), 1, b, root);
                    ScheduleChecker.check(a, shape).orThrow();
                }
            }
        }
    }

    @Test
    void theyRefuseMoreThanOneNodeAndASingleRank() {
        Algorithm a = AlgorithmCatalog.standard().byId("allgather.shm-single-copy");
        assertTrue(a.unsupportedReason(new Shape(Collective.ALLGATHER, Placement.parse("2x2"), 1, B, 0)).isPresent());
        assertTrue(a.unsupportedReason(new Shape(Collective.ALLGATHER, Placement.parse("1x1"), 1, B, 0)).isPresent());
    }

    /** Each rank publishes, pulls its mate's block after the mate's publish, publishes done, awaits the mate's done. */
    private static List<Op> allgather(int r, boolean awaitReady, boolean awaitDone) {
        int q = 1 - r;
        List<Op> ops = new java.util.ArrayList<>(List.of(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, r * B, B),
                new Op.Publish(0)));
        if (awaitReady) {
            ops.add(new Op.AwaitFlag(q, 0, 1));
        }
        ops.add(new Op.PeerRead(q, Buffer.SEND, 0, Buffer.RECV, q * B, B));
        ops.add(new Op.Publish(1));
        if (awaitDone) {
            ops.add(new Op.AwaitFlag(q, 1, 1));
        }
        return ops;
    }

    @Test
    void aRightHandBuiltAllgatherPasses() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> allgather(r, true, true));
        assertTrue(report.ok(), report.describe());
    }

    @Test
    void aPullBeforeTheOwnerPublishedMayFindAStaleAddress() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> allgather(r, r == 0, true));
        assertTrue(report.violates(ScheduleChecker.Rule.PEER_RACE), report.describe());
        assertTrue(report.describe().contains("stale address"), report.describe());
    }

    @Test
    void anOwnerThatMayLeaveWhileAMateStillReadsIsCaught() {
        ScheduleChecker.Report report = check(ALLGATHER, r -> allgather(r, true, r == 1));
        assertTrue(report.violates(ScheduleChecker.Rule.PEER_RACE), report.describe());
        assertTrue(report.describe().contains("rank 0 may return"), report.describe());
    }

    /** Rank 1 pulls rank 0's RECV after rank 0's first publish, but rank 0 fills it only after that publish. */
    @Test
    void aPullOfBytesTheOwnerFillsLaterIsCaught() {
        ScheduleChecker.Report report = check(BROADCAST, r -> r == 0
                ? List.of(new Op.Publish(0), new Op.Copy(Buffer.SEND, 0, Buffer.TEMP, 0, 0), new Op.Publish(0),
                        new Op.AwaitFlag(1, 1, 1))
                : List.of(new Op.AwaitFlag(0, 0, 1), new Op.PeerRead(0, Buffer.RECV, 0, Buffer.RECV, 0, B),
                        new Op.Publish(1)));
        assertTrue(report.ok(), "the root's RECV holds the message from the start: " + report.describe());
        Shape gather = new Shape(Collective.GATHER, Placement.parse("1x2"), 1, B, 1);
        // The root (1) copies its own block into RECV after its publish; rank 0 pulls that block too early.
        ScheduleChecker.Report early = check(gather, r -> r == 1
                ? List.of(new Op.Publish(0), new Op.Copy(Buffer.SEND, 0, Buffer.RECV, B, B), new Op.AwaitFlag(0, 1, 1))
                : List.of(new Op.AwaitFlag(1, 0, 1), new Op.PeerRead(1, Buffer.RECV, B, Buffer.TEMP, 0, B),
                        new Op.PeerWrite(Buffer.SEND, 0, 1, Buffer.RECV, 0, B), new Op.Publish(1)));
        assertTrue(early.violates(ScheduleChecker.Rule.PEER_RACE), early.describe());
    }

    @Test
    void aPeerAccessOutsideTheNodeOrTheBufferIsAStructureError() {
        Shape twoNodes = new Shape(Collective.ALLGATHER, Placement.parse("2x1"), 1, B, 0);
        ScheduleChecker.Report report = check(twoNodes, r -> List.of(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, r * B, B),
                new Op.PeerRead(1 - r, Buffer.SEND, 0, Buffer.RECV, (1 - r) * B, B)));
        assertTrue(report.violates(ScheduleChecker.Rule.STRUCTURE), report.describe());
        ScheduleChecker.Report outside = check(ALLGATHER, r -> List.of(
                new Op.PeerRead(1 - r, Buffer.SEND, 1, Buffer.RECV, 0, B)));
        assertTrue(outside.violates(ScheduleChecker.Rule.STRUCTURE), outside.describe());
        assertThrows(IllegalArgumentException.class, () -> new Op.PeerWrite(Buffer.SEND, 0, 1, Buffer.SEND, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Op.PeerRead(1, Buffer.TEMP, 0, Buffer.RECV, 0, 1));
    }
}
