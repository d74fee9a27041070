package io.railcoll.algorithm;

/**
 * The rank layout of the k-port Standard Exchange (paper 000 sections 5.1.2-5.1.3) for any N.
 *
 * <p>The paper's exchange needs N a power of k+1. Write {@code N = m (k+1)^D + e} with {@code D = floor(log_{k+1} N)},
 * {@code 1 <= m <= k} and {@code 0 <= e < (k+1)^D}. The exchange runs over {@code P = m (k+1)^D} <em>virtual
 * ranks</em> with mixed radix digits: D digits of radix k+1 and, when {@code m >= 2}, a top digit of radix m (a
 * group of m ranks still exchanges in one k-port step). Each virtual rank owns a contiguous segment of real ranks:
 * the first e segments have two ranks (the owner and one extra), the rest one, so an owner absorbs at most one
 * extra and the correction costs one step before the exchange (extras hand their data to their owners) and one
 * after (owners hand the result back):
 *
 * <pre>
 *   N = 7, k = 1: m = 1, D = 2, P = 4, e = 3
 *   virtual   0      1      2      3
 *   ranks    0,1    2,3    4,5     6        owners 0 2 4 6, extras 1 3 5
 * </pre>
 * At level l, a virtual rank exchanges with the virtual ranks that differ from it only in digit l; what it has then
 * is its level-l group, the virtual ranks that agree with it on digits l and above, whose segments are contiguous.
 * Immutable.
 */
public final class ExchangeLayout {
    private final int size;
    private final int virtualSize;
    private final int extras;
    private final int[] radices;
    private final int[] groupSizes;

    public ExchangeLayout(int size, int ports) {
        this.size = size;
        int radix = ports + 1;
        int depth = Radix.floorLog(size, radix);
        int base = (int) Radix.pow(radix, depth);
        int top = size / base;
        this.virtualSize = top * base;
        this.extras = size - virtualSize;
        int levels = depth + (top >= 2 ? 1 : 0);
        radices = new int[levels];
        groupSizes = new int[levels + 1];
        groupSizes[0] = 1;
        for (int l = 0; l < levels; l++) {
            radices[l] = l < depth ? radix : top;
            groupSizes[l + 1] = groupSizes[l] * radices[l];
        }
    }

    /** Exchange steps, not counting the correction steps. */
    public int levels() {
        return radices.length;
    }

    public int radix(int level) {
        return radices[level];
    }

    /** Virtual ranks in a level-l group: the product of the radices below l. */
    public int groupSize(int level) {
        return groupSizes[level];
    }

    public int virtualSize() {
        return virtualSize;
    }

    /** Real ranks that hand their data to an owner: {@code N - P}. */
    public int extras() {
        return extras;
    }

    /** Communication steps: the levels, plus two correction steps when there are extras. */
    public int steps() {
        return levels() + (extras > 0 ? 2 : 0);
    }

    /** First real rank of virtual rank v's segment (v may be P, giving N). */
    public int segmentStart(int v) {
        return v + Math.min(v, extras);
    }

    public int segmentSize(int v) {
        return v < extras ? 2 : 1;
    }

    /** The owner (a real rank) of virtual rank v. */
    public int owner(int v) {
        return segmentStart(v);
    }

    /** The virtual rank whose segment holds real rank {@code rank}. */
    public int virtualOf(int rank) {
        return rank < 2 * extras ? rank / 2 : rank - extras;
    }

    public boolean isOwner(int rank) {
        return owner(virtualOf(rank)) == rank;
    }

    /** The extra of an owner, or -1. */
    public int extraOf(int owner) {
        return segmentSize(virtualOf(owner)) == 2 ? owner + 1 : -1;
    }

    public int digit(int v, int level) {
        return (v / groupSizes[level]) % radices[level];
    }

    public int withDigit(int v, int level, int digit) {
        return v + (digit - digit(v, level)) * groupSizes[level];
    }

    /** The virtual ranks v exchanges with at {@code level}: those differing from it in that digit only, by digit. */
    public int[] peers(int v, int level) {
        int[] peers = new int[radices[level] - 1];
        int at = 0;
        for (int d = 0; d < radices[level]; d++) {
            if (d != digit(v, level)) {
                peers[at++] = withDigit(v, level, d);
            }
        }
        return peers;
    }

    /** First virtual rank of v's level-l group. */
    public int groupStart(int v, int level) {
        return v - v % groupSizes[level];
    }

    /** Real ranks whose data v holds before level l: the segments of its level-l group, contiguous. */
    public int groupRankStart(int v, int level) {
        return segmentStart(groupStart(v, level));
    }

    public int groupRankEnd(int v, int level) {
        return segmentStart(groupStart(v, level) + groupSizes[level]);
    }

    public int size() {
        return size;
    }
}
