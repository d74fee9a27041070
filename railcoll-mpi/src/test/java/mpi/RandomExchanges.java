package mpi;

import java.util.SplittableRandom;

/**
 * The random call test's exchanges with a type per block or a topology (decision 0219): draws {@link RandomAllToAllw}
 * a third of the time and {@link RandomNeighbourhoods} otherwise, blocking or not; the pairs of types they share
 * (one signature, layouts of their own).
 */
final class RandomExchanges {
    private RandomExchanges() {
    }

    static void next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step)
            throws MPIException {
        boolean nb = rnd.nextBoolean();
        if (rnd.nextInt(3) == 0) {
            RandomAllToAllw.next(comm, size, rank, rnd, seed, step, nb);
        } else {
            RandomNeighbourhoods.next(comm, size, rank, rnd, seed, step, nb);
        }
    }

    /** Send type, count; receive type, count: one signature (as RandomCalls' pairs). */
    record Pair(RandomTypes.Model send, int sendCount, RandomTypes.Model recv, int recvCount) {
    }

    /** A pair of types over {@code p} for {@code units} units: the counts in the ratio of their leaves. */
    static Pair pair(SplittableRandom rnd, RandomTypes.Prim p, int units) throws MPIException {
        RandomTypes.Model s = RandomTypes.random(rnd, p, 2);
        RandomTypes.Model r = RandomTypes.random(rnd, p, 2);
        if (rnd.nextBoolean() || s.leaves() == 0 || r.leaves() == 0) {
            return new Pair(s, units, s, units);
        }
        int g = gcd(s.leaves(), r.leaves());
        return new Pair(s, units * r.leaves() / g, r, units * s.leaves() / g);
    }

    /** A struct of several primitives and another layout of the same signature, {@code units} of each. */
    static Pair mixedPair(SplittableRandom rnd, int units) throws MPIException {
        RandomTypes.Model s = RandomTypes.mixed(rnd);
        return new Pair(s, units, RandomTypes.relayout(rnd, s), units);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** A random order of 0..n-1 (Fisher-Yates, n - 1 draws from {@code rnd}). */
    static int[] permutation(SplittableRandom rnd, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int x = p[i];
            p[i] = p[j];
            p[j] = x;
        }
        return p;
    }
}
