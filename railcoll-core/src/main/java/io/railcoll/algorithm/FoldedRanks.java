package io.railcoll.algorithm;

/**
 * The standard treatment of a rank count that is not a power of two in the halving and doubling algorithms
 * (Thakur, Rabenseifner and Gropp 2005, sec. 4.4): with {@code p} the largest power of two not above N and
 * {@code r = N - p}, the first {@code 2r} ranks pair up, the odd one of each pair handing its data to the even one
 * and sitting out, so p ranks remain. New rank j is old rank {@code 2j} for {@code j < r}, else {@code j + r}; it
 * stands for the contiguous run of old ranks {@code 2j, 2j+1} or {@code j + r}, so rank order is kept. Immutable.
 */
public final class FoldedRanks {
    private final int size;
    private final int pow;
    private final int rem;

    public FoldedRanks(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1, got " + size);
        }
        this.size = size;
        this.pow = Integer.highestOneBit(size);
        this.rem = size - pow;
    }

    /** p: the ranks that remain. */
    public int remaining() {
        return pow;
    }

    /** log2 p: the halving or doubling steps among the remaining ranks. */
    public int steps() {
        return Integer.numberOfTrailingZeros(pow);
    }

    /** Whether {@code rank} hands its data to {@code rank - 1} and sits out (the odd rank of a pair). */
    public boolean sitsOut(int rank) {
        return rank < 2 * rem && rank % 2 == 1;
    }

    /** Whether {@code rank} takes the data of {@code rank + 1} (the even rank of a pair). */
    public boolean takesPartner(int rank) {
        return rank < 2 * rem && rank % 2 == 0;
    }

    /** The new rank of a rank that remains. */
    public int newRank(int rank) {
        if (sitsOut(rank)) {
            throw new IllegalArgumentException("rank " + rank + " sits out");
        }
        return rank < 2 * rem ? rank / 2 : rank - rem;
    }

    /** The old rank of new rank {@code j}. */
    public int oldRank(int j) {
        return j < rem ? 2 * j : j + rem;
    }

    /** How many old ranks new rank {@code j} stands for (1 or 2). */
    public int width(int j) {
        return j < rem ? 2 : 1;
    }

    public int size() {
        return size;
    }
}
