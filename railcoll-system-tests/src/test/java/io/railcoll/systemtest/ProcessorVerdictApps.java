package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Rank programs for {@code ProcessorVerdictSystemTest}: what each rank selects where rules depend on whether every
 * rank has a processor of its own (decision 0196).
 */
final class ProcessorVerdictApps {
    static final int LARGE = 1 << 20;

    private ProcessorVerdictApps() {
    }

    /**
     * Prints {@code VERDICT rank <r> allgather=<id> barrier=<id> allreduce=<id> sub-allgather=<id> gather-1m=<id>
     * allreduce-1m=<id>}: the world's choices for a 64 B all-gather, a barrier and an 8 B all-reduce, a 64 B
     * all-gather's on the sub-communicator of the ranks of its parity, and the world's for a 1 MiB gather (root last)
     * and a 1 MiB all-reduce; then runs that gather and an all-reduce of 1 MiB of doubles on the world, each checked
     * against what every rank contributed (a rank that selected otherwise would fail them with a mismatch).
     */
    public static final class Select implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int n = comm.size();
            int me = comm.rank();
            String sub;
            try (Communicator half = comm.split(me % 2, me).orElseThrow()) {
                sub = half.selectedAlgorithm(Collective.ALLGATHER, 64, 0);
            }
            System.out.println("VERDICT rank " + me + " allgather=" + comm.selectedAlgorithm(Collective.ALLGATHER, 64, 0)
                    + " barrier=" + comm.selectedAlgorithm(Collective.BARRIER, 0, 0)
                    + " allreduce=" + comm.selectedAlgorithm(Collective.ALLREDUCE, 8, 0)
                    + " sub-allgather=" + sub
                    + " gather-1m=" + comm.selectedAlgorithm(Collective.GATHER, LARGE, n - 1)
                    + " allreduce-1m=" + comm.selectedAlgorithm(Collective.ALLREDUCE, LARGE, 0));
            byte[] block = new byte[LARGE];
            for (int i = 0; i < LARGE; i++) {
                block[i] = (byte) (i * 31 + me * 7 + 1);
            }
            byte[] all = new byte[LARGE * n];
            comm.gather(block, all, n - 1);
            if (me == n - 1) {
                for (int r = 0; r < n; r++) {
                    for (int i = 0; i < LARGE; i++) {
                        if (all[r * LARGE + i] != (byte) (i * 31 + r * 7 + 1)) {
                            throw new AssertionError("gather: byte " + i + " of rank " + r + "'s block");
                        }
                    }
                }
            }
            long count = LARGE / 8;
            try (Arena arena = Arena.ofShared()) {
                MemorySegment send = arena.allocate(LARGE, 8);
                MemorySegment recv = arena.allocate(LARGE, 8);
                for (long i = 0; i < count; i++) {
                    send.setAtIndex(ValueLayout.JAVA_DOUBLE, i, i % 1000 + me); // small integers: exact sums
                }
                comm.allreduce(send, recv, ElementType.DOUBLE, count, PredefinedOperator.SUM);
                double ranks = n * (n - 1) / 2.0;
                for (long i = 0; i < count; i++) {
                    double want = n * (double) (i % 1000) + ranks;
                    if (recv.getAtIndex(ValueLayout.JAVA_DOUBLE, i) != want) {
                        throw new AssertionError("allreduce: element " + i + " is "
                                + recv.getAtIndex(ValueLayout.JAVA_DOUBLE, i) + ", expected " + want);
                    }
                }
            }
            comm.barrier();
            if (me == 0) {
                System.out.println("VERDICT-CHECKED");
            }
        }
    }
}
