package mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The random call test's datatype generator: random derived types over one predefined primitive (contiguous, vector,
 * hvector, indexed, struct, resized, nested up to two levels), each with the test's own model of its type map, built
 * here from MPI's rules and not from railcoll-mpi's code: the byte offset and width of every leaf of one element in
 * type-map order, the bounds and the extent in bytes. Blocks never overlap (a receive type must not).
 */
final class RandomTypes {
    private RandomTypes() {
    }

    /** The primitives the generator builds on: the datatype, its width and its Java storage. */
    enum Prim {
        BYTE(1), CHAR(2), SHORT(2), INT(4), LONG(8), FLOAT(4), DOUBLE(8), BOOLEAN(1), FLOAT_COMPLEX(8),
        DOUBLE_COMPLEX(16);

        final int width;

        Prim(int width) {
            this.width = width;
        }

        boolean floating() {
            return this == FLOAT || this == DOUBLE;
        }

        boolean complex() {
            return this == FLOAT_COMPLEX || this == DOUBLE_COMPLEX;
        }

        /** Whether MIN and MAX compare it unsigned (spec §4.4: BYTE and BOOLEAN are uint8, CHAR uint16). */
        boolean unsigned() {
            return this == BYTE || this == CHAR || this == BOOLEAN;
        }

        /** The primitive whose Java arrays hold it: {@code float[]} for FLOAT_COMPLEX (2 per element), ... */
        Prim storage() {
            return switch (this) {
                case FLOAT_COMPLEX -> FLOAT;
                case DOUBLE_COMPLEX -> DOUBLE;
                default -> this;
            };
        }

        Datatype type() {
            return switch (this) {
                case BYTE -> MPI.BYTE;
                case CHAR -> MPI.CHAR;
                case SHORT -> MPI.SHORT;
                case INT -> MPI.INT;
                case LONG -> MPI.LONG;
                case FLOAT -> MPI.FLOAT;
                case DOUBLE -> MPI.DOUBLE;
                case BOOLEAN -> MPI.BOOLEAN;
                case FLOAT_COMPLEX -> MPI.FLOAT_COMPLEX;
                case DOUBLE_COMPLEX -> MPI.DOUBLE_COMPLEX;
            };
        }
    }

    /**
     * A datatype and the test's model of it. {@code storage} is the primitive whose arrays hold it (BYTE for a
     * struct, as the bindings have it); {@code leafOffsets} the byte offsets of its leaves (all {@code prim}) in
     * type-map order, relative to the element's origin.
     */
    record Model(Datatype type, String describe, Prim prim, Prim storage, long[] leafOffsets, long lb, long ub,
                 long trueUb, int alignment, String signature) {
        /**
         * A type over one primitive; {@code signature} (the primitives in type-map order, as text) is only for a struct
         * of several, whose leaves are then its bytes ({@code prim} BYTE): a type to pair it with must have the same.
         */
        Model(Datatype type, String describe, Prim prim, Prim storage, long[] leafOffsets, long lb, long ub,
              long trueUb, int alignment) {
            this(type, describe, prim, storage, leafOffsets, lb, ub, trueUb, alignment, null);
        }

        long extent() {
            return ub - lb;
        }

        int leaves() {
            return leafOffsets.length;
        }

        /** The bytes {@code count} elements span from the buffer's origin (true lower bound is never below 0). */
        long span(long count) {
            return count == 0 ? 0 : trueUb + (count - 1) * extent();
        }

        @Override
        public String toString() {
            return describe;
        }
    }

    static Model predefined(Prim p) {
        return new Model(p.type(), "MPI." + p, p, p.storage(), new long[] {0}, 0, p.width, p.width, p.storage().width);
    }

    /** A random committed type over {@code p}: predefined a third of the time, else derived to depth {@code depth}. */
    static Model random(SplittableRandom rnd, Prim p, int depth) throws MPIException {
        if (depth == 0 || rnd.nextInt(3) == 0) {
            return predefined(p);
        }
        Model old = random(rnd, p, depth - 1);
        Model m = switch (rnd.nextInt(8)) {
            case 7 -> backwards(rnd, old);
            case 0 -> contiguous(rnd, old);
            case 1 -> vector(rnd, old, false);
            case 2 -> vector(rnd, old, true);
            case 3 -> indexed(rnd, old, false);
            case 6 -> indexed(rnd, old, true);
            case 4 -> struct(rnd, p, depth);
            default -> resized(rnd, old);
        };
        m.type.commit();
        return m;
    }

    private static Model contiguous(SplittableRandom rnd, Model old) throws MPIException {
        int n = 1 + rnd.nextInt(3);
        return blocks(Datatype.createContiguous(n, old.type), "contiguous(" + n + ", " + old + ")", old,
                new long[] {0}, new int[] {n}, old.storage, false);
    }

    /** A vector (stride in extents of {@code old}) or hvector (stride in bytes, a multiple of the primitive's width). */
    private static Model vector(SplittableRandom rnd, Model old, boolean bytes) throws MPIException {
        int count = 1 + rnd.nextInt(3);
        int blockLength = 1 + rnd.nextInt(2);
        long[] d = new long[count];
        int[] lengths = new int[count];
        Datatype t;
        String name;
        if (bytes) {
            long stride = blockLength * old.extent() + old.prim.width * (long) rnd.nextInt(3);
            t = Datatype.createHVector(count, blockLength, (int) stride, old.type);
            name = "hvector(" + count + ", " + blockLength + ", " + stride + "B, " + old + ")";
            for (int i = 0; i < count; i++) {
                d[i] = i * stride;
                lengths[i] = blockLength;
            }
        } else {
            int stride = blockLength + rnd.nextInt(3);
            t = Datatype.createVector(count, blockLength, stride, old.type);
            name = "vector(" + count + ", " + blockLength + ", " + stride + ", " + old + ")";
            for (int i = 0; i < count; i++) {
                d[i] = i * stride * old.extent();
                lengths[i] = blockLength;
            }
        }
        return blocks(t, name, old, d, lengths, old.storage, false);
    }

    /** Indexed blocks, displacements in extents of {@code old} or ({@code bytes}, createHIndexed) in bytes. */
    private static Model indexed(SplittableRandom rnd, Model old, boolean bytes) throws MPIException {
        int n = 1 + rnd.nextInt(3);
        int[] lengths = new int[n];
        int[] displs = new int[n];
        long[] d = new long[n];
        int at = rnd.nextInt(2);
        for (int i = 0; i < n; i++) {
            lengths[i] = rnd.nextInt(3); // zero-length blocks included
            d[i] = at * old.extent();
            displs[i] = bytes ? (int) d[i] : at;
            at += lengths[i] + rnd.nextInt(2);
        }
        Datatype t = bytes ? Datatype.createHIndexed(lengths, displs, old.type)
                : Datatype.createIndexed(lengths, displs, old.type);
        return blocks(t, (bytes ? "hindexed(" : "indexed(") + java.util.Arrays.toString(lengths)
                + ", " + java.util.Arrays.toString(displs) + ", " + old + ")", old, d, lengths, old.storage, false);
    }

    /** A struct of 1..3 blocks of random types over {@code p}, at increasing byte displacements with gaps. */
    private static Model struct(SplittableRandom rnd, Prim p, int depth) throws MPIException {
        int n = 1 + rnd.nextInt(3);
        int[] lengths = new int[n];
        int[] displs = new int[n];
        Datatype[] types = new Datatype[n];
        Model[] members = new Model[n];
        StringBuilder name = new StringBuilder("struct(");
        long at = p.width * (long) rnd.nextInt(2);
        for (int i = 0; i < n; i++) {
            members[i] = depth > 1 && rnd.nextBoolean() ? random(rnd, p, depth - 2) : predefined(p);
            lengths[i] = 1 + rnd.nextInt(2);
            displs[i] = (int) at;
            types[i] = members[i].type;
            at += lengths[i] * members[i].extent() + p.width * (long) rnd.nextInt(2);
            name.append(i == 0 ? "" : ", ").append(lengths[i]).append("x").append(members[i]).append("@").append(displs[i]);
        }
        Datatype t = Datatype.createStruct(lengths, displs, types);
        return general(t, name.append(")").toString(), p, Prim.BYTE, displs, lengths, members, true);
    }

    /**
     * Blocks at decreasing addresses: a vector or hvector of negative stride, or (h)indexed blocks whose displacements
     * fall, some below 0; wrapped in a struct that moves it by its lowest byte, so that every byte lies at or after the
     * origin (a buffer is seen from its first byte: data before it cannot be reached, RandomErrors checks that error).
     * The type-map order then differs from the address order.
     */
    private static Model backwards(SplittableRandom rnd, Model drawn) throws MPIException {
        Model old = drawn.extent() == 0 ? predefined(drawn.prim) : drawn; // strides in extents of something
        int count = 2 + rnd.nextInt(2);
        int[] lengths = new int[count];
        long[] d = new long[count];
        Datatype t;
        String name;
        int how = rnd.nextInt(3);
        if (how < 2) {
            int blockLength = 1 + rnd.nextInt(2);
            java.util.Arrays.fill(lengths, blockLength);
            if (how == 0) {
                int stride = -(blockLength + rnd.nextInt(2));
                t = Datatype.createVector(count, blockLength, stride, old.type);
                name = "vector(" + count + ", " + blockLength + ", " + stride + ", " + old + ")";
                for (int i = 0; i < count; i++) {
                    d[i] = i * stride * old.extent();
                }
            } else {
                long stride = -(blockLength * old.extent() + old.prim.width * (long) rnd.nextInt(2));
                t = Datatype.createHVector(count, blockLength, (int) stride, old.type);
                name = "hvector(" + count + ", " + blockLength + ", " + stride + "B, " + old + ")";
                for (int i = 0; i < count; i++) {
                    d[i] = i * stride;
                }
            }
        } else {
            boolean bytes = rnd.nextBoolean();
            int[] displs = new int[count];
            long at = 0;
            for (int i = 0; i < count; i++) {
                lengths[i] = 1 + rnd.nextInt(2);
                at -= (lengths[i] + rnd.nextInt(2));
                d[i] = at * old.extent() + 2L * old.extent();
                displs[i] = bytes ? Math.toIntExact(d[i]) : Math.toIntExact(d[i] / old.extent());
            }
            t = bytes ? Datatype.createHIndexed(lengths, displs, old.type) : Datatype.createIndexed(lengths, displs, old.type);
            name = (bytes ? "hindexed(" : "indexed(") + java.util.Arrays.toString(lengths) + ", "
                    + java.util.Arrays.toString(displs) + ", " + old + ")";
        }
        Model inner = blocks(t, name, old, d, lengths, old.storage, false);
        long low = 0;
        for (long leaf : inner.leafOffsets) {
            low = Math.min(low, leaf);
        }
        low = Math.min(low, inner.lb);
        long shift = -low + old.prim.width * (long) rnd.nextInt(2);
        shift = (shift + old.alignment - 1) / old.alignment * old.alignment;
        t.commit();
        Datatype moved = Datatype.createStruct(new int[] {1}, new int[] {Math.toIntExact(shift)}, new Datatype[] {t});
        return general(moved, "struct(1x" + name + "@" + shift + ")", old.prim, Prim.BYTE,
                new int[] {Math.toIntExact(shift)}, new int[] {1}, new Model[] {inner}, true);
    }

    /** The primitives a struct of several may mix (each with its own width and alignment). */
    private static final Prim[] MIXABLE = {Prim.BYTE, Prim.CHAR, Prim.SHORT, Prim.INT, Prim.LONG, Prim.FLOAT,
            Prim.DOUBLE, Prim.BOOLEAN, Prim.FLOAT_COMPLEX, Prim.DOUBLE_COMPLEX};

    /**
     * A struct of 2..4 blocks of different primitives (1 or 2 each) at increasing, aligned displacements with gaps,
     * e.g. {int@0, double@8, byte@20}: modelled by its bytes (its leaves are each primitive's bytes), its signature the
     * primitives in order.
     */
    static Model mixed(SplittableRandom rnd) throws MPIException {
        int n = 2 + rnd.nextInt(3);
        Prim[] prims = new Prim[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            prims[i] = MIXABLE[rnd.nextInt(MIXABLE.length)];
            lengths[i] = 1 + rnd.nextInt(2);
        }
        return mixedLayout(rnd, prims, lengths);
    }

    /** Another struct of the same signature as {@code m} (a {@link #mixed} one): new gaps, blocks split or not. */
    static Model relayout(SplittableRandom rnd, Model m) throws MPIException {
        List<Prim> flat = new ArrayList<>();
        for (String part : m.signature.split(" ")) {
            flat.add(Prim.valueOf(part));
        }
        List<Prim> prims = new ArrayList<>();
        List<Integer> lengths = new ArrayList<>();
        for (Prim p : flat) {
            int last = prims.size() - 1;
            if (last >= 0 && prims.get(last) == p && rnd.nextBoolean()) {
                lengths.set(last, lengths.get(last) + 1); // one block of two where the other has two of one
            } else {
                prims.add(p);
                lengths.add(1);
            }
        }
        return mixedLayout(rnd, prims.toArray(new Prim[0]), lengths.stream().mapToInt(Integer::intValue).toArray());
    }

    private static Model mixedLayout(SplittableRandom rnd, Prim[] prims, int[] lengths) throws MPIException {
        int n = prims.length;
        int[] displs = new int[n];
        Datatype[] types = new Datatype[n];
        List<Long> leaves = new ArrayList<>();
        StringBuilder name = new StringBuilder("struct(");
        StringBuilder signature = new StringBuilder();
        long at = rnd.nextInt(2) * 8L;
        int alignment = 1;
        for (int i = 0; i < n; i++) {
            int align = prims[i].storage().width;
            at = (at + rnd.nextInt(2) * (long) align + align - 1) / align * align; // aligned, a gap or not
            displs[i] = Math.toIntExact(at);
            types[i] = prims[i].type();
            alignment = Math.max(alignment, align);
            for (int j = 0; j < lengths[i]; j++) {
                for (int b = 0; b < prims[i].width; b++) {
                    leaves.add(at + (long) j * prims[i].width + b);
                }
                signature.append(signature.length() == 0 ? "" : " ").append(prims[i].name());
            }
            name.append(i == 0 ? "" : ", ").append(lengths[i]).append("x").append(prims[i]).append("@").append(at);
            at += (long) lengths[i] * prims[i].width;
        }
        long lb = displs[0];
        long ub = at;
        if ((ub - lb) % alignment != 0) {
            ub += alignment - (ub - lb) % alignment;
        }
        Datatype t = Datatype.createStruct(lengths, displs, types);
        t.commit();
        return new Model(t, name.append(")").toString(), Prim.BYTE, Prim.BYTE,
                leaves.stream().mapToLong(Long::longValue).toArray(), lb, ub, at, alignment, signature.toString());
    }

    /**
     * A struct of several primitives ({@link #mixed}) resized to a lower bound 1 or 2 alignments below 0 (its data
     * stays at and after the origin) and some padding: the element's extent starts before its origin, so a user op
     * sees elements whose origin is not where their extent begins (decision 0224).
     */
    static Model lowered(SplittableRandom rnd, Model m) throws MPIException {
        long lb = -m.alignment() * (1L + rnd.nextInt(2));
        long extent = m.trueUb() - lb + m.alignment() * (long) rnd.nextInt(2);
        Datatype t = Datatype.createResized(m.type(), (int) lb, (int) extent);
        t.commit();
        return new Model(t, "resized(" + m + ", lb " + lb + ", extent " + extent + ")", m.prim(), m.storage(),
                m.leafOffsets(), lb, lb + extent, m.trueUb(), m.alignment(), m.signature());
    }

    /** The same data with a new lower bound (0 or one width below) and an extent of at least its true upper bound. */
    private static Model resized(SplittableRandom rnd, Model old) throws MPIException {
        long lb = -old.prim.width * (long) rnd.nextInt(2);
        long extent = old.trueUb - lb + old.prim.width * (long) rnd.nextInt(3);
        Datatype t = Datatype.createResized(old.type, (int) lb, (int) extent);
        return new Model(t, "resized(" + old + ", lb " + lb + ", extent " + extent + ")", old.prim, old.storage,
                old.leafOffsets, lb, lb + extent, old.trueUb, old.alignment, old.signature);
    }

    private static Model blocks(Datatype t, String name, Model old, long[] d, int[] lengths, Prim storage,
                                boolean align) {
        Model[] olds = new Model[d.length];
        java.util.Arrays.fill(olds, old);
        int[] displs = new int[d.length];
        for (int i = 0; i < d.length; i++) {
            displs[i] = Math.toIntExact(d[i]);
        }
        return general(t, name, old.prim, storage, displs, lengths, olds, align);
    }

    /** MPI's type map of block i = lengths[i] elements of members[i] at byte displs[i]; bounds the hull of each. */
    private static Model general(Datatype t, String name, Prim p, Prim storage, int[] displs, int[] lengths,
                                 Model[] members, boolean alignExtent) {
        List<Long> leaves = new ArrayList<>();
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        long trueUb = 0;
        int alignment = 1;
        for (int i = 0; i < displs.length; i++) {
            Model m = members[i];
            if (lengths[i] == 0) {
                continue;
            }
            for (int j = 0; j < lengths[i]; j++) {
                long origin = displs[i] + j * m.extent();
                for (long leaf : m.leafOffsets) {
                    leaves.add(origin + leaf);
                    trueUb = Math.max(trueUb, origin + leaf + p.width);
                }
            }
            lb = Math.min(lb, displs[i] + m.lb);
            ub = Math.max(ub, displs[i] + (lengths[i] - 1) * m.extent() + m.ub);
            alignment = Math.max(alignment, m.alignment);
        }
        if (lb == Long.MAX_VALUE) {
            lb = 0;
            ub = 0;
        }
        if (alignExtent && (ub - lb) % alignment != 0) {
            ub += alignment - (ub - lb) % alignment;
        }
        long[] offsets = leaves.stream().mapToLong(Long::longValue).toArray();
        return new Model(t, name, p, storage, offsets, lb, ub, trueUb, alignment);
    }
}
