package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The random call test's buffers. Every buffer's first contents are a pure function of (seed, step, rank, role), so
 * each rank can rebuild any other rank's input for its reference. A buffer is a heap array of the type's storage, a
 * heap slice of one ({@code MPI.slice}, guard elements in front) or a direct buffer (a slice of one, guard bytes in
 * front); guard bytes follow it too. {@link Buf#bytes} sees the whole storage, guards included, so the checker can
 * compare every byte.
 */
final class RandomBuffers {
    private RandomBuffers() {
    }

    enum Kind { ARRAY, SLICE, DIRECT }

    /** splitmix64: the test's only source of data. */
    static long mix(long... parts) {
        long h = 0x9E3779B97F4A7C15L;
        for (long p : parts) {
            h ^= p;
            h += 0x9E3779B97F4A7C15L;
            h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
            h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
            h ^= h >>> 31;
        }
        return h;
    }

    /** A buffer: the object passed to MPI, its storage's bytes, where element 0's origin lies in them. */
    static final class Buf {
        final Object passed;
        /** The storage's bytes; null for a {@code boolean[]} ({@link #flags}), which no segment can view. */
        final MemorySegment bytes;
        final long origin;
        final String describe;
        final boolean[] flags;

        Buf(Object passed, MemorySegment bytes, long origin, String describe) {
            this(passed, bytes, origin, describe, null);
        }

        Buf(Object passed, MemorySegment bytes, long origin, String describe, boolean[] flags) {
            this.passed = passed;
            this.bytes = bytes;
            this.origin = origin;
            this.describe = describe;
            this.flags = flags;
        }

        byte[] now() {
            if (flags != null) {
                byte[] b = new byte[flags.length];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) (flags[i] ? 1 : 0);
                }
                return b;
            }
            return bytes.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }

        /** Overwrites the whole storage, guards included, with {@code image}. */
        void write(byte[] image) {
            if (flags != null) {
                for (int i = 0; i < flags.length; i++) {
                    flags[i] = image[i] != 0;
                }
            } else {
                bytes.copyFrom(MemorySegment.ofArray(image));
            }
        }
    }

    /** Where a buffer's bytes lie: guard before the origin, the span, guard after, rounded to the storage width. */
    record Layout(int guardBefore, int length) {
    }

    static Layout layout(long seed, long step, int rank, int role, RandomTypes.Prim storage, long span, Kind kind) {
        int w = storage.width;
        int guard = kind == Kind.ARRAY ? 0 : w * (1 + (int) Math.floorMod(mix(seed, step, rank, role, 1), 3));
        long after = w * (1 + Math.floorMod(mix(seed, step, rank, role, 2), 3));
        long length = guard + span + after;
        length = (length + w - 1) / w * w;
        return new Layout(guard, Math.toIntExact(length));
    }

    /**
     * The kind of rank {@code rank}'s buffer {@code role} in this step; a {@link java.nio.Buffer} (direct or a heap
     * slice, which railcoll-mpi's i-forms take too: docs/mpi.md) where {@code buffersOnly}.
     */
    static Kind kind(long seed, long step, int rank, int role, boolean buffersOnly, RandomTypes.Prim storage) {
        Kind k = kind(seed, step, rank, role, buffersOnly);
        return storage == RandomTypes.Prim.BOOLEAN && k == Kind.SLICE ? Kind.DIRECT : k; // no slice of a boolean[]
    }

    static Kind kind(long seed, long step, int rank, int role, boolean buffersOnly) {
        if (buffersOnly) {
            return (mix(seed, step, rank, role, 3) & 1) == 0 ? Kind.DIRECT : Kind.SLICE;
        }
        return Kind.values()[(int) Math.floorMod(mix(seed, step, rank, role, 3), 3)];
    }

    /** The first contents of a buffer: random bytes everywhere (guards and gaps included). */
    static byte[] image(long seed, long step, int rank, int role, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i += 8) {
            long v = mix(seed, step, rank, role, 4, i);
            for (int j = 0; j < 8 && i + j < length; j++) {
                b[i + j] = (byte) (v >>> (8 * j));
            }
        }
        return b;
    }

    /**
     * As {@link #image}, for a type over {@code prim}: 0 and 1 only for BOOLEAN, what a {@code boolean[]} holds (a
     * struct of BOOLEANs lives in a {@code byte[]} but its leaves may be received into a {@code boolean[]}).
     */
    static byte[] image(long seed, long step, int rank, int role, int length, RandomTypes.Prim prim) {
        byte[] b = image(seed, step, rank, role, length);
        if (prim == RandomTypes.Prim.BOOLEAN) {
            for (int i = 0; i < b.length; i++) {
                b[i] &= 1;
            }
        }
        return b;
    }

    /** Writes reduction inputs over the leaves of {@code count} elements: numbers whose every fold is exact. */
    static void numbers(byte[] image, long origin, RandomTypes.Model m, long count, long seed, long step, int rank,
                        int role) {
        ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.nativeOrder());
        if (m.signature() != null) { // a struct of several primitives: each field a number of its own primitive
            RandomReference.Fields f = RandomReference.fields(m);
            for (long e = 0; e < count; e++) {
                for (int l = 0; l < f.prims().length; l++) {
                    int at = Math.toIntExact(origin + e * m.extent() + f.offsets()[l]);
                    long v = mix(seed, step, rank, role, 5, e, l);
                    number(b, at, f.prims()[l], (v & 7) == 0 ? 0 : v);
                }
            }
            return;
        }
        for (long e = 0; e < count; e++) {
            for (int l = 0; l < m.leaves(); l++) {
                int at = Math.toIntExact(origin + e * m.extent() + m.leafOffsets()[l]);
                long v = mix(seed, step, rank, role, 5, e, l);
                if ((v & 7) == 0) {
                    v = 0; // zeros make user ops such as "first non-zero" take their order-dependent branch
                }
                number(b, at, m.prim(), v);
            }
        }
    }

    /** One reduction input of primitive {@code p} at byte {@code at}, drawn from {@code v}. */
    private static void number(ByteBuffer b, int at, RandomTypes.Prim p, long v) {
        switch (p) {
            case BOOLEAN -> b.put(at, (byte) (v >>> 8 & 1));
            // products of up to 8 ranks stay exact: |re|, |im| <= 2 (float), 3 (double); |z|^8 <= 18^4
            case FLOAT_COMPLEX -> {
                b.putFloat(at, (float) Math.floorMod(v >> 8, 5) - 2);
                b.putFloat(at + 4, (float) Math.floorMod(v >> 16, 5) - 2);
            }
            case DOUBLE_COMPLEX -> {
                b.putDouble(at, (double) Math.floorMod(v >> 8, 7) - 3);
                b.putDouble(at + 8, (double) Math.floorMod(v >> 16, 7) - 3);
            }
            case BYTE -> b.put(at, (byte) v);
            case CHAR -> b.putChar(at, (char) v);
            case SHORT -> b.putShort(at, (short) v);
            case INT -> b.putInt(at, (int) v);
            case LONG -> b.putLong(at, v);
            // sums and products of up to 8 ranks stay exact: 7^8 < 2^24, 89^8 < 2^53
            case FLOAT -> b.putFloat(at, (float) (v % 8));
            case DOUBLE -> b.putDouble(at, (double) (v % 90));
        }
    }

    /** A buffer of {@code kind} holding {@code image} (whose origin is at {@code guardBefore}). */
    static Buf make(byte[] image, int guardBefore, RandomTypes.Prim storage, Kind kind) {
        int w = storage.width;
        if (kind == Kind.DIRECT) {
            ByteBuffer whole = MPI.newByteBuffer(image.length);
            whole.put(0, image);
            MemorySegment seg = MemorySegment.ofBuffer(whole);
            return new Buf(MPI.slice(whole, guardBefore), seg, guardBefore, "direct+" + guardBefore + "B");
        }
        if (storage == RandomTypes.Prim.BOOLEAN) {
            boolean[] flags = new boolean[image.length];
            for (int i = 0; i < flags.length; i++) {
                flags[i] = image[i] != 0;
            }
            return new Buf(flags, null, 0, "boolean[]", flags);
        }
        Object array = switch (storage) {
            case BOOLEAN, FLOAT_COMPLEX, DOUBLE_COMPLEX -> throw new IllegalArgumentException("storage " + storage);
            case BYTE -> image.clone();
            case CHAR -> new char[image.length / w];
            case SHORT -> new short[image.length / w];
            case INT -> new int[image.length / w];
            case LONG -> new long[image.length / w];
            case FLOAT -> new float[image.length / w];
            case DOUBLE -> new double[image.length / w];
        };
        MemorySegment seg = switch (storage) {
            case BOOLEAN, FLOAT_COMPLEX, DOUBLE_COMPLEX -> throw new IllegalArgumentException("storage " + storage);
            case BYTE -> MemorySegment.ofArray((byte[]) array);
            case CHAR -> MemorySegment.ofArray((char[]) array);
            case SHORT -> MemorySegment.ofArray((short[]) array);
            case INT -> MemorySegment.ofArray((int[]) array);
            case LONG -> MemorySegment.ofArray((long[]) array);
            case FLOAT -> MemorySegment.ofArray((float[]) array);
            case DOUBLE -> MemorySegment.ofArray((double[]) array);
        };
        seg.copyFrom(MemorySegment.ofArray(image));
        if (kind == Kind.ARRAY) {
            return new Buf(array, seg, 0, storage.name().toLowerCase() + "[]");
        }
        int off = guardBefore / w;
        Object slice = switch (storage) {
            case BOOLEAN, FLOAT_COMPLEX, DOUBLE_COMPLEX -> throw new IllegalArgumentException("storage " + storage);
            case BYTE -> MPI.slice((byte[]) array, off);
            case CHAR -> MPI.slice((char[]) array, off);
            case SHORT -> MPI.slice((short[]) array, off);
            case INT -> MPI.slice((int[]) array, off);
            case LONG -> MPI.slice((long[]) array, off);
            case FLOAT -> MPI.slice((float[]) array, off);
            case DOUBLE -> MPI.slice((double[]) array, off);
        };
        return new Buf(slice, seg, guardBefore, "slice(" + storage.name().toLowerCase() + "[], " + off + ")");
    }
}
