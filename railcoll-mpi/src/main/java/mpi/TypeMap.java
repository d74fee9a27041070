package mpi;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The layout of one element of a datatype, in bytes: a list of blocks, each {@code count} consecutive
 * {@link Primitive}s at a displacement from the element's origin, and the bounds MPI defines on them (lower and
 * upper bound, whose difference is the extent; true bounds, which ignore resizing; size, the bytes of data MPI
 * counts). Element {@code i} of a buffer has its origin at {@code i * extent}. Blocks that follow each other in memory
 * are merged as they are appended, so contiguous types have one block whatever their length. Immutable once built.
 *
 * <p>{@link #pack} and {@link #unpack} move {@code count} elements between a buffer laid out by this map and
 * contiguous bytes ({@link #packedBytes} per element, the data railcoll moves): only the blocks are touched, so the
 * gaps of a receive buffer keep their contents.
 */
final class TypeMap {
    private final long[] offsets;
    private final long[] counts;
    private final Primitive[] primitives;
    /** Runs of bytes regardless of primitive, merged: what packing copies. */
    private final long[] runOffsets;
    private final long[] runLengths;
    final long lb;
    final long ub;
    final long trueLb;
    final long trueUb;
    final long size;
    final long packedBytes;
    /** The largest alignment of any primitive, what a struct's extent is rounded to. */
    final int alignment;

    /**
     * How many predefined elements {@code bytes} packed bytes of this type hold (whole elements of the type, then the
     * leaves of a partial one in order), or -1 if they end inside a leaf: MPI_Get_elements.
     */
    long basicElements(long bytes) {
        if (packedBytes == 0) {
            return 0;
        }
        long perElement = 0;
        for (long c : counts) {
            perElement += c;
        }
        long n = bytes / packedBytes * perElement;
        long rest = bytes % packedBytes;
        for (int i = 0; i < primitives.length && rest > 0; i++) {
            long leaves = Math.min(counts[i], rest / primitives[i].movedBytes);
            n += leaves;
            rest -= leaves * primitives[i].movedBytes;
            if (leaves < counts[i]) {
                break;
            }
        }
        return rest == 0 ? n : -1;
    }

    private TypeMap(Builder b, long lb, long ub) {
        this.offsets = Arrays.copyOf(b.offsets, b.n);
        this.counts = Arrays.copyOf(b.counts, b.n);
        this.primitives = Arrays.copyOf(b.primitives, b.n);
        this.lb = lb;
        this.ub = ub;
        long tl = Long.MAX_VALUE;
        long tu = Long.MIN_VALUE;
        long s = 0;
        long packed = 0;
        int align = 1;
        long[] ro = new long[b.n];
        long[] rl = new long[b.n];
        int runs = 0;
        for (int i = 0; i < b.n; i++) {
            Primitive p = primitives[i];
            long bytes = Math.multiplyExact(counts[i], p.movedBytes);
            tl = Math.min(tl, offsets[i]);
            tu = Math.max(tu, offsets[i] + bytes - p.movedBytes + p.trueUb);
            s += counts[i] * p.mpiSize;
            packed += bytes;
            align = Math.max(align, p.alignment);
            if (runs > 0 && ro[runs - 1] + rl[runs - 1] == offsets[i]) {
                rl[runs - 1] += bytes;
            } else {
                ro[runs] = offsets[i];
                rl[runs] = bytes;
                runs++;
            }
        }
        this.trueLb = b.n == 0 ? 0 : tl;
        this.trueUb = b.n == 0 ? 0 : tu;
        this.size = s;
        this.packedBytes = packed;
        this.alignment = align;
        this.runOffsets = Arrays.copyOf(ro, runs);
        this.runLengths = Arrays.copyOf(rl, runs);
    }

    /** One predefined element. */
    static TypeMap of(Primitive p) {
        return new Builder().append(0, p, 1).build(0, p.movedBytes);
    }

    long extent() {
        return ub - lb;
    }

    /** The one primitive every block holds, or null when there are several (or none). */
    Primitive uniformPrimitive() {
        if (primitives.length == 0) {
            return null;
        }
        for (Primitive p : primitives) {
            if (p != primitives[0]) {
                return null;
            }
        }
        return primitives[0];
    }

    /** Primitives in one element. */
    long primitiveCount() {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /** Whether elements side by side are one run of bytes from the origin: packing is then a plain copy. */
    boolean contiguous() {
        return runOffsets.length == 1 && runOffsets[0] == 0 && runLengths[0] == extent()
                || runOffsets.length == 0;
    }

    /** The bytes {@code count} elements touch from the buffer start: [first, end). */
    long firstByte(long count) {
        return count == 0 ? 0 : trueLb + Math.min(0, (count - 1) * extent());
    }

    long endByte(long count) {
        return count == 0 ? 0 : trueUb + Math.max(0, (count - 1) * extent());
    }

    /** Copies {@code count} elements of {@code from} (origin of element 0 at {@code fromOffset}) to {@code to}. */
    void pack(MemorySegment from, long fromOffset, long count, MemorySegment to, long toOffset) {
        copy(from, fromOffset, count, to, toOffset, true);
    }

    /** The reverse of {@link #pack}: writes only the blocks of each element, never the gaps. */
    void unpack(MemorySegment from, long fromOffset, long count, MemorySegment to, long toOffset) {
        copy(from, fromOffset, count, to, toOffset, false);
    }

    /**
     * Unpacks the first {@code bytes} packed bytes of one element (fewer than {@link #packedBytes}): its leading runs in
     * type-map order, the last in part. What a message that ends inside an element writes (MPI 3.1 §3.2.4: only the
     * locations of the received data are modified); {@code bytes} end between two primitives (the signatures match).
     */
    void unpackLeading(MemorySegment from, long fromOffset, long bytes, MemorySegment to, long toOffset) {
        long left = bytes;
        long packed = fromOffset;
        for (int r = 0; r < runOffsets.length && left > 0; r++) {
            long n = Math.min(left, runLengths[r]);
            MemorySegment.copy(from, packed, to, toOffset + runOffsets[r], n);
            packed += n;
            left -= n;
        }
    }

    /** Between the layout ({@code from} when packing, {@code to} when unpacking) and packed bytes, run by run. */
    private void copy(MemorySegment from, long fromOffset, long count, MemorySegment to, long toOffset, boolean packing) {
        if (count == 0) {
            return; // a block of no elements may sit at any displacement, past the buffer's end too (decision 0216)
        }
        if (contiguous()) {
            MemorySegment.copy(from, fromOffset, to, toOffset, count * packedBytes);
            return;
        }
        long packed = packing ? toOffset : fromOffset;
        long extent = extent();
        for (long e = 0; e < count; e++) {
            long origin = (packing ? fromOffset : toOffset) + e * extent;
            for (int r = 0; r < runOffsets.length; r++) {
                if (packing) {
                    MemorySegment.copy(from, origin + runOffsets[r], to, packed, runLengths[r]);
                } else {
                    MemorySegment.copy(from, packed, to, origin + runOffsets[r], runLengths[r]);
                }
                packed += runLengths[r];
            }
        }
    }

    /**
     * {@code copies} of {@code old} at the byte displacements {@code displacements}, each {@code blockLengths[i]}
     * consecutive elements of {@code old}: the shape every constructor but {@code createStruct} and
     * {@code createResized} reduces to. Bounds follow MPI: the hull of every element's [lb, ub).
     */
    static TypeMap blocks(long[] displacements, int[] blockLengths, TypeMap old) {
        TypeMap[] olds = new TypeMap[displacements.length];
        Arrays.fill(olds, old);
        return struct(displacements, blockLengths, olds, false);
    }

    /**
     * The general constructor: block i holds {@code blockLengths[i]} elements of {@code types[i]} from byte
     * {@code displacements[i]}. With {@code alignExtent} (createStruct) the extent is rounded up to the largest
     * alignment of the members, as C lays out an array of structs.
     */
    static TypeMap struct(long[] displacements, int[] blockLengths, TypeMap[] types, boolean alignExtent) {
        Builder b = new Builder();
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        int align = 1;
        for (int i = 0; i < displacements.length; i++) {
            TypeMap t = types[i];
            int n = blockLengths[i];
            if (n == 0) {
                continue;
            }
            long ext = t.extent();
            for (int j = 0; j < n; j++) {
                long origin = displacements[i] + j * ext;
                for (int k = 0; k < t.offsets.length; k++) {
                    b.append(origin + t.offsets[k], t.primitives[k], t.counts[k]);
                }
            }
            lb = Math.min(lb, displacements[i] + t.lb + Math.min(0, (n - 1) * ext));
            ub = Math.max(ub, displacements[i] + t.ub + Math.max(0, (n - 1) * ext));
            align = Math.max(align, t.alignment);
        }
        if (lb == Long.MAX_VALUE) {
            lb = 0;
            ub = 0;
        }
        if (alignExtent && (ub - lb) % align != 0) {
            ub += align - (ub - lb) % align;
        }
        return b.build(lb, ub);
    }

    /** The same blocks with bounds [lb, lb + extent). */
    TypeMap resized(long newLb, long newExtent) {
        Builder b = new Builder();
        for (int k = 0; k < offsets.length; k++) {
            b.append(offsets[k], primitives[k], counts[k]);
        }
        return b.build(newLb, newLb + newExtent);
    }

    private static final class Builder {
        long[] offsets = new long[4];
        long[] counts = new long[4];
        Primitive[] primitives = new Primitive[4];
        int n;

        Builder append(long offset, Primitive p, long count) {
            if (n > 0 && primitives[n - 1] == p && offsets[n - 1] + counts[n - 1] * p.movedBytes == offset) {
                counts[n - 1] += count;
                return this;
            }
            if (n == offsets.length) {
                offsets = Arrays.copyOf(offsets, 2 * n);
                counts = Arrays.copyOf(counts, 2 * n);
                primitives = Arrays.copyOf(primitives, 2 * n);
            }
            offsets[n] = offset;
            counts[n] = count;
            primitives[n] = p;
            n++;
            return this;
        }

        TypeMap build(long lb, long ub) {
            return new TypeMap(this, lb, ub);
        }
    }
}
