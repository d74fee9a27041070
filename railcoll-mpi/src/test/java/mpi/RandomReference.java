package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The random call test's sequential reference: what MPI says a call does to the bytes of a buffer, in the test's
 * type model ({@link RandomTypes.Model}). Expected contents are ints per byte, -1 where MPI leaves a byte undefined.
 */
final class RandomReference {
    private RandomReference() {
    }

    static final int UNDEFINED = -1;

    /** The leaves of elements [first, first + count) of a buffer, packed in type-map order. */
    static byte[] pack(byte[] image, long origin, RandomTypes.Model m, long first, long count) {
        int w = m.prim().width;
        byte[] out = new byte[Math.toIntExact(count * m.leaves() * w)];
        int k = 0;
        for (long e = first; e < first + count; e++) {
            for (long leaf : m.leafOffsets()) {
                System.arraycopy(image, Math.toIntExact(origin + e * m.extent() + leaf), out, k, w);
                k += w;
            }
        }
        return out;
    }

    /** Writes packed leaves {@code data} (from {@code at}) into elements [first, first + count) of expected. */
    static void unpack(int[] expected, long origin, RandomTypes.Model m, long first, long count, byte[] data, int at) {
        int w = m.prim().width;
        int k = at;
        for (long e = first; e < first + count; e++) {
            for (long leaf : m.leafOffsets()) {
                int to = Math.toIntExact(origin + e * m.extent() + leaf);
                for (int j = 0; j < w; j++) {
                    expected[to + j] = data[k + j] & 0xFF;
                }
                k += w;
            }
        }
    }

    /** Marks the leaves of elements [first, first + count) undefined. */
    static void undefined(int[] expected, long origin, RandomTypes.Model m, long first, long count) {
        int w = m.prim().width;
        for (long e = first; e < first + count; e++) {
            for (long leaf : m.leafOffsets()) {
                int to = Math.toIntExact(origin + e * m.extent() + leaf);
                java.util.Arrays.fill(expected, to, to + w, UNDEFINED);
            }
        }
    }

    static int[] expectedOf(byte[] image) {
        int[] e = new int[image.length];
        for (int i = 0; i < image.length; i++) {
            e[i] = image[i] & 0xFF;
        }
        return e;
    }

    /** The reductions the test draws, with the primitives they are defined on. */
    enum Fold {
        SUM, PROD, MIN, MAX, BAND, BOR, BXOR, LAND, LOR, LXOR, USER_SUM, USER_FIRST_NON_ZERO, USER_BUFFER_FIRST_NON_ZERO,
        /** Field by field over a struct of several primitives: SUM of numbers, LOR of BOOLEANs (zero-copy overload). */
        USER_STRUCT_SUM,
        /** Field by field over a struct of several primitives: the first non-zero field in rank order (byte[] arrays). */
        USER_STRUCT_FIRST_NON_ZERO;

        boolean definedOn(RandomTypes.Model m) {
            boolean struct = this == USER_STRUCT_SUM || this == USER_STRUCT_FIRST_NON_ZERO;
            if (m.signature() != null || struct) { // only user ops reduce a struct of several primitives (MPI 5.9.2)
                return m.signature() != null && struct;
            }
            RandomTypes.Prim p = m.prim();
            if (p.complex()) {
                return this == SUM || this == PROD; // MPI 3.1 §5.9.2: the complex types have SUM and PROD only
            }
            if (p == RandomTypes.Prim.BOOLEAN) { // results stay 0 or 1, what a boolean[] holds
                return this != SUM && this != PROD && this != USER_SUM && this != USER_FIRST_NON_ZERO
                        && this != USER_BUFFER_FIRST_NON_ZERO;
            }
            return switch (this) {
                case SUM, PROD, MIN, MAX -> true;
                case BAND, BOR, BXOR, LAND, LOR, LXOR -> !p.floating();
                case USER_SUM, USER_FIRST_NON_ZERO -> m.storage() == RandomTypes.Prim.INT;
                case USER_BUFFER_FIRST_NON_ZERO -> m.storage() == RandomTypes.Prim.DOUBLE;
                default -> false;
            };
        }

        boolean commutative() {
            return this != USER_FIRST_NON_ZERO && this != USER_BUFFER_FIRST_NON_ZERO && this != USER_STRUCT_FIRST_NON_ZERO;
        }

        Op op() {
            return switch (this) {
                case SUM -> MPI.SUM;
                case PROD -> MPI.PROD;
                case MIN -> MPI.MIN;
                case MAX -> MPI.MAX;
                case BAND -> MPI.BAND;
                case BOR -> MPI.BOR;
                case BXOR -> MPI.BXOR;
                case LAND -> MPI.LAND;
                case LOR -> MPI.LOR;
                case LXOR -> MPI.LXOR;
                case USER_SUM -> USER_SUM_OP;
                case USER_FIRST_NON_ZERO -> USER_FIRST_OP;
                case USER_BUFFER_FIRST_NON_ZERO -> USER_BUFFER_FIRST_OP;
                case USER_STRUCT_SUM -> STRUCT_SUM_OP;
                case USER_STRUCT_FIRST_NON_ZERO -> STRUCT_FIRST_OP;
            };
        }

        /** {@code a op b} on one leaf of primitive {@code p}, {@code a} the lower ranks' contribution. */
        byte[] apply(RandomTypes.Prim p, byte[] a, byte[] b) {
            ByteBuffer x = ByteBuffer.wrap(a).order(ByteOrder.nativeOrder());
            ByteBuffer y = ByteBuffer.wrap(b).order(ByteOrder.nativeOrder());
            ByteBuffer r = ByteBuffer.allocate(p.width).order(ByteOrder.nativeOrder());
            if (p.complex()) {
                boolean d = p == RandomTypes.Prim.DOUBLE_COMPLEX;
                int half = p.width / 2;
                double ur = d ? x.getDouble(0) : x.getFloat(0);
                double ui = d ? x.getDouble(half) : x.getFloat(half);
                double vr = d ? y.getDouble(0) : y.getFloat(0);
                double vi = d ? y.getDouble(half) : y.getFloat(half);
                double re = this == SUM ? ur + vr : ur * vr - ui * vi;
                double im = this == SUM ? ui + vi : ur * vi + ui * vr;
                if (this != SUM && this != PROD) {
                    throw new IllegalStateException(this + " on " + p);
                }
                if (d) {
                    r.putDouble(0, re).putDouble(half, im);
                } else {
                    r.putFloat(0, (float) re).putFloat(half, (float) im);
                }
                return r.array();
            }
            if (p.floating()) {
                boolean d = p == RandomTypes.Prim.DOUBLE;
                double u = d ? x.getDouble(0) : x.getFloat(0);
                double v = d ? y.getDouble(0) : y.getFloat(0);
                double out = switch (this) {
                    case SUM -> u + v;
                    case PROD -> u * v;
                    case MIN -> Math.min(u, v);
                    case MAX -> Math.max(u, v);
                    case USER_BUFFER_FIRST_NON_ZERO -> u != 0 ? u : v;
                    default -> throw new IllegalStateException(this + " on " + p);
                };
                if (d) {
                    r.putDouble(0, out);
                } else {
                    r.putFloat(0, (float) out);
                }
                return r.array();
            }
            long u = get(x, p);
            long v = get(y, p);
            long mask = p.width == 1 ? 0xFF : 0xFFFF; // BYTE, BOOLEAN and CHAR are unsigned under MIN and MAX
            long unsignedU = p.unsigned() ? u & mask : u;
            long unsignedV = p.unsigned() ? v & mask : v;
            long out = switch (this) {
                case SUM, USER_SUM -> u + v;
                case PROD -> u * v;
                case MIN -> unsignedU <= unsignedV ? u : v;
                case MAX -> unsignedU >= unsignedV ? u : v;
                case BAND -> u & v;
                case BOR -> u | v;
                case BXOR -> u ^ v;
                case LAND -> u != 0 && v != 0 ? 1 : 0;
                case LOR -> u != 0 || v != 0 ? 1 : 0;
                case LXOR -> (u != 0) != (v != 0) ? 1 : 0;
                case USER_FIRST_NON_ZERO -> u != 0 ? u : v;
                default -> throw new IllegalStateException(this + " on " + p);
            };
            switch (p) {
                case BYTE, BOOLEAN -> r.put(0, (byte) out);
                case CHAR -> r.putChar(0, (char) out);
                case SHORT -> r.putShort(0, (short) out);
                case INT -> r.putInt(0, (int) out);
                default -> r.putLong(0, out);
            }
            return r.array();
        }

        private static long get(ByteBuffer b, RandomTypes.Prim p) {
            return switch (p) {
                case BYTE, BOOLEAN -> b.get(0);
                case CHAR -> b.getChar(0);
                case SHORT -> b.getShort(0);
                case INT -> b.getInt(0);
                default -> b.getLong(0);
            };
        }
    }

    /**
     * One field of a struct of several primitives under a struct fold: {@code a op b}, {@code a} the lower ranks'.
     * SUM: numbers summed (BOOLEAN by LOR, so it stays 0 or 1); FIRST_NON_ZERO: {@code a} unless all its bytes are 0.
     */
    static byte[] field(Fold f, RandomTypes.Prim p, byte[] a, byte[] b) {
        if (f == Fold.USER_STRUCT_FIRST_NON_ZERO) {
            for (byte x : a) {
                if (x != 0) {
                    return a.clone();
                }
            }
            return b.clone();
        }
        return (p == RandomTypes.Prim.BOOLEAN ? Fold.LOR : Fold.SUM).apply(p, a, b);
    }

    /** The fields of a struct of several primitives: each field's primitive and byte offset from the origin. */
    record Fields(RandomTypes.Prim[] prims, long[] offsets, int packedBytes) {
    }

    /** {@code m}'s fields, from its signature (the primitives in type-map order) and its leaves (their bytes). */
    static Fields fields(RandomTypes.Model m) {
        String[] sig = m.signature().split(" ");
        RandomTypes.Prim[] prims = new RandomTypes.Prim[sig.length];
        long[] offsets = new long[sig.length];
        int leaf = 0;
        for (int i = 0; i < sig.length; i++) {
            prims[i] = RandomTypes.Prim.valueOf(sig[i]);
            offsets[i] = m.leafOffsets()[leaf];
            leaf += prims[i].width;
        }
        return new Fields(prims, offsets, leaf);
    }

    /** As {@link #fold(Fold, RandomTypes.Prim, byte[][], int, int)}, for any type the test reduces. */
    static byte[] fold(Fold f, RandomTypes.Model m, byte[][] inputs, int from, int to) {
        if (m.signature() == null) {
            return fold(f, m.prim(), inputs, from, to);
        }
        Fields fs = fields(m);
        byte[] acc = inputs[from].clone();
        for (int r = from + 1; r < to; r++) {
            int i = 0;
            while (i < acc.length) {
                for (RandomTypes.Prim p : fs.prims()) {
                    byte[] a = java.util.Arrays.copyOfRange(acc, i, i + p.width);
                    byte[] b = java.util.Arrays.copyOfRange(inputs[r], i, i + p.width);
                    System.arraycopy(field(f, p, a, b), 0, acc, i, p.width);
                    i += p.width;
                }
            }
        }
        return acc;
    }

    /**
     * The layouts of the structs the struct ops reduce, by datatype object (a user function gets the very datatype of
     * the call, spec U2, and finds its fields here): registered by the call that draws them.
     */
    private static final java.util.Map<Datatype, Layout> LAYOUTS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private record Layout(Fields fields, long extent) {
    }

    /** Makes {@code m}'s fields known to the struct ops. */
    static void register(RandomTypes.Model m) {
        LAYOUTS.put(m.type(), new Layout(fields(m), m.extent()));
    }

    private static Layout layout(Datatype type) {
        Layout l = LAYOUTS.get(type);
        if (l == null) {
            throw new IllegalStateException("a struct op called with a datatype the test did not register: " + type);
        }
        return l;
    }

    /**
     * Field-wise sum over a struct of several primitives, through the zero-copy {@code ByteBuffer} overload: element
     * e's fields at {@code e * extent + offset} from the buffer's start, which is the elements' origin.
     */
    static final Op STRUCT_SUM_OP = new Op(new UserFunction() {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
            Layout l = layout(type);
            for (int e = 0; e < count; e++) {
                for (int j = 0; j < l.fields().prims().length; j++) {
                    RandomTypes.Prim p = l.fields().prims()[j];
                    int at = Math.toIntExact(e * l.extent() + l.fields().offsets()[j]);
                    byte[] a = new byte[p.width];
                    byte[] b = new byte[p.width];
                    in.get(at, a);
                    inOut.get(at, b);
                    inOut.put(at, field(Fold.USER_STRUCT_SUM, p, a, b));
                }
            }
        }
    }, true);

    /** Field-wise "first non-zero in rank order" over a struct, in the byte[] arrays of the default overload. */
    static final Op STRUCT_FIRST_OP = new Op(new UserFunction() {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            Layout l = layout(type);
            byte[] x = (byte[]) in;
            byte[] y = (byte[]) inOut;
            for (int e = 0; e < count; e++) {
                for (int j = 0; j < l.fields().prims().length; j++) {
                    int w = l.fields().prims()[j].width;
                    int at = Math.toIntExact(e * l.extent() + l.fields().offsets()[j]);
                    boolean zero = true;
                    for (int k = 0; k < w; k++) {
                        zero &= x[at + k] == 0;
                    }
                    if (!zero) {
                        System.arraycopy(x, at, y, at, w);
                    }
                }
            }
        }
    }, false);

    /** Folds packed leaves of every rank in rank order: {@code inputs[0] op inputs[1] op ...}. */
    static byte[] fold(Fold f, RandomTypes.Prim p, byte[][] inputs, int from, int to) {
        byte[] acc = inputs[from].clone();
        int w = p.width;
        for (int r = from + 1; r < to; r++) {
            for (int i = 0; i < acc.length; i += w) {
                byte[] a = java.util.Arrays.copyOfRange(acc, i, i + w);
                byte[] b = java.util.Arrays.copyOfRange(inputs[r], i, i + w);
                System.arraycopy(f.apply(p, a, b), 0, acc, i, w);
            }
        }
        return acc;
    }

    /** Element-wise sum of ints, written as the bindings' users write it (arrays of the type's storage). */
    static final Op USER_SUM_OP = new Op(new UserFunction() {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            int[] a = (int[]) in;
            int[] b = (int[]) inOut;
            for (int i = 0; i < b.length; i++) {
                b[i] = a[i] + b[i];
            }
        }
    }, true);

    /** The first non-zero in rank order: associative, not commutative. */
    static final Op USER_FIRST_OP = new Op(new UserFunction() {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            int[] a = (int[]) in;
            int[] b = (int[]) inOut;
            for (int i = 0; i < b.length; i++) {
                b[i] = a[i] != 0 ? a[i] : b[i];
            }
        }
    }, false);

    /** The first non-zero double in rank order, through the zero-copy {@code ByteBuffer} overload. */
    static final Op USER_BUFFER_FIRST_OP = new Op(new UserFunction() {
        @Override
        public void call(java.nio.ByteBuffer in, java.nio.ByteBuffer inOut, int count, Datatype type) {
            for (int i = 0; i + 8 <= inOut.capacity(); i += 8) {
                double a = in.getDouble(i);
                if (a != 0) {
                    inOut.putDouble(i, a);
                }
            }
        }
    }, false);
}
