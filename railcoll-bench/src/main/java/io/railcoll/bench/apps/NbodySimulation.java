package io.railcoll.bench.apps;

/**
 * The time-stepping loop, shared by the parallel app and the single-process reference so both run the same
 * arithmetic: forces from the initial positions, then per step kick half a step, drift, exchange positions, forces,
 * kick half a step. The exchange is the only communication.
 */
final class NbodySimulation {
    /** Makes {@code all} hold every rank's {@code send} block after {@code step}'s drift. */
    @FunctionalInterface
    interface PositionExchange {
        void exchange(double[] send, double[] all, int step);
    }

    private NbodySimulation() {
    }

    static void run(NbodyState s, int steps, double dt, PositionExchange exchange) {
        s.computeForces();
        for (int step = 1; step <= steps; step++) {
            s.kick(dt / 2);
            s.drift(dt);
            exchange.exchange(s.position, s.all, step);
            s.computeForces();
            s.kick(dt / 2);
        }
    }

    /**
     * The same simulation on one rank with a local copy for the exchange: the bit-exact answer a parallel run must
     * reproduce. Returns the global state {@code [3n positions][3n velocities]}.
     */
    static double[] reference(Bodies bodies, int steps, double dt, double eps) {
        NbodyState s = NbodyState.start(bodies, new BlockSplit(bodies.count(), 1), 0, eps);
        run(s, steps, dt, (send, all, step) -> System.arraycopy(send, 0, all, 0, send.length));
        return s.globalState();
    }
}
