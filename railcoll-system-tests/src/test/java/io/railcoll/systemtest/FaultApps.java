package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;

import java.util.List;

/** Rank programs that misbehave on purpose, for the failure tests. */
final class FaultApps {
    private FaultApps() {
    }

    /**
     * Runs all-gathers; the rank named by args[0] dies abruptly (like kill -9) after a few of them. Optional: args[1]
     * the block size (default 4096), args[2] an algorithm to force.
     */
    public static final class DieMidway implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int victim = Integer.parseInt(args.get(0));
            int block = args.size() > 1 ? Integer.parseInt(args.get(1)) : 4096;
            if (args.size() > 2) {
                comm.forceAlgorithm(args.get(2));
            }
            byte[] send = new byte[block];
            byte[] recv = new byte[block * comm.size()];
            for (int i = 0; i < 1_000_000; i++) {
                if (i == 20 && comm.rank() == victim) {
                    Runtime.getRuntime().halt(137);
                }
                comm.allgather(send, recv);
            }
        }
    }

    /**
     * Rank 0 broadcasts {@link #BYTES} from native memory to rank 1, which pulls it single-copy; at the sixth call the
     * rank named by args[0] dies abruptly (like kill -9) 2 ms into the call, while the pull is outstanding
     * (the receiver, rank 1, never finishes it; the sender, rank 0, vanishes under its puller). args[1], optional:
     * the algorithm forced (default {@code broadcast.knomial}); a {@code gather.*} one gathers {@link #BYTES} per rank
     * to rank 0 instead.
     */
    public static final class DieDuringPull implements RankApp {
        static final int BYTES = 64 << 20;

        @Override
        public void run(Communicator comm, List<String> args) throws InterruptedException {
            int victim = Integer.parseInt(args.get(0));
            String algorithm = args.size() > 1 ? args.get(1) : "broadcast.knomial";
            boolean gather = algorithm.startsWith("gather.");
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
                java.lang.foreign.MemorySegment buf = arena.allocate(BYTES, 64);
                java.lang.foreign.MemorySegment gathered = gather && comm.rank() == 0
                        ? arena.allocate((long) BYTES * comm.size(), 64) : java.lang.foreign.MemorySegment.NULL;
                buf.fill((byte) 1);
                comm.forceAlgorithm(algorithm);
                for (int i = 0; ; i++) {
                    if (i == 5 && comm.rank() == victim) {
                        Thread killer = new Thread(() -> {
                            try {
                                Thread.sleep(2);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            Runtime.getRuntime().halt(137);
                        });
                        killer.setDaemon(true);
                        killer.start();
                    }
                    if (gather) {
                        comm.gather(buf, gathered, 0);
                    } else {
                        comm.broadcast(buf, 0);
                    }
                }
            }
        }
    }

    /** Rank 1 never joins the all-gather in time: it sleeps far past the others' deadline. */
    public static final class LateRank implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) throws InterruptedException {
            comm.barrier();
            if (comm.rank() == 1) {
                Thread.sleep(60_000);
            }
            comm.allgather(new byte[16], new byte[16 * comm.size()]);
        }
    }

    /** Rank 1 passes a larger block than everyone else. */
    public static final class SizeMismatch implements RankApp {
        /**
         * Optional: args[0] the block size (default 100), args[1] the rank that calls with another size (default 1),
         * args[2] that size (default twice the block size), args[3] an all-gather algorithm to force.
         */
        @Override
        public void run(Communicator comm, List<String> args) {
            int block = args.size() > 0 ? Integer.parseInt(args.get(0)) : 100;
            int odd = args.size() > 1 ? Integer.parseInt(args.get(1)) : 1;
            int other = args.size() > 2 ? Integer.parseInt(args.get(2)) : 2 * block;
            if (args.size() > 3) {
                comm.forceAlgorithm(args.get(3));
            }
            comm.barrier();
            int b = comm.rank() == odd ? other : block;
            comm.allgather(new byte[b], new byte[b * comm.size()]);
        }
    }

    /** Rank 0 calls a barrier while everyone else calls an all-gather. */
    public static final class CollectiveMismatch implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            if (comm.rank() == 0) {
                comm.barrier();
            } else {
                comm.allgather(new byte[8], new byte[8 * comm.size()]);
            }
        }
    }

    /** A 64 KiB all-gather, then prints how many bytes each rail sent from this rank. */
    public static final class RailUsage implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            comm.forceAlgorithm("allgather.direct");
            comm.allgather(new byte[65536], new byte[65536 * comm.size()]);
            StringBuilder sb = new StringBuilder("RAILS rank " + comm.rank());
            for (int r = 0; r < comm.rails(); r++) {
                sb.append(' ').append(comm.railCounters().bytesSent(r));
            }
            System.out.println(sb);
        }
    }

    /** Checks the programming errors that must throw before anything is sent, then proves the communicator still works. */
    public static final class ProgrammingErrors implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            expect(IllegalArgumentException.class, () -> comm.allgather(new byte[10], new byte[10 * comm.size() - 1]));
            expect(IllegalArgumentException.class, () -> comm.broadcast(new byte[4], comm.size()));
            expect(IllegalArgumentException.class, () -> comm.gather(new byte[4], new byte[4 * comm.size()], -1));
            expect(IllegalArgumentException.class, () -> comm.forceAlgorithm("allgather.no-such-algorithm"));
            try (java.lang.foreign.Arena confined = java.lang.foreign.Arena.ofConfined()) {
                expect(IllegalArgumentException.class, () -> comm.allgather(confined.allocate(4), confined.allocate(4L * comm.size())));
            }
            expect(IllegalArgumentException.class, () -> comm.broadcast(java.lang.foreign.MemorySegment.ofArray(new long[2]), 0));
            byte[] recv = new byte[3 * comm.size()];
            comm.allgather(new byte[] {1, 2, 3}, recv);
            comm.close();
            expect(IllegalStateException.class, comm::barrier);
            System.out.println("PROGRAMMING-ERRORS-OK rank " + comm.rank());
        }

        private static void expect(Class<? extends Throwable> type, Runnable r) {
            try {
                r.run();
            } catch (Throwable t) {
                if (type.isInstance(t)) {
                    return;
                }
                throw new AssertionError("expected " + type.getSimpleName() + ", got " + t, t);
            }
            throw new AssertionError("expected " + type.getSimpleName() + ", nothing was thrown");
        }
    }
}
