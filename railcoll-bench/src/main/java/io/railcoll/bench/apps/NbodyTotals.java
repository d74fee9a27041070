package io.railcoll.bench.apps;

/**
 * Conserved quantities of the N-body system (or one rank's share of them, which add up).
 *
 * @param momentumMagnitude {@code sum of m|v|}: the scale against which rounding in the total momentum is judged
 */
record NbodyTotals(double px, double py, double pz, double kinetic, double potential, double momentumMagnitude) {

    static final int DOUBLES = 6;

    double energy() {
        return kinetic + potential;
    }

    double[] toArray() {
        return new double[] {px, py, pz, kinetic, potential, momentumMagnitude};
    }

    /** Sums every rank's share from an all-gathered array, in rank order so every rank gets the same bits. */
    static NbodyTotals sum(double[] all, int ranks) {
        double[] s = new double[DOUBLES];
        for (int r = 0; r < ranks; r++) {
            for (int k = 0; k < DOUBLES; k++) {
                s[k] += all[r * DOUBLES + k];
            }
        }
        return new NbodyTotals(s[0], s[1], s[2], s[3], s[4], s[5]);
    }

    /**
     * |P - P0| relative to the momentum scale: pairwise-symmetric forces leave only rounding here. A system at rest
     * (a single body) has no scale; then the absolute change is returned, which must be 0.
     */
    double momentumDrift(NbodyTotals start) {
        double dx = px - start.px;
        double dy = py - start.py;
        double dz = pz - start.pz;
        double change = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double scale = Math.max(momentumMagnitude, start.momentumMagnitude);
        return scale == 0 ? change : change / scale;
    }

    /** |E - E0| / |E0|: velocity Verlet keeps this small and bounded for a small enough step (absolute when E0 = 0). */
    double energyDrift(NbodyTotals start) {
        double change = Math.abs(energy() - start.energy());
        return start.energy() == 0 ? change : change / Math.abs(start.energy());
    }
}
