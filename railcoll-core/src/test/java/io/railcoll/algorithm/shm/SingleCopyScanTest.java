package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.ElementBoundaries;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.PeerAccessUser;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code scan.shm-single-copy} and {@code exscan.shm-single-copy} (decision 0227): the checker finds no violation
 * (every prefix combined from the right contributions in rank order, non-commutative operators included; no pull of a
 * predecessor's RECV before that piece is written, none after its owner may return; no deadlock) for 2..9 ranks on one
 * node, element sizes 1..16 and counts 0, 1, odd, one piece and just past it, several pieces; pieces are whole
 * elements; rank r pulls only from rank r-1 (and rank 0's SEND), never more than two vectors; they refuse what they
 * cannot run.
 */
class SingleCopyScanTest {
    private static final AlgorithmCatalog CATALOG = AlgorithmCatalog.standard();
    private static final List<Algorithm> ALGORITHMS = List.of(CATALOG.byId("scan.shm-single-copy"),
            CATALOG.byId("exscan.shm-single-copy"));

    @Test
    void everyOneNodeShapeChecks() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Algorithm a : ALGORITHMS) {
            for (int n = 2; n <= 9; n++) {
                for (int e : new int[] {1, 4, 8, 12, 16}) {
                    long perPiece = SingleCopyScan.PIECE_BYTES / e;
                    for (long count : new long[] {0, 1, 2, 3, n + 1, 1001, perPiece, perPiece + 1,
                            3 * perPiece + 7}) {
                        for (boolean commutative : new boolean[] {true, false}) {
                            Shape shape = Shape.reduction(a.collective(), Placement.singleNode(n), 1, count * e, 0, e,
                                    commutative);
                            assertTrue(a.unsupportedReason(shape).isEmpty(), () -> shape + ": "
                                    + a.unsupportedReason(shape).orElseThrow());
                            ScheduleChecker.Report report = ScheduleChecker.check(a, shape);
                            if (!report.ok() && failures.size() < 5) {
                                failures.add(a.id() + " " + shape + ": " + report.describe());
                            }
                            ElementBoundaries.assertWholeElements(a, shape);
                            checked++;
                        }
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        assertTrue(checked > 1000, "checked " + checked);
    }

    /**
     * The chain: rank r pulls from rank r-1 only (rank 2 of the exclusive scan also from rank 0), b or 2b; rank 0
     * computes rank 1's result for half the vector and pushes it, rank 1 the other half.
     */
    @Test
    void rankRPullsOnlyFromItsPredecessorAndRankZeroTakesHalfOfRankOnesWork() {
        int n = 6;
        long b = 5 * SingleCopyScan.PIECE_BYTES + 24;
        for (Algorithm a : ALGORITHMS) {
            boolean exclusive = a.collective() == Collective.EXSCAN;
            for (boolean commutative : new boolean[] {true, false}) {
                Shape shape = Shape.reduction(a.collective(), Placement.singleNode(n), 1, b, 0, 8, commutative);
                long h = SingleCopyScan.share(shape);
                assertEquals(b / 2 - b / 2 % 8, h);
                for (int r = 0; r < n; r++) {
                    List<Op> ops = a.program(shape, r).ops();
                    long pulled = 0;
                    long pushed = 0;
                    for (Op o : ops) {
                        int rank = r;
                        if (o instanceof Op.PeerRead pr) {
                            assertTrue(pr.peer() == (r == 0 ? 1 : r - 1) || exclusive && r == 2 && pr.peer() == 0,
                                    () -> a.id() + " rank " + rank + " pulls from " + pr.peer());
                            pulled += pr.length();
                        }
                        if (o instanceof Op.PeerWrite pw) {
                            assertEquals(0, r, a.id() + ": " + o);
                            assertEquals(1, pw.peer(), a.id() + ": " + o);
                            pushed += pw.length();
                        }
                        assertTrue(!(o instanceof Op.NodeRead || o instanceof Op.NodeWrite), a.id() + ": " + o);
                    }
                    long expected = switch (r) {
                        case 0 -> exclusive ? 0 : h;
                        case 1 -> b - h;
                        default -> exclusive ? 2 * b : b;
                    };
                    assertEquals(expected, pulled, a.id() + " rank " + r + " pulls");
                    assertEquals(r == 0 ? h : 0, pushed, a.id() + " rank " + r + " pushes");
                }
            }
        }
    }

    /** Exclusive: rank 0's RECV is never written, as MPI leaves it undefined. */
    @Test
    void rankZeroOfTheExclusiveScanNeverWritesItsRecv() {
        Algorithm ex = CATALOG.byId("exscan.shm-single-copy");
        for (long count : new long[] {1, 7, 100_003}) {
            List<Op> ops = ex.program(Shape.reduction(Collective.EXSCAN, Placement.singleNode(3), 1, count * 8, 0, 8,
                    false), 0).ops();
            for (Op o : ops) {
                assertTrue(!(o instanceof Op.Copy c && c.dst() == Buffer.RECV)
                        && !(o instanceof Op.Reduce rd && rd.dst() == Buffer.RECV), o.toString());
            }
        }
    }

    @Test
    void piecesAreWholeElementsAndAFlagCountsThemAll() {
        for (int e : new int[] {1, 8, 12, 24}) {
            Shape small = Shape.reduction(Collective.SCAN, Placement.singleNode(2), 1, 100L * e, 0, e, true);
            long piece = SingleCopyScan.pieceBytes(small);
            assertEquals(0, piece % e, "piece " + piece);
            assertTrue(piece <= SingleCopyScan.PIECE_BYTES + e, "piece " + piece);
            // More than a flag counts of 64 KiB pieces: the pieces grow instead of the algorithm refusing.
            long huge = (NodeBuffer.MAX_COUNT + 5L) * SingleCopyScan.PIECE_BYTES;
            Shape big = Shape.reduction(Collective.SCAN, Placement.singleNode(3), 1, huge - huge % e, 0, e, true);
            long bigPiece = SingleCopyScan.pieceBytes(big);
            assertEquals(0, bigPiece % e);
            assertTrue((big.blockBytes() + bigPiece - 1) / bigPiece <= NodeBuffer.MAX_COUNT, "piece " + bigPiece);
        }
    }

    @Test
    void refusesSeveralNodesAndOneRank() {
        for (Algorithm a : ALGORITHMS) {
            assertTrue(a instanceof PeerAccessUser, a.id());
            OneNodeRefusals.refusesSeveralNodesAndOneRank(a);
        }
    }
}
