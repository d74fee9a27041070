package io.railcoll.bench.apps;

/**
 * How {@code total} items (bodies, keys) are shared by {@code ranks} ranks: balanced contiguous ranges, the first
 * {@code total % ranks} ranks holding one more. All-gather moves equal blocks, so exchanges use {@link #block()}
 * slots per rank (the largest count) and ranks with fewer items leave their last slot as padding, which receivers
 * skip because they know every rank's {@link #count}. Immutable.
 */
public record BlockSplit(long total, int ranks) {
    public BlockSplit {
        if (total < 0 || ranks < 1) {
            throw new IllegalArgumentException("cannot split " + total + " items over " + ranks + " ranks");
        }
        if (ceilDiv(total, ranks) > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(total + " items over " + ranks + " ranks do not fit one array per rank");
        }
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private long base() {
        return total / ranks;
    }

    private long extra() {
        return total % ranks;
    }

    /** Items held by {@code rank}. */
    public int count(int rank) {
        return (int) (base() + (rank < extra() ? 1 : 0));
    }

    /** Global index of {@code rank}'s first item. */
    public long start(int rank) {
        return rank * base() + Math.min(rank, extra());
    }

    /** Global index just past {@code rank}'s last item. */
    public long end(int rank) {
        return start(rank) + count(rank);
    }

    /** Slots per rank in an exchange: the largest count, at least 1 so that blocks are never empty. */
    public int block() {
        return (int) Math.max(1, ceilDiv(total, ranks));
    }

    /** Padding slots summed over all ranks: the wasted part of every all-gather. */
    public long paddingSlots() {
        return (long) block() * ranks - total;
    }

    /** The rank holding global index {@code index}. */
    public int owner(long index) {
        if (index < 0 || index >= total) {
            throw new IndexOutOfBoundsException("index " + index + " outside 0.." + (total - 1));
        }
        long big = extra() * (base() + 1);
        return (int) (index < big ? index / (base() + 1) : extra() + (index - big) / base());
    }
}
