package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Schedule properties of the SMP-aware and multi-connection aware all-gathers: for every placement below (one node,
 * one rank per node, uneven, non-contiguous, random), k = 1..4, block sizes 0, 1, 3, 1000 and 65537, and for
 * {@code allgather.mc-groups} g = 1..5, the {@link ScheduleChecker} finds no violation: right result, matched
 * puts, no deadlock, no hazard, and the claimed cost equals the cost measured on the programs.
 */
class SmpAllgatherPropertiesTest {

    static List<String> ids() {
        return List.of("allgather.smp-gather-bcast", "allgather.smp-direct", "allgather.smp-bruck",
                "allgather.mc-1group", "allgather.mc-gather-based", "allgather.mc-2group", "allgather.mc-groups");
    }

    static List<Placement> placements() {
        List<Placement> list = new ArrayList<>(List.of(
                Placement.uniform(1, 1),
                Placement.singleNode(8),
                Placement.uniform(2, 3),
                Placement.ofCounts(3, 4, 2),
                Placement.uniform(4, 4),
                Placement.uniform(5, 2),
                Placement.uniform(8, 2),
                Placement.uniform(6, 1),
                Placement.ofCounts(1, 5, 1, 3),
                // Nodes whose ranks are not consecutive numbers.
                Placement.ofNodeIds(0, 1, 0, 1, 2, 0),
                Placement.ofNodeIds(1, 0, 0, 2, 1, 2, 2, 1, 0)));
        Random random = new Random(20250205L);
        for (int i = 0; i < 8; i++) {
            int nodes = 1 + random.nextInt(6);
            List<Integer> ids = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                int ranks = 1 + random.nextInt(5);
                for (int r = 0; r < ranks; r++) {
                    ids.add(n);
                }
            }
            if (i % 2 == 1) {
                java.util.Collections.shuffle(ids, random);
            }
            list.add(Placement.ofNodeIds(ids.stream().mapToInt(Integer::intValue).toArray()));
        }
        return list;
    }

    private static final long[] SIZES = {0, 1, 3, 1000, 65537};

    @ParameterizedTest
    @MethodSource("ids")
    void everyShapeChecks(String id) {
        Algorithm algorithm = AlgorithmCatalog.standard().byId(id);
        int groupsMax = id.equals("allgather.mc-groups") ? 5 : 1;
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Placement placement : placements()) {
            for (int k = 1; k <= 4; k++) {
                for (long b : SIZES) {
                    for (int g = 1; g <= groupsMax; g++) {
                        Shape shape = new Shape(Collective.ALLGATHER, placement, k, b, 0, g);
                        assertTrue(algorithm.unsupportedReason(shape).isEmpty(),
                                () -> id + " refuses " + shape + ": " + algorithm.unsupportedReason(shape).orElseThrow());
                        ScheduleChecker.Report report = ScheduleChecker.check(algorithm, shape);
                        checked++;
                        if (!report.ok() && failures.size() < 5) {
                            failures.add("g=" + g + " " + report.describe());
                        }
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        assertTrue(checked >= placements().size() * 4 * SIZES.length);
    }
}
