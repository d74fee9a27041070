package io.railcoll.bench.apps;

import java.util.SplittableRandom;

/**
 * Deterministic initial conditions for the N-body app: {@code n} bodies with masses summing to 1, uniform in the
 * unit ball, with random velocities of roughly virial magnitude, shifted so the centre of mass is at rest at the
 * origin. Every rank generates all bodies from the seed, so the start needs no communication and the
 * single-process reference starts from the very same bits.
 *
 * @param mass     {@code n} masses
 * @param position {@code 3n} coordinates, body i at {@code [3i, 3i+3)}
 * @param velocity {@code 3n} components, same layout
 */
record Bodies(double[] mass, double[] position, double[] velocity) {

    int count() {
        return mass.length;
    }

    static Bodies generate(int n, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least one body, got " + n);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] m = new double[n];
        double[] x = new double[3 * n];
        double[] v = new double[3 * n];
        double totalMass = 0;
        for (int i = 0; i < n; i++) {
            m[i] = 0.5 + rnd.nextDouble();
            totalMass += m[i];
            pointInBall(rnd, x, 3 * i, 1.0);
            // A uniform ball of mass 1 and radius 1 has a virial speed of about 0.77; half keeps it bound.
            pointInBall(rnd, v, 3 * i, 0.4);
        }
        for (int i = 0; i < n; i++) {
            m[i] /= totalMass;
        }
        centre(m, x);
        centre(m, v);
        return new Bodies(m, x, v);
    }

    /** Rejection sampling: uniform in the ball of {@code radius}, written at {@code out[at..at+3)}. */
    private static void pointInBall(SplittableRandom rnd, double[] out, int at, double radius) {
        double a;
        double b;
        double c;
        do {
            a = 2 * rnd.nextDouble() - 1;
            b = 2 * rnd.nextDouble() - 1;
            c = 2 * rnd.nextDouble() - 1;
        } while (a * a + b * b + c * c > 1);
        out[at] = a * radius;
        out[at + 1] = b * radius;
        out[at + 2] = c * radius;
    }

    /** Subtracts the mass-weighted mean (masses sum to 1), so the system's momentum starts at rounding level. */
    private static void centre(double[] m, double[] xyz) {
        for (int d = 0; d < 3; d++) {
            double mean = 0;
            for (int i = 0; i < m.length; i++) {
                mean += m[i] * xyz[3 * i + d];
            }
            for (int i = 0; i < m.length; i++) {
                xyz[3 * i + d] -= mean;
            }
        }
    }
}
