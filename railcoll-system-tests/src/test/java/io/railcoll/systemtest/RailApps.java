package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.bench.CheckApp;
import io.railcoll.launcher.RankApp;
import io.railcoll.transport.RailCounters;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/** Rank programs for the rail tests. Each prints what the test needs to find its job and follow it. */
final class RailApps {
    private RailApps() {
    }

    /** Prints the processors this rank may run on and the node's processor count it was given. */
    public static final class PrintAffinity implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            String allowed = "?";
            try {
                for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                    if (line.startsWith("Cpus_allowed_list:")) {
                        allowed = line.substring(line.indexOf(':') + 1).strip();
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            System.out.println("AFFINITY " + comm.rank() + " " + allowed + " " + System.getenv("RAILCOLL_NODE_CPUS"));
            comm.barrier();
        }
    }

    /** Prints the job id (so the test can look for its shared-memory files afterwards), then runs {@link CheckApp}. */
    public static final class CheckWithJobId implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            if (comm.rank() == 0) {
                System.out.println("JOB " + System.getenv("RAILCOLL_JOB_ID"));
            }
            new CheckApp().run(comm, args);
            printRails(comm);
        }
    }

    /**
     * {@code iterations} all-gathers of {@code blockBytes} per rank, every result checked byte for byte; rank 0
     * prints {@code MIDWAY} after the first (the test's cue to break a rail) and {@code TRANSFERRED n} at the end.
     */
    public static final class Transfer implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int iterations = Integer.parseInt(args.get(0));
            int block = Integer.parseInt(args.get(1));
            int n = comm.size();
            // Shared: the threaded engine's rail threads read and write these buffers.
            try (Arena arena = Arena.ofShared()) {
                MemorySegment send = arena.allocate(block);
                MemorySegment recv = arena.allocate((long) block * n);
                for (int it = 0; it < iterations; it++) {
                    for (int i = 0; i < block; i++) {
                        send.set(ValueLayout.JAVA_BYTE, i, pattern(it, comm.rank(), i));
                    }
                    recv.fill((byte) 0);
                    comm.allgather(send, recv);
                    for (int r = 0; r < n; r++) {
                        for (int i = 0; i < block; i++) {
                            if (recv.get(ValueLayout.JAVA_BYTE, (long) r * block + i) != pattern(it, r, i)) {
                                throw new AssertionError("rank " + comm.rank() + ": iteration " + it + ": byte " + i
                                        + " of rank " + r + "'s block is wrong");
                            }
                        }
                    }
                    if (it == 0 && comm.rank() == 0) {
                        System.out.println("MIDWAY");
                    }
                }
            }
            if (comm.rank() == 0) {
                System.out.println("TRANSFERRED " + iterations);
            }
            printRails(comm);
        }

        private static byte pattern(int iteration, int rank, int i) {
            return (byte) (i * 31 + rank * 7 + iteration * 13 + (i >>> 9));
        }
    }

    /** Rank 1 passes a larger all-gather block than rank 0 (two nodes, so the rails carry it). */
    public static final class SizeMismatch implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            comm.allgather(new byte[1], new byte[comm.size()]);
            int b = comm.rank() == 1 ? 2000 : 1000;
            comm.allgather(new byte[b], new byte[b * comm.size()]);
        }
    }

    private static void printRails(Communicator comm) {
        RailCounters c = comm.railCounters();
        for (String line : c.report().split("\\R")) {
            System.out.println("RAILS " + line);
        }
    }
}
