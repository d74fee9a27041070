package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.Request;
import io.railcoll.launcher.RankApp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Decision 0217: a single-copy put completes when its receiver has pulled it, and that answer must reach the sender
 * even when the receiver has already sent frames of a later call the sender cannot take yet. The answer used to be a
 * PULLED frame on the ring back, behind those frames: the sender, still in the earlier call, paused its ring on the
 * later call's frame and never read the answer (found by the random call generator, decision 0214, bug 5).
 */
final class PullAnswerApps {
    private PullAnswerApps() {
    }

    /** Rank 0's block: pulled by rank 1 in many pieces (256 KiB each), so rank 1 is still pulling while it goes on. */
    static final long BIG = 8L << 20;
    /** Every other rank's block: above the single-copy threshold, so rank 0 pulls it, and quickly. */
    static final long SMALL = (256 << 10) + 3;

    /**
     * Two all-gathervs by messages ({@code allgatherv.direct}, forced), native buffers, rank 0's block large and the
     * others' small. Rank 1 starts both at once and awaits the second first: once rank 0 has pulled its first put,
     * rank 1's engine puts the second call's block to rank 0 while it still pulls rank 0's first one. Rank 0 runs
     * them blocking, one after the other, and must see its first put answered. Every byte is checked. Prints
     * {@code PULL-ANSWER-OK rank r rounds n}.
     */
    public static final class LaterCallBeforeTheAnswer implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int rounds = args.isEmpty() ? 6 : Integer.parseInt(args.getFirst());
            int n = comm.size();
            int me = comm.rank();
            long[] counts = new long[n];
            long[] displs = new long[n];
            long total = 0;
            for (int r = 0; r < n; r++) {
                counts[r] = r == 0 ? BIG : SMALL;
                displs[r] = total;
                total += counts[r];
            }
            comm.forceAlgorithm("allgatherv.direct");
            try (Arena arena = Arena.ofShared()) {
                MemorySegment[] send = {arena.allocate(counts[me]), arena.allocate(counts[me])};
                MemorySegment[] recv = {arena.allocate(total), arena.allocate(total)};
                for (int round = 0; round < rounds; round++) {
                    for (int call = 0; call < 2; call++) {
                        fill(send[call], me, round * 2 + call);
                        recv[call].fill((byte) 0);
                    }
                    if (me == 1) {
                        Request first = comm.iallgatherv(send[0], recv[0], counts, displs);
                        Request second = comm.iallgatherv(send[1], recv[1], counts, displs);
                        second.await();
                        first.await();
                    } else {
                        comm.allgatherv(send[0], recv[0], counts, displs);
                        comm.allgatherv(send[1], recv[1], counts, displs);
                    }
                    for (int call = 0; call < 2; call++) {
                        for (int r = 0; r < n; r++) {
                            check(recv[call].asSlice(displs[r], counts[r]), r, round * 2 + call);
                        }
                    }
                }
            }
            System.out.println("PULL-ANSWER-OK rank " + me + " rounds " + rounds);
        }

        private static byte value(int rank, long i, int salt) {
            return (byte) (rank * 131 + i * 7 + salt * 29 + (i >>> 12));
        }

        private static void fill(MemorySegment s, int rank, int salt) {
            for (long i = 0; i < s.byteSize(); i++) {
                s.set(ValueLayout.JAVA_BYTE, i, value(rank, i, salt));
            }
        }

        private static void check(MemorySegment block, int rank, int salt) {
            for (long i = 0; i < block.byteSize(); i++) {
                byte got = block.get(ValueLayout.JAVA_BYTE, i);
                if (got != value(rank, i, salt)) {
                    throw new AssertionError("call " + salt + ": byte " + i + " of rank " + rank + "'s block is " + got
                            + ", expected " + value(rank, i, salt));
                }
            }
        }
    }
}
