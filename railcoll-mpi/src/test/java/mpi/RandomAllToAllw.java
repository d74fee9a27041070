package mpi;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random call test's {@code allToAllw} and {@code iAllToAllw} (decision 0219): a pair of types per pair of ranks,
 * byte displacements in a random order with gaps; half the calls mix primitives per pair (and structs of several) in
 * direct buffers, the others one primitive in arrays of its storage where every type lives in it.
 */
final class RandomAllToAllw {
    private RandomAllToAllw() {
    }

    static void next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step,
                                  boolean nb) throws MPIException {
        boolean mixed = rnd.nextBoolean(); // a primitive per pair: the buffers are ByteBuffers
        RandomTypes.Prim one = RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)];
        RandomExchanges.Pair[][] pairs = new RandomExchanges.Pair[size][size]; // [from][to]
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                RandomTypes.Prim p = mixed ? RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)]
                        : one;
                pairs[i][j] = mixed && rnd.nextInt(4) == 0 ? RandomExchanges.mixedPair(rnd, rnd.nextInt(3)) : RandomExchanges.pair(rnd, p, rnd.nextInt(3));
            }
        }
        RandomTypes.Prim storage = mixed ? RandomTypes.Prim.BYTE : RandomTypes.predefined(one).storage();
        // Arrays (and heap slices) hold one storage: a struct's is BYTE; else direct buffers, which hold any type.
        boolean direct = mixed;
        for (RandomExchanges.Pair[] row : pairs) {
            for (RandomExchanges.Pair q : row) {
                direct |= q.send().storage() != storage || q.recv().storage() != storage;
            }
        }
        if (direct) {
            storage = RandomTypes.Prim.BYTE;
        }
        // Byte displacements: blocks in a random order, gaps between, each at a multiple of 8 (every alignment).
        int[][] sD = new int[size][size];
        int[][] rD = new int[size][size];
        long[] sSpan = new long[size];
        long[] rSpan = new long[size];
        for (int i = 0; i < size; i++) {
            final int me = i;
            sSpan[i] = place(rnd, size, j -> pairs[me][j].send().span(pairs[me][j].sendCount()), sD[i]);
            rSpan[i] = place(rnd, size, j -> pairs[j][me].recv().span(pairs[j][me].recvCount()), rD[i]);
        }
        RandomTypes.Model bytes = RandomTypes.predefined(storage);
        int w = storage.width;
        String kind = direct ? " in direct buffers" : "";
        long[] sUnits = Arrays.stream(sSpan).map(b -> (b + w - 1) / w).toArray();
        long[] rUnits = Arrays.stream(rSpan).map(b -> (b + w - 1) / w).toArray();
        RandomCall c = new RandomCall((nb ? "i" : "") + "allToAllw" + (mixed ? " mixed" : " over " + one) + kind, seed, step,
                rank, nb);
        RandomCall.Arg s = c.arg(bytes, sUnits, false);
        RandomCall.Arg r = c.arg(bytes, rUnits, false);
        s.directBuffer = direct;
        r.directBuffer = direct;
        r.passed();
        for (int i = 0; i < size; i++) {
            RandomExchanges.Pair q = pairs[i][rank];
            byte[] data = RandomReference.pack(s.image(i), s.origin(i) + sD[i][rank], q.send(), 0, q.sendCount());
            RandomReference.unpack(r.expected, r.buf.origin + rD[rank][i], q.recv(), 0, q.recvCount(), data, 0);
        }
        int[] sc = new int[size];
        int[] rc = new int[size];
        Datatype[] st = new Datatype[size];
        Datatype[] rt = new Datatype[size];
        for (int j = 0; j < size; j++) {
            sc[j] = pairs[rank][j].sendCount();
            st[j] = pairs[rank][j].send().type();
            rc[j] = pairs[j][rank].recvCount();
            rt[j] = pairs[j][rank].recv().type();
        }
        try {
            if (nb) {
                comm.iAllToAllw(s.direct(), sc, sD[rank], st, r.direct(), rc, rD[rank], rt).waitFor();
            } else {
                comm.allToAllw(s.passed(), sc, sD[rank], st, r.passed(), rc, rD[rank], rt);
            }
            c.check();
        } catch (AssertionError | MPIException | RuntimeException e) {
            StringBuilder b = new StringBuilder(e.getMessage() + " (blocks: ");
            for (int i = 0; i < size; i++) {
                RandomExchanges.Pair q = pairs[i][rank];
                b.append("from ").append(i).append(" ").append(q.sendCount()).append(" x ").append(q.send()).append(" at ")
                        .append(sD[i][rank]).append(" into ").append(q.recvCount()).append(" x ").append(q.recv())
                        .append(" at ").append(rD[rank][i]).append("; ");
            }
            throw new AssertionError(b.append(")").toString(), e);
        }
    }

    /** Places n blocks of the given byte spans in a random order with gaps; their displacements, and the whole span. */
    private static long place(SplittableRandom rnd, int n, java.util.function.IntToLongFunction span, int[] displs) {
        int[] order = RandomExchanges.permutation(rnd, n);
        long at = 8L * rnd.nextInt(2);
        for (int j : order) {
            displs[j] = Math.toIntExact(at);
            at += (span.applyAsLong(j) + 7) / 8 * 8 + 8L * rnd.nextInt(2);
        }
        return at;
    }
}
