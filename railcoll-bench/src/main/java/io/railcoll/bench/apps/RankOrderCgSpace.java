package io.railcoll.bench.apps;

/**
 * The whole problem in one process, with dot products combined as a job of {@code ranks} ranks does in deterministic
 * mode (decision 0091): each rank's rows ({@link BlockSplit}) give a partial by {@link CgSpace#partialDot}, and the
 * partials are added left to right in rank order, {@code ((s0 + s1) + s2) + ...}. With one rank this is the plain
 * sequential solver (the partial over all rows, in index order).
 */
final class RankOrderCgSpace implements CgSpace {
    private final PoissonGrid grid;
    private final BlockSplit split;

    RankOrderCgSpace(PoissonGrid grid, int ranks) {
        this.grid = grid;
        this.split = new BlockSplit(grid.rows(), ranks);
    }

    @Override
    public int length() {
        return grid.rows();
    }

    @Override
    public double dot(double[] a, double[] b) {
        double sum = CgSpace.partialDot(a, b, 0, split.count(0));
        for (int r = 1; r < split.ranks(); r++) {
            sum += CgSpace.partialDot(a, b, (int) split.start(r), split.count(r));
        }
        return sum;
    }

    @Override
    public void apply(double[] v, double[] out) {
        grid.applyRows(v, 0, 0, grid.rows(), out);
    }

    /** The reference solution of the app's problem. */
    static CgSolver.Solution solve(PoissonGrid grid, int ranks, long seed, double tolerance, int maxIterations) {
        return CgSolver.solve(new RankOrderCgSpace(grid, ranks), PoissonGrid.rhs(seed, 0, grid.rows()), tolerance,
                maxIterations);
    }
}
