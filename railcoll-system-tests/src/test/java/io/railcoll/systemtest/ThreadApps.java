package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Rank programs that call one communicator from several threads, for the thread-contract tests. */
final class ThreadApps {
    private ThreadApps() {
    }

    /**
     * Eight threads per rank on a thread-safe communicator (RAILCOLL_THREAD_SAFE=on), in two phases:
     * <ol>
     *   <li><em>contended</em>: every thread makes {@code calls} all-gathers at once; the calls are all alike (the
     *       same sizes, each rank's block its own pattern), so whatever order the threads enter in, every rank sees
     *       the same sequence of calls, and every result must be exact;</li>
     *   <li><em>ordered</em>: distinct calls (broadcasts from every root, of sizes that differ per turn) made in turns
     *       given by a counter shared by the rank's threads, so every rank makes them in the same order, as MPI asks
     *       of a multi-threaded program; each thread waits for its turn, calls, and passes the turn on.</li>
     * </ol>
     * Prints {@code THREADS-OK rank r calls n} when every call of every thread checked out.
     */
    public static final class EightThreads implements RankApp {
        static final int THREADS = 8;

        @Override
        public void run(Communicator comm, List<String> args) throws Exception {
            int calls = args.isEmpty() ? 25 : Integer.parseInt(args.get(0));
            AtomicInteger made = new AtomicInteger();
            runThreads(t -> {
                byte[] mine = new byte[100];
                Arrays.fill(mine, (byte) (comm.rank() + 1));
                for (int i = 0; i < calls; i++) {
                    byte[] all = new byte[mine.length * comm.size()];
                    comm.allgather(mine, all);
                    for (int b = 0; b < all.length; b++) {
                        if (all[b] != b / mine.length + 1) {
                            throw new AssertionError("thread " + t + " call " + i + ": byte " + b + " is " + all[b]);
                        }
                    }
                    made.incrementAndGet();
                }
            });
            AtomicInteger turn = new AtomicInteger();
            int turns = THREADS * calls;
            runThreads(t -> {
                for (int mine = t; mine < turns; mine += THREADS) {
                    while (turn.get() != mine) {
                        Thread.onSpinWait();
                        Thread.yield();
                    }
                    int root = mine % comm.size();
                    byte[] buf = new byte[1 + mine % 300];
                    if (comm.rank() == root) {
                        Arrays.fill(buf, (byte) mine);
                    }
                    comm.broadcast(buf, root);
                    for (byte x : buf) {
                        if (x != (byte) mine) {
                            throw new AssertionError("thread " + t + " turn " + mine + ": got " + x);
                        }
                    }
                    made.incrementAndGet();
                    turn.incrementAndGet();
                }
            });
            System.out.println("THREADS-OK rank " + comm.rank() + " calls " + made.get());
        }
    }

    /** Runs {@code body} on {@link EightThreads#THREADS} threads at once and rethrows the first failure. */
    private static void runThreads(ThreadBody body) throws Exception {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < EightThreads.THREADS; t++) {
            int id = t;
            threads.add(Thread.ofPlatform().name("caller-" + t).start(() -> {
                try {
                    body.run(id);
                } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                }
            }));
        }
        for (Thread th : threads) {
            th.join();
        }
        if (failed.get() != null) {
            throw new AssertionError("a calling thread failed: " + failed.get(), failed.get());
        }
    }

    interface ThreadBody {
        void run(int thread) throws Exception;
    }

    /**
     * Two threads call one communicator at once without the thread-safe option: one must be refused with an
     * {@link IllegalStateException} naming both threads; the communicator stays usable. Prints
     * {@code REFUSED-OK rank r: message}.
     */
    public static final class TwoThreadsUnsafe implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) throws Exception {
            comm.barrier();
            // Rank 0 enters a barrier late, so every other rank's first thread waits inside it meanwhile.
            AtomicReference<Throwable> refusal = new AtomicReference<>();
            Thread first = Thread.ofPlatform().name("first-caller").start(() -> {
                if (comm.rank() == 0) {
                    sleep(1500);
                }
                comm.barrier();
            });
            if (comm.rank() != 0) {
                sleep(500);
                try {
                    comm.allgather(new byte[4], new byte[4 * comm.size()]);
                } catch (IllegalStateException e) {
                    refusal.set(e);
                }
                if (refusal.get() == null || !refusal.get().getMessage().contains("first-caller")
                        || !refusal.get().getMessage().contains(Thread.currentThread().getName())) {
                    throw new AssertionError("expected a refusal naming both threads, got " + refusal.get());
                }
                System.out.println("REFUSED-OK rank " + comm.rank() + ": " + refusal.get().getMessage());
            }
            first.join();
            byte[] all = new byte[comm.size()];
            comm.allgather(new byte[] {(byte) comm.rank()}, all);
            for (int r = 0; r < all.length; r++) {
                if (all[r] != r) {
                    throw new AssertionError("block " + r + " is " + all[r]);
                }
            }
        }

        private static void sleep(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
