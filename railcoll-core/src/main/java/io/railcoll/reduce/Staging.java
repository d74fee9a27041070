package io.railcoll.reduce;

/**
 * Per-thread heap arrays that hold one chunk of a combine's left operand. C2 (JDK 25) does not vectorise a loop
 * that reads one segment and writes another, because it cannot prove they do not alias; it does vectorise a loop
 * over a heap array and one segment. So the left operand is first copied, chunk by chunk, into these arrays (a bulk
 * copy at memory speed), then combined into {@code inout} by one of the {@code *Loops} classes. A chunk of
 * {@link #CHUNK_ELEMENTS} elements (8 KiB at most) stays in the first-level cache. Created once per thread; no
 * allocation afterwards. Floating-point combines stage {@code inout} too (decision 0045).
 */
final class Staging {

    static final int CHUNK_ELEMENTS = 1024;

    private static final ThreadLocal<Staging> PER_THREAD = ThreadLocal.withInitial(Staging::new);

    final byte[] bytes = new byte[CHUNK_ELEMENTS];
    final short[] shorts = new short[CHUNK_ELEMENTS];
    final char[] chars = new char[CHUNK_ELEMENTS];
    final int[] ints = new int[CHUNK_ELEMENTS];
    final long[] longs = new long[CHUNK_ELEMENTS];
    final float[] floats = new float[CHUNK_ELEMENTS];
    final double[] doubles = new double[CHUNK_ELEMENTS];
    /** The staged {@code inout} of floating-point combines (see {@link StagedCombiners#ofFloats}). */
    final float[] floats2 = new float[CHUNK_ELEMENTS];
    final double[] doubles2 = new double[CHUNK_ELEMENTS];

    private Staging() {
    }

    static Staging get() {
        return PER_THREAD.get();
    }
}
