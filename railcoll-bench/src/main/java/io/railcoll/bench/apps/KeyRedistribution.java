package io.railcoll.bench.apps;

import java.lang.foreign.MemorySegment;
import java.util.Locale;

/**
 * How a radix pass moves keys to the ranks that own their new positions ({@link RadixPlan}). Keys travel as
 * 8-byte words whatever their width. Each instance keeps its buffers between passes; confined to one thread.
 */
abstract sealed class KeyRedistribution {
    protected long[] send = new long[0];
    protected long[] recv = new long[0];

    /** Fills {@code out} (this rank's {@code split.count(me)} keys) from every rank's digit-sorted keys. */
    abstract void redistribute(long[] sorted, RadixPlan plan, BlockSplit split, int me, long[] out, TimedCollectives timed);

    abstract String description();

    static KeyRedistribution of(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "alltoall" -> new ByAlltoall();
            case "allgather" -> new ByAllgather();
            default -> throw new IllegalArgumentException("unknown key exchange '" + name + "'; use alltoall, allgather or auto");
        };
    }

    protected void ensure(int sendLongs, int recvLongs) {
        if (send.length < sendLongs) {
            send = new long[sendLongs];
        }
        if (recv.length < recvLongs) {
            recv = new long[recvLongs];
        }
    }

    protected static MemorySegment words(long[] a, int count) {
        return MemorySegment.ofArray(a).asSlice(0, (long) count * Long.BYTES);
    }

    /**
     * Each rank sends every other rank exactly its keys: one all-to-all whose block is the largest run any rank
     * sends any rank (all-to-all moves equal blocks, so shorter runs are padded), {@code N*b} words per rank.
     */
    static final class ByAlltoall extends KeyRedistribution {
        @Override
        void redistribute(long[] sorted, RadixPlan plan, BlockSplit split, int me, long[] out, TimedCollectives timed) {
            int ranks = split.ranks();
            int b = Math.max(1, plan.maxSendCount());
            ensure(ranks * b, ranks * b);
            for (int p = 0; p < ranks; p++) {
                System.arraycopy(sorted, plan.sendFirst(me, p), send, p * b, plan.sendCount(me, p));
            }
            timed.alltoall(words(send, ranks * b), words(recv, ranks * b));
            for (int r = 0; r < ranks; r++) {
                plan.place(r, recv, r * b, me, out);
            }
        }

        @Override
        String description() {
            return "all-to-all";
        }
    }

    /**
     * The fallback while no all-to-all algorithm is available: every rank all-gathers all of its keys and keeps those
     * it owns, moving {@code ranks} times the data of an all-to-all. Blocks are padded to the split's block. This
     * all-gather is not the one compared: it uses automatic selection in both runs ({@link TimedCollectives}).
     */
    static final class ByAllgather extends KeyRedistribution {
        @Override
        void redistribute(long[] sorted, RadixPlan plan, BlockSplit split, int me, long[] out, TimedCollectives timed) {
            int ranks = split.ranks();
            int block = split.block();
            ensure(block, ranks * block);
            System.arraycopy(sorted, 0, send, 0, split.count(me));
            timed.otherAllgather(words(send, block), words(recv, ranks * block));
            for (int r = 0; r < ranks; r++) {
                plan.place(r, recv, r * block + plan.sendFirst(r, me), me, out);
            }
        }

        @Override
        String description() {
            return "all-gather of keys";
        }
    }
}
