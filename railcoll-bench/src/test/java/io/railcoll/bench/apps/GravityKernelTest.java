package io.railcoll.bench.apps;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GravityKernelTest {
    private static final double EPS = 0.05;

    /** Positions of {@code bodies} laid out in the exchange buffer of {@code split}, as after an all-gather. */
    private static double[] exchanged(Bodies bodies, BlockSplit split) {
        double[] all = new double[3 * split.block() * split.ranks()];
        for (int g = 0; g < bodies.count(); g++) {
            System.arraycopy(bodies.position(), 3 * g, all, 3 * GravityKernel.slot(split, g), 3);
        }
        return all;
    }

    @Test
    void twoBodiesMatchTheFormula() {
        Bodies b = new Bodies(new double[] {0.25, 0.75}, new double[] {0, 0, 0, 3, 4, 0}, new double[6]);
        BlockSplit s = new BlockSplit(2, 1);
        double[] f = new double[6];
        GravityKernel.forces(exchanged(b, s), s, b.mass(), EPS, 0, 2, f);
        double r2 = 25 + EPS * EPS;
        double expected = 0.25 * 0.75 / (r2 * Math.sqrt(r2));
        assertEquals(3 * expected, f[0], 1e-15);
        assertEquals(4 * expected, f[1], 1e-15);
        assertEquals(0, f[2]);
        double u = GravityKernel.potentialShare(exchanged(b, s), s, b.mass(), EPS, 0, 2);
        assertEquals(-0.25 * 0.75 / Math.sqrt(r2), u, 1e-15);
    }

    @Test
    void pairForcesAreExactlyOpposite() {
        Bodies b = Bodies.generate(2, 7);
        BlockSplit s = new BlockSplit(2, 1);
        double[] f = new double[6];
        GravityKernel.forces(exchanged(b, s), s, b.mass(), EPS, 0, 2, f);
        for (int d = 0; d < 3; d++) {
            assertEquals(Double.doubleToRawLongBits(-f[d]), Double.doubleToRawLongBits(f[3 + d]), "axis " + d);
        }
    }

    @Test
    void totalForceVanishesUpToRounding() {
        Bodies b = Bodies.generate(300, 11);
        BlockSplit s = new BlockSplit(300, 1);
        double[] f = new double[900];
        GravityKernel.forces(exchanged(b, s), s, b.mass(), EPS, 0, 300, f);
        double magnitude = 0;
        double[] sum = new double[3];
        for (int i = 0; i < 300; i++) {
            for (int d = 0; d < 3; d++) {
                sum[d] += f[3 * i + d];
                magnitude += Math.abs(f[3 * i + d]);
            }
        }
        for (int d = 0; d < 3; d++) {
            assertTrue(Math.abs(sum[d]) < 1e-13 * magnitude, "axis " + d + ": " + sum[d] + " of " + magnitude);
        }
    }

    @Test
    void rankLayoutDoesNotChangeABit() {
        Bodies b = Bodies.generate(37, 3);
        BlockSplit one = new BlockSplit(37, 1);
        double[] reference = new double[3 * 37];
        GravityKernel.forces(exchanged(b, one), one, b.mass(), EPS, 0, 37, reference);
        BlockSplit five = new BlockSplit(37, 5);
        double[] all = exchanged(b, five);
        for (int r = 0; r < 5; r++) {
            double[] f = new double[3 * five.count(r)];
            GravityKernel.forces(all, five, b.mass(), EPS, five.start(r), five.count(r), f);
            for (int k = 0; k < f.length; k++) {
                assertEquals(Double.doubleToRawLongBits(reference[(int) (3 * five.start(r)) + k]),
                        Double.doubleToRawLongBits(f[k]), "rank " + r + " value " + k);
            }
        }
    }

    @Test
    void initialConditionsAreSeededAndAtRest() {
        Bodies a = Bodies.generate(100, 5);
        Bodies b = Bodies.generate(100, 5);
        Bodies c = Bodies.generate(100, 6);
        assertEquals(Hashing.of(a.position()), Hashing.of(b.position()));
        assertTrue(Hashing.of(a.position()) != Hashing.of(c.position()));
        double mass = 0;
        double[] p = new double[3];
        for (int i = 0; i < 100; i++) {
            mass += a.mass()[i];
            for (int d = 0; d < 3; d++) {
                p[d] += a.mass()[i] * a.velocity()[3 * i + d];
            }
        }
        assertEquals(1.0, mass, 1e-12);
        for (int d = 0; d < 3; d++) {
            assertEquals(0.0, p[d], 1e-15);
        }
    }
}
