package io.railcoll;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The thread contract (decision 0042), on real communicators of two ranks (TCP over loopback, one JVM): by default
 * a second thread calling in while one is inside is refused naming both; thread-safe, any number of threads may
 * call at once and every call completes with the right bytes.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ThreadContractTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(30));

    @Test
    void aSecondThreadIsRefusedNamingBothThreads() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, CONFIG)) {
            Communicator c = ranks.rank(0);
            AtomicReference<Thread> first = new AtomicReference<>();
            // Rank 0 enters a barrier that cannot end until rank 1 joins: its thread stays inside meanwhile.
            Future<?> inside = ranks.async(0, comm -> {
                first.set(Thread.currentThread());
                comm.barrier();
            });
            while (first.get() == null) {
                Thread.onSpinWait();
            }
            Thread.sleep(300); // well inside the barrier by now
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread second = Thread.ofPlatform().name("second-caller").start(() -> {
                try {
                    c.allgather(new byte[4], new byte[8]);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            second.join(TimeUnit.SECONDS.toMillis(40));
            Throwable t = thrown.get();
            assertTrue(t instanceof IllegalStateException, "expected IllegalStateException, got " + t);
            assertTrue(t.getMessage().contains("second-caller") && t.getMessage().contains(first.get().getName())
                    && t.getMessage().contains("barrier"), t.getMessage());
            // The refused call touched nothing: the barrier completes once rank 1 joins, and the ranks stay in step.
            ranks.async(1, Communicator::barrier).get(30, TimeUnit.SECONDS);
            inside.get(30, TimeUnit.SECONDS);
            ranks.onEveryRank(comm -> {
                byte[] all = new byte[2];
                comm.allgather(new byte[] {(byte) (comm.rank() + 5)}, all);
                assertEquals(5, all[0]);
                assertEquals(6, all[1]);
            });
        }
    }

    @Test
    void threadSafeLetsEightThreadsCallAtOnce() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, CONFIG.withThreadSafe(true))) {
            int threads = 8;
            int calls = 40;
            List<Future<?>> running = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                for (int t = 0; t < threads; t++) {
                    // Every call is alike (the same collective and sizes, each rank's block its own), so whichever
                    // order the threads enter in, every rank sees the same sequence of calls.
                    running.add(ranks.async(r, comm -> {
                        for (int i = 0; i < calls; i++) {
                            byte[] all = new byte[2 * 64];
                            byte[] mine = new byte[64];
                            java.util.Arrays.fill(mine, (byte) (comm.rank() + 1));
                            comm.allgather(mine, all);
                            for (int b = 0; b < all.length; b++) {
                                assertEquals(b / 64 + 1, all[b], "byte " + b);
                            }
                        }
                    }));
                }
            }
            for (Future<?> f : running) {
                try {
                    f.get(120, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    throw new AssertionError("a thread failed: " + e.getCause(), e.getCause());
                }
            }
        }
    }

    /**
     * Decision 0134: while one thread of a thread-safe communicator waits in a blocking matched probe, another
     * thread's collective and sends on it go on (before, they waited behind the probe for its whole wait, and this
     * test's barrier never finished: the probed message is sent only after it). The probe then takes its message.
     */
    @Test
    void aBlockingMatchedProbeLetsOtherThreadsCallWhileItWaits() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, CONFIG.withThreadSafe(true))) {
            AtomicReference<Status> probed = new AtomicReference<>();
            byte[] got = new byte[3];
            Future<?> probing = ranks.async(0, c -> {
                MatchedMessage m = c.mprobe(1, 7);
                probed.set(m.status());
                m.recv(got);
            });
            Thread.sleep(300); // let it wait; what follows must not depend on that wait ending
            assertTrue(!probing.isDone(), "the probe returned before anything was sent");
            Future<?> other = ranks.async(0, c -> {
                c.barrier();
                c.send(new byte[] {4, 5}, 1, 8); // another tag: not the probe's
            });
            ranks.rank(1).barrier();
            byte[] two = new byte[2];
            ranks.rank(1).recv(two, 0, 8);
            other.get(20, TimeUnit.SECONDS); // before the fix: blocked behind the probe until its 30 s deadline
            assertEquals(5, two[1]);
            assertTrue(!probing.isDone(), "the probe returned before its message was sent");
            ranks.rank(1).send(new byte[] {1, 2, 3}, 0, 7);
            probing.get(20, TimeUnit.SECONDS);
            assertEquals(1, probed.get().source());
            assertEquals(3, got[2]);
        }
    }

    @Test
    void threadSafeIsOffByDefaultAndReadFromTheEnvironment() {
        assertEquals(false, Config.defaults().threadSafe());
        assertEquals(true, Config.fromEnvironment(java.util.Map.of("RAILCOLL_THREAD_SAFE", "on")).threadSafe());
        assertThrows(IllegalArgumentException.class,
                () -> Config.fromEnvironment(java.util.Map.of("RAILCOLL_THREAD_SAFE", "sometimes")));
    }
}
