package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The closed forms stated in the algorithms' Javadoc and in {@code docs/algorithms-smp.md} hold for every uniform
 * placement of M = 1..9 nodes and L = 1..6 ranks per node, k = 1..4. The claimed costs themselves are checked
 * against the programs by {@link SmpAllgatherPropertiesTest}; this pins them to the documented formulas.
 */
class SmpAllgatherCostTest {
    private static final long B = 7;

    private static long up(long a, long b) {
        return Radix.ceilDiv(a, b);
    }

    private static CostTerms cost(String id, int nodes, int ranks, int k, int groups) {
        return AlgorithmCatalog.standard().byId(id)
                .cost(new Shape(Collective.ALLGATHER, Placement.uniform(nodes, ranks), k, B, 0, groups));
    }

    @Test
    void closedFormsHoldOnUniformPlacements() {
        List<String> wrong = new ArrayList<>();
        for (int m = 1; m <= 9; m++) {
            for (int l = 1; l <= 6; l++) {
                for (int k = 1; k <= 4; k++) {
                    check(wrong, m, l, k);
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong.subList(0, Math.min(10, wrong.size()))));
    }

    private static void check(List<String> wrong, int m, int l, int k) {
        int n = m * l;
        long gather = up(l - 1, k);
        int depth = Radix.ceilLog(m, k + 1);
        int last = l > 1 ? 1 : 0;
        String where = " M=" + m + " L=" + l + " k=" + k + ": ";

        CostTerms oneGroup = cost(MultiConnectionAllgather.SINGLE_GROUP_ID, m, l, k, 1);
        expect(wrong, "mc-1group" + where, oneGroup, 2 * gather + up(m - 1, k),
                (gather + up(m - 1, k) * l + gather * n) * B, (l - 1L) * n * B, l > 1 ? n * B : 0,
                (m - 1L) * l * B, (m - 1L) * l * B);

        for (int g = 1; g <= l; g++) {
            if (l % g != 0) {
                continue;
            }
            int s = l / g;
            long memberReceives = s > 1 ? n * B : 0;
            long masterReceives = (s - 1L) * B + (g - 1L) * m * s * B;
            expect(wrong, "mc-groups g=" + g + where, cost(MultiConnectionAllgather.GROUPS_ID, m, l, k, g),
                    up(s - 1, k) + up(m - 1, k) + up(l - 1, k),
                    (up(s - 1, k) + up(m - 1, k) * s + up(l - 1, k) * m * s) * B,
                    (l - 1L) * m * s * B, Math.max(memberReceives, masterReceives), (m - 1L) * s * B, (m - 1L) * s * B);
        }

        CostTerms gatherBroadcast = cost(SmpGatherBroadcastAllgather.ID, m, l, k, 1);
        expect(wrong, "smp-gather-bcast" + where, gatherBroadcast, gather + up(m - 1, k) + depth + gather,
                (gather + up(m - 1, k) * l + (depth + gather) * n) * B, -1, -1, -1, -1);

        CostTerms direct = cost(SmpDirectAllgather.ID, m, l, k, 1);
        expect(wrong, "smp-direct" + where, direct, gather + Math.max(up(n - 1, k), up(m - 1, k) + last), -1,
                (l - 1L) * n * B, l > 1 ? n * B : 0, (m - 1L) * l * B, (m - 1L) * l * B);

        int floor = Radix.floorLog(m, k + 1);
        long rest = m - Radix.pow(k + 1, floor);
        long pieces = (long) floor * k + (rest == 0 ? 0 : up(rest, up(rest, k)));
        CostTerms bruck = cost(SmpBruckAllgather.ID, m, l, k, 1);
        expect(wrong, "smp-bruck" + where, bruck, gather + Math.max(up(pieces + (pieces + 1) * (l - 1), k), depth + last),
                -1, (l - 1L) * n * B, l > 1 ? n * B : 0, (m - 1L) * l * B, (m - 1L) * l * B);

        if (m <= l) {
            long runs = m >= 3 ? 2 : m - 1;
            CostTerms gatherBased = cost(GatherBasedMultiConnectionAllgather.ID, m, l, k, 1);
            expect(wrong, "mc-gather-based" + where, gatherBased, gather + up(m - 1, k) + up(runs * (l - 1), k), -1,
                    (l - 1L) * B + (l - 1L) * (n - l) * B, (n - 1L) * B, m > 1 ? l * B : 0, (m - 1L) * l * B);
        }
    }

    /** Compares every term; -1 skips a term that has no closed form here. */
    private static void expect(List<String> wrong, String what, CostTerms cost, long steps, long beta, long intraSent,
                               long intraReceived, long interSent, long interReceived) {
        long[] expected = {steps, beta, intraSent, intraReceived, interSent, interReceived};
        long[] actual = {cost.steps(), cost.betaBytes(), cost.intraNodeSentBytes(), cost.intraNodeReceivedBytes(),
                cost.interNodeSentBytes(), cost.interNodeReceivedBytes()};
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] >= 0 && expected[i] != actual[i]) {
                wrong.add(what + cost.numbers() + " but the closed form gives " + java.util.Arrays.toString(expected));
                return;
            }
        }
    }
}
