package io.railcoll.algorithm;

import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Shape generators for the property tests: placements of every kind, roots at the ends and in the middle. */
final class Shapes {
    static final long[] BLOCK_SIZES = {0, 1, 3, 1000, 65537};

    private Shapes() {
    }

    /** Roots worth covering: first, last and a middle one (deduplicated). */
    static List<Integer> roots(int n) {
        List<Integer> roots = new ArrayList<>(List.of(0));
        if (n - 1 != 0) {
            roots.add(n - 1);
        }
        if (n / 2 != 0 && n / 2 != n - 1) {
            roots.add(n / 2);
        }
        return roots;
    }

    /**
     * A placement of {@code n} ranks of the given kind: 0 one rank per node, 1 uniform multi-rank nodes (the largest
     * divisor of n up to 4 ranks per node), 2 uneven contiguous nodes of 1-5 ranks, 3 uneven nodes with ranks
     * scattered over them (node ids not contiguous in rank order).
     */
    static Placement placement(int kind, int n, Random random) {
        return switch (kind) {
            case 0 -> Placement.uniform(n, 1);
            case 1 -> {
                int perNode = 1;
                for (int d = 2; d <= 4; d++) {
                    if (n % d == 0) {
                        perNode = d;
                    }
                }
                yield Placement.uniform(n / perNode, perNode);
            }
            case 2 -> {
                List<Integer> counts = new ArrayList<>();
                int left = n;
                while (left > 0) {
                    int c = Math.min(left, 1 + random.nextInt(5));
                    counts.add(c);
                    left -= c;
                }
                yield Placement.ofCounts(counts.stream().mapToInt(Integer::intValue).toArray());
            }
            default -> {
                int nodes = 1 + random.nextInt(Math.max(1, n / 2));
                int[] nodeOf = new int[n];
                for (int r = 0; r < n; r++) {
                    nodeOf[r] = r < nodes ? r : random.nextInt(nodes);
                }
                for (int r = n - 1; r > 0; r--) {
                    int j = random.nextInt(r + 1);
                    int t = nodeOf[r];
                    nodeOf[r] = nodeOf[j];
                    nodeOf[j] = t;
                }
                yield Placement.ofNodeIds(nodeOf);
            }
        };
    }

    static boolean hasRoot(Collective collective) {
        return collective.hasRoot();
    }

    static Shape shape(Collective collective, Placement placement, int ports, long blockBytes, int root) {
        if (collective.variable()) {
            return Shape.variable(collective, placement, ports, hasRoot(collective) ? root : 0,
                    unevenCounts(collective, placement.size(), blockBytes), 1, true);
        }
        return new Shape(collective, placement, ports, blockBytes, hasRoot(collective) ? root : 0);
    }

    /**
     * Counts for a v-variant around block size {@code b}: from 0 to {@code 4b/3} bytes, zeros and odd sizes among
     * them, different for neighbouring ranks (and for each pair of an all-to-allv); all zero for {@code b = 0}.
     */
    static BlockCounts unevenCounts(Collective collective, int n, long b) {
        if (collective == Collective.ALLTOALLV) {
            long[] m = new long[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    m[i * n + j] = b * ((i * 7 + j * 3 + 1) % 5) / 3;
                }
            }
            return BlockCounts.matrix(n, m);
        }
        long[] c = new long[n];
        for (int i = 0; i < n; i++) {
            c[i] = b * ((i * 7 + 3) % 5) / 3;
        }
        return BlockCounts.perRank(c);
    }
}
