package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.Request;
import io.railcoll.reduce.ElementType;
import io.railcoll.schedule.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One call of the random sequence. Its shared parameters (collective, sizes, counts, root, operator, in-place,
 * forced algorithm) are drawn from the generator every rank steps identically, in the constructor of a subclass;
 * {@link #prepare} then makes this rank's buffers (their kinds and offsets drawn from the rank's own generator, so
 * that ranks pass different kinds to one call) and the expected contents of every buffer after the call: what it
 * held before, with the call's output written over it. {@link #check} compares every byte of every buffer and its
 * guards.
 */
abstract class RandomCall {

    /** What a call needs of the rank running it. */
    record Ctx(Communicator comm, int n, int me, long salt, SplittableRandom local, Arena arena, String where) {
    }

    private record Checked(String name, RandomBuffer buffer, MemorySegment expected) {
    }

    private final List<Checked> checked = new ArrayList<>();
    /** Ranges whose contents the API leaves undefined (the rest of an in-place reduce-scatter's vector). */
    private final List<Object[]> undefined = new ArrayList<>();
    /** An algorithm id to force for this call, or null for automatic selection. */
    String forced;
    /** The algorithm that ran (for messages), found when the call starts. */
    String algorithm = "?";
    Ctx ctx;
    private int root;
    /** This rank's buffers, where the call has a send and a receive buffer, and the family of overloads they go to. */
    RandomBuffer send;
    RandomBuffer recv;
    RandomBuffer.Family f;

    abstract Collective collective();

    /** The shared parameters, for messages. */
    abstract String describe();

    /** Makes this rank's buffers and registers them with {@link #buffer}. */
    abstract void prepare(Ctx c);

    abstract Request start(Communicator comm);

    abstract void run(Communicator comm);

    /** Whether the call accepts heap segments over arrays other than byte[] (the reductions do). */
    boolean wideHeapSegments() {
        return false;
    }

    /** The element type whose typed arrays (int[], long[], float[], double[]) the array family passes, or null: byte[]. */
    ElementType typedArrays() {
        return null;
    }

    /** Whether the call has an i-form (point-to-point pairs are run blocking here). */
    boolean hasNonBlockingForm() {
        return true;
    }

    /** The block size and root {@link Communicator#selectedAlgorithm} is asked about. */
    long selectionBytes() {
        return 0;
    }

    /** The root of a rooted call, 0 for the others. */
    final int root() {
        return root;
    }

    /** Draws the root of a rooted call, in its constructor: after its sizes, as every rooted call draws it. */
    final void drawRoot(SplittableRandom shared, int n) {
        root = shared.nextInt(n);
    }

    static MemorySegment seg(RandomBuffer b) {
        return b == null ? null : b.segment();
    }

    static byte[] arr(RandomBuffer b) {
        return b == null ? null : b.array();
    }

    static ByteBuffer buf(RandomBuffer b) {
        return b == null ? null : b.buffer();
    }

    final void bind(Ctx c) {
        this.ctx = c;
        prepare(c);
    }

    /**
     * A buffer of this call of {@code length} bytes, filled with junk that the call must not leave behind where it
     * writes; its expected contents start as what it holds now.
     */
    final RandomBuffer buffer(String name, RandomBuffer.Family family, long length) {
        RandomBuffer b = RandomBuffer.of(family, length, wideHeapSegments(), typedArrays(), ctx.local(), ctx.arena());
        junk(b.body, ctx.local().nextLong());
        MemorySegment expected = ctx.arena().allocate(Math.max(1, length)).asSlice(0, length);
        checked.add(new Checked(name, b, expected));
        return b;
    }

    /** Sets the expected contents of {@code b} to what it holds now (after the program filled its input). */
    final MemorySegment snapshot(RandomBuffer b) {
        MemorySegment e = expected(b);
        e.copyFrom(b.body);
        return e;
    }

    final MemorySegment expected(RandomBuffer b) {
        for (Checked c : checked) {
            if (c.buffer == b) {
                return c.expected;
            }
        }
        throw new IllegalStateException("not a buffer of this call");
    }

    static void junk(MemorySegment s, long salt) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (salt + i * 0x3b + (i >>> 7)));
        }
    }

    /** The byte at offset {@code i} of the data block of {@code who} (a rank, or a pair's code) in this call. */
    static byte datum(long salt, long who, long i) {
        long h = salt * 0x9E3779B97F4A7C15L + who * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        return (byte) (h + i * (2 * (h >>> 40) + 1) + (i >>> 8) * 0x25 + (i >>> 16) * 0x61);
    }

    static void fillData(MemorySegment s, long salt, long who) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, datum(salt, who, i));
        }
    }

    /** A last change to the expected contents, once the call has finished. */
    void beforeCheck() {
    }

    /** Bytes [from, from+length) of {@code b}'s body are undefined after the call: not compared (guards still are). */
    final void undefined(RandomBuffer b, long from, long length) {
        undefined.add(new Object[] {b, from, length});
    }

    /** Every buffer of the call byte for byte against its expected contents, and its guards. */
    final void check() {
        beforeCheck();
        for (Object[] u : undefined) {
            RandomBuffer b = (RandomBuffer) u[0];
            long from = (Long) u[1];
            long length = (Long) u[2];
            expected(b).asSlice(from, length).copyFrom(b.body.asSlice(from, length));
        }
        for (Checked c : checked) {
            String guard = c.buffer.checkGuards();
            if (guard != null) {
                throw failure(c.name, guard);
            }
            long at = c.buffer.body.mismatch(c.expected);
            if (at >= 0) {
                throw failure(c.name + " " + c.buffer, "offset " + at + " of " + c.buffer.body.byteSize() + " is "
                        + c.buffer.body.get(ValueLayout.JAVA_BYTE, at) + ", expected "
                        + c.expected.get(ValueLayout.JAVA_BYTE, at) + mismatchSpan(c, at));
            }
        }
    }

    private static String mismatchSpan(Checked c, long first) {
        long last = first;
        long wrong = 0;
        for (long i = first; i < c.buffer.body.byteSize(); i++) {
            if (c.buffer.body.get(ValueLayout.JAVA_BYTE, i) != c.expected.get(ValueLayout.JAVA_BYTE, i)) {
                last = i;
                wrong++;
            }
        }
        return " (" + wrong + " bytes wrong, the last at " + last + ")";
    }

    final AssertionError failure(String buffer, String what) {
        return new AssertionError(ctx.where() + ", " + describe() + ", algorithm " + algorithm + ", rank "
                + ctx.me() + " of " + ctx.n() + ": " + buffer + " " + what);
    }

    /** Block sizes: empty, one byte, odd, around the eager, single-copy, ring and payload thresholds, and large. */
    static long bytes(SplittableRandom rnd, int n, long maxTotal) {
        long b = switch (rnd.nextInt(20)) {
            case 0, 1 -> 0;
            case 2, 3 -> 1;
            case 4, 5, 6, 7 -> 2 * rnd.nextInt(1, 40) + 1;
            case 8, 9, 10 -> rnd.nextInt(64, 5000);
            case 11, 12, 13, 14, 15, 16 -> {
                long[] edges = {1400, 4096, 8192, 16 * 1024, 64 * 1024, 128 * 1024, 256 * 1024};
                yield edges[rnd.nextInt(edges.length)] + rnd.nextInt(-1, 2);
            }
            case 17, 18 -> rnd.nextInt(5000, 70_000);
            // Past the node region's 4 MiB step buffer in total.
            default -> rnd.nextInt(4) == 0 ? (4L << 20) / Math.max(1, n - 1) + 3 : rnd.nextInt(70_000, 600_000);
        };
        return Math.min(Math.min(b, largestBlock), maxTotal / Math.max(1, n));
    }

    /** The largest block drawn ({@code largest=} of the app, for reproductions that want small calls only). */
    static volatile long largestBlock = Long.MAX_VALUE;
}
