package io.railcoll.bench.apps;

/**
 * Direct-sum softened gravity (G = 1, Plummer softening {@code eps}): the force on body i is
 * {@code sum over j != i of m_i m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)}, with the matching potential
 * {@code -m_i m_j / sqrt(|x_j - x_i|^2 + eps^2)}.
 *
 * <p>Two properties the app's checks rely on:
 * <ul>
 *   <li>The pair force is computed as {@code (m_i*m_j) * w(r^2) * d} with {@code d = x_j - x_i}; swapping i and j
 *       negates d exactly and leaves {@code m_i*m_j} and {@code r^2} unchanged, so {@code f_ji == -f_ij} bit for bit
 *       and total momentum changes only by the rounding of the per-body sums.</li>
 *   <li>Sources are summed in increasing global index whatever the rank layout, so a parallel run and the
 *       single-process reference add the same numbers in the same order and agree bit for bit.</li>
 * </ul>
 * Positions are read from an exchange buffer laid out by a {@link BlockSplit}: rank r's block starts at slot
 * {@code r * block}, and padding slots are skipped. Pure and thread-safe.
 */
final class GravityKernel {
    private GravityKernel() {
    }

    /**
     * Forces on bodies {@code [first, first+count)} (global indices) from all bodies; writes {@code 3*count} values
     * into {@code force}.
     */
    static void forces(double[] all, BlockSplit split, double[] mass, double eps, long first, int count, double[] force) {
        double eps2 = eps * eps;
        int block = split.block();
        for (int t = 0; t < count; t++) {
            long gi = first + t;
            int si = 3 * slot(split, gi);
            double xi = all[si];
            double yi = all[si + 1];
            double zi = all[si + 2];
            double mi = mass[(int) gi];
            double fx = 0;
            double fy = 0;
            double fz = 0;
            for (int r = 0; r < split.ranks(); r++) {
                int n = split.count(r);
                long g0 = split.start(r);
                int base = 3 * r * block;
                for (int k = 0; k < n; k++) {
                    long gj = g0 + k;
                    if (gj == gi) {
                        continue;
                    }
                    int sj = base + 3 * k;
                    double dx = all[sj] - xi;
                    double dy = all[sj + 1] - yi;
                    double dz = all[sj + 2] - zi;
                    double r2 = dx * dx + dy * dy + dz * dz + eps2;
                    double s = (mi * mass[(int) gj]) / (r2 * Math.sqrt(r2));
                    fx += s * dx;
                    fy += s * dy;
                    fz += s * dz;
                }
            }
            force[3 * t] = fx;
            force[3 * t + 1] = fy;
            force[3 * t + 2] = fz;
        }
    }

    /** Half the potential energy of bodies {@code [first, first+count)} with all others: summed over ranks, the total. */
    static double potentialShare(double[] all, BlockSplit split, double[] mass, double eps, long first, int count) {
        double eps2 = eps * eps;
        int block = split.block();
        double u = 0;
        for (int t = 0; t < count; t++) {
            long gi = first + t;
            int si = 3 * slot(split, gi);
            for (int r = 0; r < split.ranks(); r++) {
                int n = split.count(r);
                long g0 = split.start(r);
                for (int k = 0; k < n; k++) {
                    long gj = g0 + k;
                    if (gj == gi) {
                        continue;
                    }
                    int sj = 3 * (r * block + k);
                    double dx = all[sj] - all[si];
                    double dy = all[sj + 1] - all[si + 1];
                    double dz = all[sj + 2] - all[si + 2];
                    u -= 0.5 * mass[(int) gi] * mass[(int) gj] / Math.sqrt(dx * dx + dy * dy + dz * dz + eps2);
                }
            }
        }
        return u;
    }

    /** The exchange-buffer slot of global body {@code g}. */
    static int slot(BlockSplit split, long g) {
        int r = split.owner(g);
        return (int) (r * (long) split.block() + (g - split.start(r)));
    }
}
