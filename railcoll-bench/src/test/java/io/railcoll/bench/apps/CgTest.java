package io.railcoll.bench.apps;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CG app's math in one process: the stencil, the halo plan that feeds each rank's rows, the solver against a
 * dense direct solve, the rank-order reference, and the checks' tolerances against dot products added in other
 * orders, as a job's all-reduce would.
 */
class CgTest {

    @Test
    void theStencilIsTheFivePointLaplacianAndSymmetric() {
        PoissonGrid g = new PoissonGrid(4);
        double[][] a = dense(g);
        for (int i = 0; i < g.rows(); i++) {
            assertEquals(4, a[i][i]);
            int neighbours = 0;
            for (int j = 0; j < g.rows(); j++) {
                assertEquals(a[i][j], a[j][i], "symmetric at " + i + "," + j);
                if (j != i && a[i][j] != 0) {
                    assertEquals(-1, a[i][j]);
                    int dx = Math.abs(i % 4 - j % 4);
                    int dy = Math.abs(i / 4 - j / 4);
                    assertEquals(1, dx + dy, "only grid neighbours couple: " + i + "," + j);
                    neighbours++;
                }
            }
            int x = i % 4;
            int y = i / 4;
            int expected = (x > 0 ? 1 : 0) + (x < 3 ? 1 : 0) + (y > 0 ? 1 : 0) + (y < 3 ? 1 : 0);
            assertEquals(expected, neighbours, "row " + i);
        }
        // The smallest eigenvalue the error bound uses: A v = lambda v for v = sin(pi x') sin(pi y') on the grid.
        double[] v = new double[g.rows()];
        for (int i = 0; i < g.rows(); i++) {
            v[i] = Math.sin(Math.PI * (i % 4 + 1) / 5) * Math.sin(Math.PI * (i / 4 + 1) / 5);
        }
        double[] av = new double[g.rows()];
        g.applyRows(v, 0, 0, g.rows(), av);
        for (int i = 0; i < g.rows(); i++) {
            assertEquals(g.lambdaMin() * v[i], av[i], 1e-12);
        }
    }

    @Test
    void theHaloPlanGivesEveryRankTheUnknownsItsRowsRead() {
        Random random = new Random(22);
        for (int round = 0; round < 200; round++) {
            PoissonGrid g = new PoissonGrid(1 + random.nextInt(12));
            int ranks = 1 + random.nextInt(Math.min(20, g.rows() + 3)); // sometimes more ranks than rows
            BlockSplit split = new BlockSplit(g.rows(), ranks);
            double[] v = new double[g.rows()];
            for (int i = 0; i < v.length; i++) {
                v[i] = random.nextGaussian();
            }
            double[] whole = new double[g.rows()];
            g.applyRows(v, 0, 0, g.rows(), whole);
            List<HaloPlan> plans = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                plans.add(HaloPlan.of(g, split, r));
            }
            for (int rank = 0; rank < ranks; rank++) {
                int r = rank;
                HaloPlan plan = plans.get(r);
                double[] window = new double[plan.hi() - plan.lo()];
                java.util.Arrays.fill(window, Double.NaN);
                int first = (int) split.start(r);
                System.arraycopy(v, first, window, first - plan.lo(), split.count(r));
                for (HaloPlan.Peer p : plan.peers()) {
                    HaloPlan.Peer back = plans.get(p.rank()).peers().stream().filter(q -> q.rank() == r).findFirst()
                            .orElseThrow(() -> new AssertionError("rank " + p.rank() + " does not exchange with " + r));
                    assertEquals(p.recvFrom(), back.sendFrom(), "what " + r + " expects is what " + p.rank() + " sends");
                    assertEquals(p.recvCount(), back.sendCount());
                    assertTrue(p.recvFrom() >= split.start(p.rank()) && p.recvFrom() + p.recvCount() <= split.end(p.rank()),
                            "a peer sends only its own rows");
                    System.arraycopy(v, p.recvFrom(), window, p.recvFrom() - plan.lo(), p.recvCount());
                }
                double[] mine = new double[split.count(r)];
                g.applyRows(window, plan.lo(), first, split.count(r), mine);
                assertArrayEquals(java.util.Arrays.copyOfRange(whole, first, first + split.count(r)), mine,
                        "rank " + r + " of " + ranks + " on " + g.n() + "x" + g.n() + ": same bits as the whole product");
            }
        }
    }

    @Test
    void cgSolvesThePoissonProblemAsADirectSolveDoes() {
        for (int n : new int[]{1, 2, 5, 9}) {
            PoissonGrid g = new PoissonGrid(n);
            double[] b = PoissonGrid.rhs(7, 0, g.rows());
            CgSolver.Solution s = RankOrderCgSpace.solve(g, 1, 7, 1e-12, 1000);
            assertTrue(s.converged() && s.relativeResidual() <= 1e-12, "n=" + n + ": " + s);
            // Without rounding CG ends in at most as many iterations as A has distinct eigenvalues (n^2 at most).
            assertTrue(s.iterations() <= g.rows(), "n=" + n + ": " + s.iterations());
            double[] direct = gauss(dense(g), b);
            assertTrue(CgChecks.distance(direct, s.x()) <= 1e-10 * CgChecks.norm(direct), "n=" + n);
        }
        CgSolver.Solution one = RankOrderCgSpace.solve(new PoissonGrid(1), 1, 3, 1e-8, 10);
        assertEquals(1, one.iterations());
        assertEquals(PoissonGrid.rhs(3, 0) / 4, one.x()[0]);
    }

    @Test
    void theRankOrderReferenceFoldsPartialsLeftToRight() {
        PoissonGrid g = new PoissonGrid(6);
        double[] a = PoissonGrid.rhs(1, 0, g.rows());
        double[] b = PoissonGrid.rhs(2, 0, g.rows());
        BlockSplit split = new BlockSplit(g.rows(), 5);
        double fold = CgSpace.partialDot(a, b, 0, split.count(0));
        for (int r = 1; r < 5; r++) {
            fold += CgSpace.partialDot(a, b, (int) split.start(r), split.count(r));
        }
        assertEquals(Double.doubleToRawLongBits(fold), Double.doubleToRawLongBits(new RankOrderCgSpace(g, 5).dot(a, b)));
        assertEquals(Double.doubleToRawLongBits(CgSpace.partialDot(a, b, 0, g.rows())),
                Double.doubleToRawLongBits(new RankOrderCgSpace(g, 1).dot(a, b)), "one rank: the sequential sum");
    }

    /**
     * What the tolerances of the non-deterministic checks stand on: dot products whose partials are added in random
     * orders (as any all-reduce algorithm may) give solutions that pass them, with iteration counts at most one apart,
     * while a solution from a corrupted product fails them.
     */
    @Test
    void otherReductionOrdersStayWithinTheChecksAndACorruptedProductDoesNot() {
        Random random = new Random(2211);
        int maxIterationGap = 0;
        int differedInBits = 0;
        for (int round = 0; round < 12; round++) {
            PoissonGrid g = new PoissonGrid(8 + random.nextInt(40));
            int ranks = 2 + random.nextInt(15);
            long seed = random.nextLong();
            double tolerance = List.of(1e-6, 1e-8, 1e-10).get(random.nextInt(3));
            double[] b = PoissonGrid.rhs(seed, 0, g.rows());
            CgChecks.Judged sequential = CgChecks.Judged.of("sequential", RankOrderCgSpace.solve(g, 1, seed, tolerance, 5000));
            CgChecks.Judged rankOrder = CgChecks.Judged.of("rank-order", RankOrderCgSpace.solve(g, ranks, seed, tolerance, 5000));
            CgSolver.Solution shuffled = CgSolver.solve(new ShuffledOrderSpace(g, ranks, random.nextLong()), b, tolerance, 5000);
            CgChecks.Judged run = CgChecks.Judged.of("shuffled", shuffled);
            assertEquals(List.of(), CgChecks.judge(run, g, b, tolerance, sequential, rankOrder, false));
            assertEquals(List.of(), CgChecks.judge(rankOrder, g, b, tolerance, sequential, rankOrder, true));
            maxIterationGap = Math.max(maxIterationGap, Math.abs(shuffled.iterations() - sequential.iterations()));
            differedInBits += CgChecks.bitDifference(rankOrder, run) == null ? 0 : 1;
            assertTrue(!CgChecks.judge(run, g, b, tolerance, sequential, rankOrder, true).isEmpty()
                    || CgChecks.bitDifference(rankOrder, run) == null, "deterministic mode asks for bits");

            CgSolver.Solution corrupt = CgSolver.solve(new CorruptedSpace(g, 2), b, tolerance, 5000);
            List<String> problems = CgChecks.judge(CgChecks.Judged.of("corrupt", corrupt), g, b, tolerance, sequential,
                    rankOrder, false);
            assertTrue(problems.stream().anyMatch(p -> p.contains("true residual")), problems.toString());
        }
        assertTrue(maxIterationGap <= 1, "iterations apart: " + maxIterationGap);
        assertTrue(differedInBits > 0, "the orders were different enough to change bits");
    }

    @Test
    void bitDifferenceNamesTheFirstDifferingEntry() {
        CgChecks.Judged a = new CgChecks.Judged("a", new double[]{1, 2, 3}, 4, 1e-9);
        assertNull(CgChecks.bitDifference(a, new CgChecks.Judged("b", new double[]{1, 2, 3}, 4, 1e-9)));
        assertEquals("x[1] is " + Math.nextUp(2.0) + ", expected 2.0 (1 of 3 entries differ)",
                CgChecks.bitDifference(a, new CgChecks.Judged("b", new double[]{1, Math.nextUp(2.0), 3}, 4, 1e-9)));
        assertEquals("5 iterations, expected 4", CgChecks.bitDifference(a, new CgChecks.Judged("b", a.x(), 5, 1e-9)));
        assertNotNull(CgChecks.bitDifference(a, new CgChecks.Judged("b", a.x(), 4, Math.nextUp(1e-9))));
    }

    @Test
    void badOptionsAreRefusedNamingTheOption() {
        assertEquals("cg: grid must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> CgConfig.parse(List.of("grid=0"), false)).getMessage());
        assertEquals("cg: the grid side must be 1..46340, got 50000",
                assertThrows(IllegalArgumentException.class, () -> CgConfig.parse(List.of("grid=50000"), false)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CgConfig.parse(List.of("tolerance=1"), false))
                .getMessage().contains("tolerance must be below 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CgConfig.parse(List.of("tolerance=-1"), false))
                .getMessage().contains("tolerance must be a positive number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CgConfig.parse(List.of("grids=4"), false))
                .getMessage().contains("unknown option 'grids'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CgConfig.parse(List.of("algorithm=allgather.ring"), false))
                .getMessage().contains("is a allgather algorithm"));
        String refused = assertThrows(IllegalArgumentException.class,
                () -> CgConfig.parse(List.of("baseline=allreduce.ring"), true)).getMessage();
        assertTrue(refused.contains("allreduce.ring does not add in rank order") && refused.contains("0091"), refused);
        CgConfig deterministic = CgConfig.parse(List.of(), true);
        assertEquals("allreduce.deterministic", deterministic.baseline().id());
        assertEquals("allreduce.ring", CgConfig.parse(List.of(), false).baseline().id());
    }

    /** Dot products as an all-reduce in another order: the ranks' partials added in a random order each time. */
    private static final class ShuffledOrderSpace implements CgSpace {
        private final PoissonGrid grid;
        private final BlockSplit split;
        private final Random random;

        ShuffledOrderSpace(PoissonGrid grid, int ranks, long seed) {
            this.grid = grid;
            this.split = new BlockSplit(grid.rows(), ranks);
            this.random = new Random(seed);
        }

        @Override
        public int length() {
            return grid.rows();
        }

        @Override
        public double dot(double[] a, double[] b) {
            List<Double> partials = new ArrayList<>();
            for (int r = 0; r < split.ranks(); r++) {
                partials.add(CgSpace.partialDot(a, b, (int) split.start(r), split.count(r)));
            }
            Collections.shuffle(partials, random);
            // Pairwise, as a tree-shaped reduction adds.
            while (partials.size() > 1) {
                List<Double> next = new ArrayList<>();
                for (int i = 0; i + 1 < partials.size(); i += 2) {
                    next.add(partials.get(i) + partials.get(i + 1));
                }
                if (partials.size() % 2 == 1) {
                    next.add(partials.getLast());
                }
                partials = next;
            }
            return partials.getFirst();
        }

        @Override
        public void apply(double[] v, double[] out) {
            grid.applyRows(v, 0, 0, grid.rows(), out);
        }
    }

    /** A product whose input has one entry off by one, once, as a corrupted halo message would make it. */
    private static final class CorruptedSpace implements CgSpace {
        private final RankOrderCgSpace inner;
        private final int corruptProduct;
        private int products;

        CorruptedSpace(PoissonGrid grid, int corruptProduct) {
            this.inner = new RankOrderCgSpace(grid, 1);
            this.corruptProduct = corruptProduct;
        }

        @Override
        public int length() {
            return inner.length();
        }

        @Override
        public double dot(double[] a, double[] b) {
            return inner.dot(a, b);
        }

        @Override
        public void apply(double[] v, double[] out) {
            double[] input = v.clone();
            if (++products == corruptProduct) {
                input[input.length / 2] += 1;
            }
            inner.apply(input, out);
        }
    }

    private static double[][] dense(PoissonGrid g) {
        double[][] a = new double[g.rows()][g.rows()];
        double[] e = new double[g.rows()];
        double[] col = new double[g.rows()];
        for (int j = 0; j < g.rows(); j++) {
            e[j] = 1;
            g.applyRows(e, 0, 0, g.rows(), col);
            for (int i = 0; i < g.rows(); i++) {
                a[i][j] = col[i];
            }
            e[j] = 0;
        }
        return a;
    }

    /** Gaussian elimination without pivoting (A is symmetric positive definite). */
    private static double[] gauss(double[][] matrix, double[] rhs) {
        int m = rhs.length;
        double[][] a = new double[m][];
        for (int i = 0; i < m; i++) {
            a[i] = matrix[i].clone();
        }
        double[] b = rhs.clone();
        for (int k = 0; k < m; k++) {
            for (int i = k + 1; i < m; i++) {
                double f = a[i][k] / a[k][k];
                for (int j = k; j < m; j++) {
                    a[i][j] -= f * a[k][j];
                }
                b[i] -= f * b[k];
            }
        }
        double[] x = new double[m];
        for (int i = m - 1; i >= 0; i--) {
            double s = b[i];
            for (int j = i + 1; j < m; j++) {
                s -= a[i][j] * x[j];
            }
            x[i] = s / a[i][i];
        }
        return x;
    }
}
