package io.railcoll.bench.apps;

/**
 * One rank's share of the N-body system: its bodies' positions (the all-gather send block, padded to the split's
 * block), velocities and forces, and every body's position as last exchanged. Integration is velocity Verlet
 * (kick-drift-kick), which is time-reversible and keeps energy bounded over many steps. Confined to one thread.
 */
final class NbodyState {
    final BlockSplit split;
    final int rank;
    final double[] mass;
    final double eps;
    final long first;
    final int count;
    /** This rank's positions, {@code 3*block} values; the tail beyond {@code 3*count} is padding (zeros). */
    final double[] position;
    final double[] velocity;
    final double[] force;
    /** Every rank's position block as exchanged: {@code 3*block*ranks} values. */
    final double[] all;

    private NbodyState(BlockSplit split, int rank, double[] mass, double eps) {
        this.split = split;
        this.rank = rank;
        this.mass = mass;
        this.eps = eps;
        this.first = split.start(rank);
        this.count = split.count(rank);
        this.position = new double[3 * split.block()];
        this.velocity = new double[3 * count];
        this.force = new double[3 * count];
        this.all = new double[3 * split.block() * split.ranks()];
    }

    /** The state at time 0 from the shared initial conditions; every position is known without an exchange. */
    static NbodyState start(Bodies bodies, BlockSplit split, int rank, double eps) {
        if (split.total() != bodies.count()) {
            throw new IllegalArgumentException("split of " + split.total() + " for " + bodies.count() + " bodies");
        }
        NbodyState s = new NbodyState(split, rank, bodies.mass(), eps);
        System.arraycopy(bodies.position(), (int) (3 * s.first), s.position, 0, 3 * s.count);
        System.arraycopy(bodies.velocity(), (int) (3 * s.first), s.velocity, 0, 3 * s.count);
        for (int g = 0; g < bodies.count(); g++) {
            System.arraycopy(bodies.position(), 3 * g, s.all, 3 * GravityKernel.slot(split, g), 3);
        }
        return s;
    }

    void computeForces() {
        GravityKernel.forces(all, split, mass, eps, first, count, force);
    }

    /** v += (F/m) * dt; called with half a step on each side of the drift. */
    void kick(double dt) {
        for (int t = 0; t < count; t++) {
            double m = mass[(int) (first + t)];
            for (int d = 0; d < 3; d++) {
                velocity[3 * t + d] += force[3 * t + d] / m * dt;
            }
        }
    }

    void drift(double dt) {
        for (int i = 0; i < 3 * count; i++) {
            position[i] += velocity[i] * dt;
        }
    }

    /** This rank's share of the conserved quantities, from the current velocities and exchanged positions. */
    NbodyTotals localTotals() {
        double px = 0;
        double py = 0;
        double pz = 0;
        double kinetic = 0;
        double magnitude = 0;
        for (int t = 0; t < count; t++) {
            double m = mass[(int) (first + t)];
            double vx = velocity[3 * t];
            double vy = velocity[3 * t + 1];
            double vz = velocity[3 * t + 2];
            px += m * vx;
            py += m * vy;
            pz += m * vz;
            double v2 = vx * vx + vy * vy + vz * vz;
            kinetic += 0.5 * m * v2;
            magnitude += m * Math.sqrt(v2);
        }
        double potential = GravityKernel.potentialShare(all, split, mass, eps, first, count);
        return new NbodyTotals(px, py, pz, kinetic, potential, magnitude);
    }

    /** Positions then velocities of this rank's bodies, each padded to the block: {@code 6*block} values. */
    double[] finalBlock() {
        int block = split.block();
        double[] out = new double[6 * block];
        System.arraycopy(position, 0, out, 0, 3 * count);
        System.arraycopy(velocity, 0, out, 3 * block, 3 * count);
        return out;
    }

    /**
     * The global state {@code [3n positions][3n velocities]} in body order, from every rank's {@link #finalBlock()}
     * as all-gathered ({@code 6*block} values per rank).
     */
    static double[] unpad(BlockSplit split, double[] blocks) {
        int n = (int) split.total();
        int block = split.block();
        double[] out = new double[6 * n];
        for (int r = 0; r < split.ranks(); r++) {
            int c = split.count(r);
            int g0 = (int) split.start(r);
            System.arraycopy(blocks, 6 * block * r, out, 3 * g0, 3 * c);
            System.arraycopy(blocks, 6 * block * r + 3 * block, out, 3 * n + 3 * g0, 3 * c);
        }
        return out;
    }

    /** The global state of a single-rank run, in the {@link #unpad} layout. */
    double[] globalState() {
        if (split.ranks() != 1) {
            throw new IllegalStateException("only a single-rank state holds every body");
        }
        return unpad(split, finalBlock());
    }
}
