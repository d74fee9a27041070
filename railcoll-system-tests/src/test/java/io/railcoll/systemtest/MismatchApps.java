package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;

import java.util.List;

/** Rank programs where one rank's call disagrees with the others', for the mismatch matrix. */
final class MismatchApps {
    private MismatchApps() {
    }

    /** The disagreements a call can have here (collectives move bytes: there is no datatype or operator to differ). */
    enum Mode {
        /** The odd rank calls a broadcast where the others call an all-gather. */
        COLLECTIVE,
        /** The odd rank's all-gather blocks are twice as large. */
        SIZE,
        /** The odd rank broadcasts from root 1, the others from root 0. */
        ROOT,
        /** The odd rank forces another all-gather algorithm. */
        ALGORITHM,
        /** The odd rank calls a barrier where the others call an all-gather. */
        BARRIER
    }

    /**
     * args: mode, odd rank, block bytes. A barrier, then the mismatched call, timed; prints
     * {@code MISMATCH rank r mode m ms t: exception} or {@code MISMATCH rank r mode m ms t: RETURNED}; a rank whose
     * call returned makes one more call (an all-gather) and prints {@code NEXT rank r: exception} or
     * {@code NEXT rank r: RETURNED}. Ends with the first exception, if any.
     */
    public static final class OneOdd implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            Mode mode = Mode.valueOf(args.get(0));
            int odd = Integer.parseInt(args.get(1));
            int block = Integer.parseInt(args.get(2));
            boolean me = comm.rank() == odd;
            if (mode == Mode.ALGORITHM) {
                comm.forceAlgorithm(me ? "allgather.ring" : "allgather.direct");
            }
            try {
                comm.barrier();
            } catch (RuntimeException e) {
                // With rail threads a node-mate let out of the barrier first may find the mismatch, and its abort
                // reach this rank while its own barrier call still waits for its last put to be delivered: the
                // mismatch is then this rank's failure, at once (seen once in CI, 2,2 ROOT threaded).
                System.out.println("MISMATCH rank " + comm.rank() + " mode " + mode + " ms 0: "
                        + e.toString().replace('\n', ' '));
                System.out.flush();
                throw e;
            }
            long t0 = System.nanoTime();
            RuntimeException failure = null;
            try {
                switch (mode) {
                    case COLLECTIVE -> {
                        if (me) {
                            comm.broadcast(new byte[block], 0);
                        } else {
                            comm.allgather(new byte[block], new byte[block * comm.size()]);
                        }
                    }
                    case SIZE -> {
                        int b = me ? 2 * block : block;
                        comm.allgather(new byte[b], new byte[b * comm.size()]);
                    }
                    case ROOT -> comm.broadcast(new byte[block], me ? 1 : 0);
                    case ALGORITHM -> comm.allgather(new byte[block], new byte[block * comm.size()]);
                    case BARRIER -> {
                        if (me) {
                            comm.barrier();
                        } else {
                            comm.allgather(new byte[block], new byte[block * comm.size()]);
                        }
                    }
                }
            } catch (RuntimeException e) {
                failure = e;
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("MISMATCH rank " + comm.rank() + " mode " + mode + " ms " + ms + ": "
                    + (failure == null ? "RETURNED" : failure.toString().replace('\n', ' ')));
            if (failure == null) {
                try {
                    comm.allgather(new byte[block], new byte[block * comm.size()]);
                    System.out.println("NEXT rank " + comm.rank() + ": RETURNED");
                } catch (RuntimeException e) {
                    System.out.println("NEXT rank " + comm.rank() + ": " + e.toString().replace('\n', ' '));
                    failure = e;
                }
            }
            System.out.flush();
            if (failure != null) {
                throw failure;
            }
        }
    }
}
