package io.railcoll.schedule;

import java.util.Arrays;

/**
 * The bytes of each rank's block in a collective with per-rank counts (the v-variants, {@link Collective#variable()}),
 * laid out packed: block i starts where block i-1 ends. For gatherv, scatterv, all-gatherv and reduce-scatterv it is
 * one count per rank ({@link #perRank}); for all-to-allv the {@code N x N} matrix of what rank i sends rank j
 * ({@link #matrix}), whose row i is rank i's SEND and whose column j is rank j's RECV, each packed in rank order.
 *
 * <p>Every rank of a call holds the same counts (the API checks nothing locally about the others'): the
 * {@link #digest} rides in the frame header where uniform collectives carry their block size, so ranks whose counts
 * differ fail with a {@code MismatchException} instead of exchanging wrong bytes (decision 0085). Immutable, with value
 * equality, so that a shape holding it keys the program cache.
 */
public final class BlockCounts {
    private final int ranks;
    private final boolean matrix;
    /** Per rank (or row-major per pair), the bytes. */
    private final long[] bytes;
    /** {@code offsets[i]}: where block i starts (per rank), or row-major offsets within each row (matrix). */
    private final long[] offsets;
    /** Matrix only: {@code columnOffsets[i*N+j]}: where rank i's block starts in rank j's RECV. */
    private final long[] columnOffsets;
    private final long[] rowTotals;
    private final long[] columnTotals;
    private final long largest;
    private final long digest;

    private BlockCounts(int ranks, boolean matrix, long[] bytes) {
        if (ranks < 1) {
            throw new IllegalArgumentException("counts need at least one rank, got " + ranks);
        }
        this.ranks = ranks;
        this.matrix = matrix;
        this.bytes = bytes.clone();
        long big = 0;
        for (int i = 0; i < this.bytes.length; i++) {
            if (this.bytes[i] < 0) {
                throw new IllegalArgumentException((matrix ? "count from rank " + i / ranks + " to rank " + i % ranks
                        : "count of rank " + i) + " is negative: " + this.bytes[i]);
            }
            big = Math.max(big, this.bytes[i]);
        }
        this.largest = big;
        int rows = matrix ? ranks : 1;
        this.offsets = new long[this.bytes.length];
        this.rowTotals = new long[rows];
        for (int row = 0; row < rows; row++) {
            long at = 0;
            for (int j = 0; j < ranks; j++) {
                offsets[row * ranks + j] = at;
                at = Math.addExact(at, this.bytes[row * ranks + j]);
            }
            rowTotals[row] = at;
        }
        if (matrix) {
            columnOffsets = new long[this.bytes.length];
            columnTotals = new long[ranks];
            for (int j = 0; j < ranks; j++) {
                long at = 0;
                for (int i = 0; i < ranks; i++) {
                    columnOffsets[i * ranks + j] = at;
                    at = Math.addExact(at, this.bytes[i * ranks + j]);
                }
                columnTotals[j] = at;
            }
        } else {
            columnOffsets = null;
            columnTotals = null;
        }
        this.digest = digestOf(ranks, matrix, this.bytes);
    }

    /**
     * One count per rank, in bytes.
     *
     * @throws IllegalArgumentException for an empty or negative count, or a total that overflows a long
     * @throws ArithmeticException       never: overflow is reported as IllegalArgumentException
     */
    public static BlockCounts perRank(long... bytes) {
        try {
            return new BlockCounts(bytes.length, false, bytes);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the counts add up to more than a long holds: " + Arrays.toString(bytes));
        }
    }

    /** The {@code ranks x ranks} matrix, row-major: {@code bytes[i*ranks+j]} is what rank i sends rank j. */
    public static BlockCounts matrix(int ranks, long... bytes) {
        if (bytes.length != (long) ranks * ranks) {
            throw new IllegalArgumentException("a " + ranks + "x" + ranks + " count matrix needs " + (long) ranks * ranks
                    + " counts, got " + bytes.length);
        }
        try {
            return new BlockCounts(ranks, true, bytes);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("a row or column of the count matrix adds up to more than a long holds");
        }
    }

    /** Every rank's block of {@code b} bytes (a matrix of them when {@code matrix}). */
    public static BlockCounts uniform(int ranks, long b, boolean matrix) {
        long[] all = new long[matrix ? ranks * ranks : ranks];
        Arrays.fill(all, b);
        return matrix ? matrix(ranks, all) : perRank(all);
    }

    public int ranks() {
        return ranks;
    }

    /** Whether this is an all-to-allv matrix rather than one count per rank. */
    public boolean isMatrix() {
        return matrix;
    }

    /** Bytes of rank {@code rank}'s block (per-rank counts). */
    public long of(int rank) {
        requireVector();
        return bytes[rank];
    }

    /** Where rank {@code rank}'s block starts in the packed buffer of every block (per-rank counts). */
    public long offset(int rank) {
        requireVector();
        return offsets[rank];
    }

    /** Bytes of blocks {@code from .. from+count-1} (per-rank counts; {@code from+count <= N}). */
    public long span(int from, int count) {
        requireVector();
        return count == 0 ? 0 : offsets[from + count - 1] + bytes[from + count - 1] - offsets[from];
    }

    /** Bytes of every block together (per-rank counts). */
    public long total() {
        requireVector();
        return rowTotals[0];
    }

    /** Bytes rank {@code from} sends rank {@code to} (matrix). */
    public long of(int from, int to) {
        requireMatrix();
        return bytes[from * ranks + to];
    }

    /** Where the block for {@code to} starts in {@code from}'s SEND (matrix). */
    public long sendOffset(int from, int to) {
        requireMatrix();
        return offsets[from * ranks + to];
    }

    /** Where the block from {@code from} starts in {@code to}'s RECV (matrix). */
    public long recvOffset(int from, int to) {
        requireMatrix();
        return columnOffsets[from * ranks + to];
    }

    /** Bytes of {@code rank}'s SEND: its row (matrix). */
    public long rowTotal(int rank) {
        requireMatrix();
        return rowTotals[rank];
    }

    /** Bytes of {@code rank}'s RECV: its column (matrix). */
    public long columnTotal(int rank) {
        requireMatrix();
        return columnTotals[rank];
    }

    /** Whether these are exactly {@code values} (as {@link #toArray}), without building new counts. */
    public boolean sameAs(long[] values) {
        return Arrays.equals(bytes, values);
    }

    /** The largest single count. */
    public long largest() {
        return largest;
    }

    /** The counts as given (a copy). */
    public long[] toArray() {
        return bytes.clone();
    }

    /**
     * A 64-bit digest of the counts (and their form), what frame headers carry so that ranks whose counts differ
     * anywhere fail: two different count vectors share a digest with probability about 2^-64.
     */
    public long digest() {
        return digest;
    }

    private static long digestOf(int ranks, boolean matrix, long[] bytes) {
        // FNV-1a over the words, then a murmur finaliser: cheap, and any single changed count changes every bit.
        long h = 0xcbf29ce484222325L ^ ranks ^ (matrix ? 0x9e3779b97f4a7c15L : 0);
        for (long b : bytes) {
            h = (h ^ b) * 0x100000001b3L;
            h = Long.rotateLeft(h, 29);
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ h >>> 33;
    }

    private void requireVector() {
        if (matrix) {
            throw new IllegalStateException("a count matrix has no single count per rank");
        }
    }

    private void requireMatrix() {
        if (!matrix) {
            throw new IllegalStateException("per-rank counts are not a matrix");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockCounts c && c.ranks == ranks && c.matrix == matrix && c.digest == digest
                && Arrays.equals(c.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(digest);
    }

    /** E.g. {@code [3, 0, 5]}, or the matrix's rows {@code [[0, 1], [2, 0]]}; long ones are cut. */
    @Override
    public String toString() {
        if (!matrix) {
            return describe(bytes, 0, bytes.length);
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < ranks; i++) {
            sb.append(i == 0 ? "" : ", ").append(describe(bytes, i * ranks, ranks));
            if (sb.length() > 400) {
                return sb.append(", ...]").toString();
            }
        }
        return sb.append(']').toString();
    }

    private static String describe(long[] values, int from, int count) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            if (i == 64) {
                return sb.append(", ... (").append(count).append(" counts)]").toString();
            }
            sb.append(i == 0 ? "" : ", ").append(values[from + i]);
        }
        return sb.append(']').toString();
    }
}
