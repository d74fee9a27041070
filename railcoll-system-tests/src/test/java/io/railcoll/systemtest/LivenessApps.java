package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;

import java.util.Arrays;
import java.util.List;

/** Rank programs for the deadline model's tests: a rank that is alive but stopped (SIGSTOP), then continued. */
final class LivenessApps {
    private LivenessApps() {
    }

    /**
     * Checked all-gathers (4 KiB per rank); before call {@link #STALL_AT}, the rank named by args[0] has itself stopped
     * with a real SIGSTOP for args[1] ms (a shell sends it, and a background shell the SIGCONT). Every rank prints
     * {@code CALL-FAILED rank r call i after t ms: exception} for a call that throws (then rethrows it), and
     * {@code STALL-OK rank r calls n} when every call of args[2] (default 20) gave the right bytes.
     */
    public static final class StopAndContinue implements RankApp {
        static final int STALL_AT = 5;

        @Override
        public void run(Communicator comm, List<String> args) throws Exception {
            int victim = Integer.parseInt(args.get(0));
            long stallMs = Long.parseLong(args.get(1));
            int calls = args.size() > 2 ? Integer.parseInt(args.get(2)) : 20;
            int block = 4096;
            byte[] mine = new byte[block];
            byte[] all = new byte[block * comm.size()];
            for (int i = 0; i < calls; i++) {
                if (i == STALL_AT && comm.rank() == victim) {
                    stopMyself(stallMs);
                }
                Arrays.fill(mine, (byte) (i * 31 + comm.rank()));
                long t0 = System.nanoTime();
                try {
                    comm.allgather(mine, all);
                } catch (RuntimeException e) {
                    System.out.println("CALL-FAILED rank " + comm.rank() + " call " + i + " after "
                            + (System.nanoTime() - t0) / 1_000_000 + " ms: " + e);
                    System.out.flush();
                    throw e;
                }
                for (int b = 0; b < all.length; b++) {
                    if (all[b] != (byte) (i * 31 + b / block)) {
                        throw new AssertionError("rank " + comm.rank() + " call " + i + ": byte " + b + " is " + all[b]);
                    }
                }
            }
            System.out.println("STALL-OK rank " + comm.rank() + " calls " + calls);
        }

        /** SIGSTOP to this JVM now, SIGCONT {@code ms} later, both from shells outside it. */
        private static void stopMyself(long ms) throws Exception {
            long pid = ProcessHandle.current().pid();
            String seconds = String.format(java.util.Locale.ROOT, "%.3f", ms / 1000.0);
            Process sh = new ProcessBuilder("sh", "-c", "(sleep " + seconds + "; kill -CONT " + pid + ") >/dev/null 2>&1 &"
                    + " kill -STOP " + pid).redirectErrorStream(true).start();
            // This thread is stopped with the rest of the JVM from here until the SIGCONT.
            sh.waitFor();
            System.out.println("CONTINUED after " + ms + " ms");
        }
    }
}
