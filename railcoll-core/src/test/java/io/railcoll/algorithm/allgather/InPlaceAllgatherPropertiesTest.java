package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.InPlace;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The in-place all-gathers (decision 0220): every all-gather and all-gatherv of the catalog marked
 * {@link OwnBlockInPlace} passes {@link ScheduleChecker#checkInPlace} (its own block read where it lies in RECV,
 * every rule of the checker) on every placement of {@link SmpAllgatherPropertiesTest}, k = 1..2, blocks of 0, 1, 3,
 * 1000 and 65537 bytes (all-gatherv: uneven counts with zeros too); and every unmarked one fails it on some shape,
 * so a mark is neither missing nor false. The engine runs an unmarked one with its block copied first.
 */
class InPlaceAllgatherPropertiesTest {

    static List<Algorithm> algorithms() {
        List<Algorithm> list = new ArrayList<>(AlgorithmCatalog.standard().forCollective(Collective.ALLGATHER));
        list.addAll(AlgorithmCatalog.standard().forCollective(Collective.ALLGATHERV));
        return list;
    }

    private static final long[] SIZES = {0, 1, 3, 1000, 65537};

    private static List<Shape> shapes(Algorithm algorithm) {
        List<Shape> shapes = new ArrayList<>();
        for (Placement placement : SmpAllgatherPropertiesTest.placements()) {
            for (int k = 1; k <= 2; k++) {
                for (long b : SIZES) {
                    shapes.add(new Shape(algorithm.collective(), placement, k, b, 0, 1));
                }
                if (algorithm.collective() == Collective.ALLGATHERV) {
                    int n = placement.size();
                    long[] counts = new long[n];
                    for (int r = 0; r < n; r++) {
                        counts[r] = r % 3 == 1 ? 0 : 1 + 7L * r;
                    }
                    shapes.add(Shape.variable(Collective.ALLGATHERV, placement, k, 0, BlockCounts.perRank(counts), 1,
                            true));
                }
            }
        }
        return shapes;
    }

    /** The first shape on which {@code algorithm} is wrong in place, or empty. */
    private static Optional<String> firstFailure(Algorithm algorithm) {
        for (Shape shape : shapes(algorithm)) {
            if (algorithm.unsupportedReason(shape).isPresent()) {
                continue;
            }
            ScheduleChecker.Report report = ScheduleChecker.checkInPlace(algorithm, shape);
            if (!report.ok()) {
                return Optional.of(report.describe());
            }
        }
        return Optional.empty();
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void markedIfAndOnlyIfRightInPlace(Algorithm algorithm) {
        Optional<String> failure = firstFailure(algorithm);
        if (algorithm instanceof OwnBlockInPlace) {
            failure.ifPresent(f -> fail(algorithm.id() + " is marked OwnBlockInPlace but: " + f));
        } else {
            assertTrue(failure.isPresent(), algorithm.id() + " passes every in-place check: mark it OwnBlockInPlace");
        }
    }

    @Test
    void bruckRotatesOverItsOwnBlockAndIsNotMarked() {
        Algorithm bruck = AlgorithmCatalog.standard().byId(BruckAllgather.ID);
        assertFalse(bruck instanceof OwnBlockInPlace);
        ScheduleChecker.Report report = ScheduleChecker.checkInPlace(bruck,
                new Shape(Collective.ALLGATHER, Placement.singleNode(5), 1, 1, 0, 1));
        assertTrue(report.violates(ScheduleChecker.Rule.HAZARD), report.describe());
    }

    @Test
    void aProgramThatParksAPeersBlockInItsOwnPlaceIsRightOnlyWithACopy() {
        // Two ranks: receive the peer's block where this rank's own lies, move it, then copy SEND to its place.
        Algorithm parking = new Algorithm() {
            @Override
            public String id() {
                return "test.parking";
            }

            @Override
            public Collective collective() {
                return Collective.ALLGATHER;
            }

            @Override
            public io.railcoll.schedule.RankProgram program(Shape shape, int rank) {
                long b = shape.blockBytes();
                int peer = 1 - rank;
                return new io.railcoll.schedule.RankProgram(rank, List.of(
                        new io.railcoll.schedule.Op.Put(peer, io.railcoll.schedule.Buffer.SEND, 0, b, 1),
                        new io.railcoll.schedule.Op.Recv(peer, 1, io.railcoll.schedule.Buffer.RECV, rank * b, b),
                        new io.railcoll.schedule.Op.Copy(io.railcoll.schedule.Buffer.RECV, rank * b,
                                io.railcoll.schedule.Buffer.RECV, peer * b, b),
                        new io.railcoll.schedule.Op.Copy(io.railcoll.schedule.Buffer.SEND, 0,
                                io.railcoll.schedule.Buffer.RECV, rank * b, b)), 0);
            }

            @Override
            public String summary() {
                return "test";
            }
        };
        Shape shape = new Shape(Collective.ALLGATHER, Placement.uniform(2, 1), 1, 3, 0, 1);
        assertTrue(ScheduleChecker.check(parking, shape).ok(), ScheduleChecker.check(parking, shape).describe());
        ScheduleChecker.Report inPlace = ScheduleChecker.checkInPlace(parking, shape);
        assertTrue(inPlace.violates(ScheduleChecker.Rule.HAZARD), inPlace.describe());
        assertTrue(inPlace.violates(ScheduleChecker.Rule.RESULT), inPlace.describe());
        assertEquals(3, InPlace.ownOffset(shape, 1));
    }
}
