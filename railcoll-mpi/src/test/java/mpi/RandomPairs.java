package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * The random call test's MINLOC/MAXLOC calls on the pair types {@code MPI.INT2} ({int, int}) and
 * {@code MPI.DOUBLE_INT} ({double@0, int@8}, 4 bytes of padding): values drawn from a few, so that ties (the lower
 * index wins) are common. The pairs are modelled as byte leaves over the fields (padding is not in the type map; a
 * received element's padding is undefined, §4.3 R6 copies the whole extent back).
 */
final class RandomPairs {
    private RandomPairs() {
    }

    static RandomCalls.Started next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step,
                                    boolean nb) throws MPIException {
        boolean doubles = rnd.nextBoolean();
        boolean min = rnd.nextBoolean();
        boolean all = rnd.nextBoolean();
        boolean inPlace = rnd.nextInt(3) == 0;
        int root = rnd.nextInt(size);
        int count = rnd.nextInt(4);
        int extent = doubles ? 16 : 8;
        int fields = doubles ? 12 : 8;
        long[] leaves = new long[fields];
        for (int i = 0; i < fields; i++) {
            leaves[i] = i;
        }
        Datatype type = doubles ? MPI.DOUBLE_INT : MPI.INT2;
        RandomTypes.Model m = new RandomTypes.Model(type, doubles ? "MPI.DOUBLE_INT" : "MPI.INT2", RandomTypes.Prim.BYTE,
                RandomTypes.Prim.BYTE, leaves, 0, extent, extent, doubles ? 8 : 4); // buffers hold whole extents
        Op op = min ? MPI.MINLOC : MPI.MAXLOC;
        RandomCall c = new RandomCall((nb ? "i" : "") + (all ? "allReduce" : "reduce") + (inPlace ? "(in place)" : "")
                + " " + (min ? "MINLOC" : "MAXLOC") + " root " + root, seed, step, rank, nb);
        long[] counts = new long[size];
        java.util.Arrays.fill(counts, count);
        RandomCall.Arg s = c.arg(m, counts, false);
        RandomCall.Arg r = inPlace ? s : c.arg(m, counts, false);
        byte[][] images = new byte[size][];
        for (int i = 0; i < size; i++) {
            images[i] = pairs(s.image(i), s.origin(i), count, extent, doubles, seed, step, i);
        }
        s.passed();
        s.buf.write(images[rank]);
        s.expected = RandomReference.expectedOf(images[rank]);
        if (all || rank == root) {
            byte[] folded = fold(images, s, count, extent, doubles, min, size);
            r.expect(0, count, folded, 0);
            r.passed();
            for (int e = 0; e < count; e++) {
                for (int b = fields; b < extent; b++) {
                    r.expected[Math.toIntExact(r.buf.origin + (long) e * extent + b)] = RandomReference.UNDEFINED;
                }
            }
        }
        Request req = null;
        if (all) {
            if (nb) {
                req = inPlace ? comm.iAllReduce(s.direct(), count, type, op)
                        : comm.iAllReduce(s.direct(), r.direct(), count, type, op);
            } else if (inPlace) {
                comm.allReduce(s.passed(), count, type, op);
            } else {
                comm.allReduce(s.passed(), r.passed(), count, type, op);
            }
        } else if (nb) {
            req = inPlace ? comm.iReduce(s.direct(), count, type, op, root)
                    : comm.iReduce(s.direct(), r.direct(), count, type, op, root);
        } else if (inPlace) {
            comm.reduce(s.passed(), count, type, op, root);
        } else {
            comm.reduce(s.passed(), rank == root ? r.passed() : null, count, type, op, root);
        }
        return new RandomCalls.Started(c, req);
    }

    /** Rank i's input: {@code image} with (value, index) pairs written over its elements' fields. */
    private static byte[] pairs(byte[] image, long origin, int count, int extent, boolean doubles, long seed, long step,
                                int rank) {
        ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.nativeOrder());
        for (int e = 0; e < count; e++) {
            int at = Math.toIntExact(origin + (long) e * extent);
            long v = RandomBuffers.mix(seed, step, rank, 77, e);
            int value = (int) Math.floorMod(v, 4) - 1;
            int index = (int) (v >>> 40) % 5;
            if (doubles) {
                b.putDouble(at, value * 0.5);
                b.putInt(at + 8, index);
            } else {
                b.putInt(at, value);
                b.putInt(at + 4, index);
            }
        }
        return image;
    }

    private static byte[] fold(byte[][] images, RandomCall.Arg s, int count, int extent, boolean doubles, boolean min,
                               int size) {
        int fields = doubles ? 12 : 8;
        ByteBuffer out = ByteBuffer.allocate(count * fields).order(ByteOrder.nativeOrder());
        for (int e = 0; e < count; e++) {
            double best = 0;
            int bestIndex = 0;
            for (int i = 0; i < size; i++) {
                ByteBuffer b = ByteBuffer.wrap(images[i]).order(ByteOrder.nativeOrder());
                int at = Math.toIntExact(s.origin(i) + (long) e * extent);
                double v = doubles ? b.getDouble(at) : b.getInt(at);
                int index = b.getInt(at + (doubles ? 8 : 4));
                boolean better = i == 0 || (min ? v < best : v > best) || v == best && index < bestIndex;
                if (better) {
                    best = v;
                    bestIndex = index;
                }
            }
            if (doubles) {
                out.putDouble(e * fields, best);
                out.putInt(e * fields + 8, bestIndex);
            } else {
                out.putInt(e * fields, (int) best);
                out.putInt(e * fields + 4, bestIndex);
            }
        }
        return out.array();
    }
}
