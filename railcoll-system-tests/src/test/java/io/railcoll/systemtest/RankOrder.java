package io.railcoll.systemtest;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

/** Which forced algorithms a reduction app expects to refuse a non-commutative operator, asked of the catalog. */
final class RankOrder {
    private RankOrder() {
    }

    /**
     * Whether algorithm {@code id} refuses to combine {@code c} out of rank order on {@code placement} (the rings and
     * the SMP-aware all-reduces do, with a reason that names rank order); false for {@code auto}, which selects one
     * that can.
     */
    static boolean refusesNonCommutative(String id, Collective c, Placement placement) {
        if (id.equals("auto")) {
            return false;
        }
        Shape shape = Shape.reduction(c, placement, 1, 8, 0, 8, false);
        return AlgorithmCatalog.standard().byId(id).unsupportedReason(shape)
                .map(reason -> reason.contains("rank order")).orElse(false);
    }
}
